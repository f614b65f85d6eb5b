#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The checks of files only their owner may use (the session, the session key, the local
/// server's key) and of the folders that hold them (the state and config folders, the
/// database's folder), refused as ssh refuses a private key or a `~/.ssh` others can use:
/// - a folder must belong to you (or to root) and be writable by no one else (mode `& 022`
///   zero): anyone who can write in it can replace the files in it, or plant links;
/// - a private file must belong to you, be neither readable nor writable by anyone else
///   (mode `& 077` zero), and not be a symbolic link.
/// Each refusal names the path and the fix (`chmod 700 '…'`, `chmod 600 '…'`).
package enum PrivateAccess {
    /// Creates `folder` and the folders above it that are missing, with mode 0700, then checks
    /// `folder` (an existing one too).
    package static func makeFolder(_ folder: String) throws(FileFailure) {
        var current = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o700) != 0, errno != EEXIST { throw FileFailure.system(current) }
        }
        try checkFolder(folder)
    }

    /// Refuses a folder that is not a folder, belongs to someone else, or others can write.
    package static func checkFolder(_ folder: String) throws(FileFailure) {
        var info = stat()
        guard stat(folder, &info) == 0 else { throw FileFailure.system(folder) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw FileFailure(path: folder, reason: "it is not a folder") }
        if info.st_uid != geteuid(), info.st_uid != 0 {
            throw FileFailure(
                path: folder,
                reason:
                    """
                    the folder belongs to user \(info.st_uid), not to you (user \(geteuid())), so it could replace the files in it; use a folder of \
                    your own
                    """
            )
        }
        if info.st_mode & 0o022 != 0 {
            throw FileFailure(
                path: folder,
                reason:
                    """
                    the folder can be written by others (mode \(octal(info.st_mode))), so they could replace the files in it; refused as ssh refuses \
                    such folders. Fix: chmod 700 '\(folder)'
                    """
            )
        }
    }

    /// Refuses an open private file that belongs to someone else or others can read or write.
    /// `path` names it in the message.
    package static func checkFile(_ descriptor: Int32, path: String) throws(FileFailure) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw FileFailure.system(path) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw FileFailure(path: path, reason: "it is not a regular file") }
        if info.st_uid != geteuid() {
            throw FileFailure(path: path, reason: "the file belongs to user \(info.st_uid), not to you (user \(geteuid())); remove it")
        }
        if info.st_mode & 0o077 != 0 {
            throw FileFailure(
                path: path,
                reason:
                    "the file can be \(info.st_mode & 0o022 != 0 ? "written" : "read") by others (mode \(octal(info.st_mode))); it must be private, as ssh requires of a key. Fix: chmod 600 '\(path)'"
            )
        }
    }

    /// A private file's bytes (after `checkFolder` of its folder and `checkFile`), or nil when
    /// it does not exist. Never follows a symbolic link. Refuses more than `limit` bytes.
    package static func read(_ path: String, limit: Int = 16 << 20) throws(FileFailure) -> [UInt8]? {
        let folder = PathText.folder(of: path)
        var info = stat()
        if stat(folder, &info) != 0, errno == ENOENT { return nil }
        try checkFolder(folder)
        let descriptor = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            if errno == ELOOP {
                throw FileFailure(path: path, reason: "it is a symbolic link; private files are never read through links (remove it)")
            }
            throw FileFailure.system(path)
        }
        defer { close(descriptor) }
        try checkFile(descriptor, path: path)
        return try readAll(descriptor, path: path, limit: limit)
    }

    /// The bytes of a file anyone may read (a certificate): nil when there is none.
    package static func readPublic(_ path: String, limit: Int = 16 << 20) throws(FileFailure) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        if descriptor < 0 {
            if errno == ENOENT { return nil }
            throw FileFailure.system(path)
        }
        defer { close(descriptor) }
        return try readAll(descriptor, path: path, limit: limit)
    }

    /// The bytes of an open file (`FileReader`), refusing more than `limit`.
    package static func readAll(_ descriptor: Int32, path: String, limit: Int) throws(FileFailure) -> [UInt8] {
        switch FileReader.read(descriptor: descriptor, limit: limit) {
        case .success(let bytes): return bytes
        // As `read` itself says it of a folder.
        case .failure(.folder): throw FileFailure(path: path, reason: String(cString: strerror(EISDIR)))
        case .failure(let failure): throw FileFailure(path: path, reason: failure.reason)
        }
    }

    static func octal(_ mode: mode_t) -> String {
        let digits = String(mode & 0o7777, radix: 8)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}

/// The folders jump-forms keeps its own files in, from the environment as the XDG Base
/// Directory specification says, and the home folder they default to.
package enum HomeFolder {
    /// `$HOME` when it is an absolute path; else the home folder the password database gives
    /// the user (`getpwuid_r`), as ssh finds it; nil when neither says. Never a guess such as
    /// `/tmp`.
    package static func path(_ environment: [String: String]) -> String? {
        if let home = environment["HOME"], home.hasPrefix("/") { return home }
        return passwordDatabaseHome()
    }

    /// Why `path` is nil.
    package static var unknownReason: String {
        "HOME is not set and the password database has no home folder for user \(getuid()); set HOME (or the XDG_*_HOME folders)"
    }

    /// `$VARIABLE` when it is an absolute path (the specification ignores relative ones), else
    /// `home/fallback` (e.g. `.local/state`); nil when there is no home folder either.
    package static func xdg(_ variable: String, default fallback: String, _ environment: [String: String]) -> String? {
        if let value = environment[variable], value.hasPrefix("/") { return value }
        return path(environment).map { PathText.join($0, fallback) }
    }

    /// The user's home folder in the password database.
    static func passwordDatabaseHome() -> String? {
        var entry = passwd()
        var found: UnsafeMutablePointer<passwd>?
        var size = max(Int(sysconf(Int32(_SC_GETPW_R_SIZE_MAX))), 1024)
        while size <= 1 << 20 {
            var buffer = [CChar](repeating: 0, count: size)
            // The entry's strings point into `buffer`: read them while it is held.
            let (result, home) = buffer.withUnsafeMutableBufferPointer { storage -> (Int32, String?) in
                let result = getpwuid_r(getuid(), &entry, storage.baseAddress!, storage.count, &found)
                guard result == 0, found != nil, let directory = entry.pw_dir else { return (result, nil) }
                return (result, String(cString: directory))
            }
            if result == ERANGE {
                size *= 2
                continue
            }
            guard let home, home.hasPrefix("/") else { return nil }
            return home
        }
        return nil
    }
}
