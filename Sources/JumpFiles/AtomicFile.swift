#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a file or folder was not written, read or accepted: the path and the reason, which
/// says what to do when there is something to do (`chmod 600 '…'`).
public struct FileFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file or folder the failure is about.
    public var path: String
    /// What went wrong, and the fix when there is one.
    public var reason: String

    /// A failure about `path`, for `reason`.
    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }

    /// `path: reason`.
    public var description: String { "\(path): \(reason)" }

    /// The failure of the last system call on `path` (`errno`'s text).
    public static func system(_ path: String) -> FileFailure {
        FileFailure(path: path, reason: String(cString: strerror(errno)))
    }
}

/// The one way jump-forms writes a file: whole or not at all, never through a file someone
/// else planted. Every file the CLI and the libraries write goes through it (`--out` of every
/// command, generated code, locale files, baselines, the session, the session and database
/// keys, `installation-id`, certificates and private keys).
///
/// How a write goes:
/// - The bytes go to a new temporary file in the target's folder, created as `mkstemp` does:
///   a random name (`.NAME.XXXXXXXX.tmp`), `O_CREAT | O_EXCL | O_NOFOLLOW`, so a file or a
///   symbolic link planted at a predictable name is never opened. It is flushed (`fsync`),
///   renamed over the target, and the folder is flushed, so after a crash the target holds the
///   old bytes or the new ones, never half of them.
/// - A read-only target (no write permission for you, or none at all, even for root) is
///   refused, as `cp` refuses it: `permission denied`. Renaming over it would otherwise replace
///   a file its folder lets us replace but the file itself forbids.
/// - An existing target keeps its permissions (as `cp` keeps them); a new one gets `mode`
///   less the umask, or exactly `mode` with `ignoringUmask`.
/// - A target that is a symbolic link is written through, as `cp` does: the file it points at
///   is replaced (atomically, in that file's folder) and the link stays. A link that points
///   nowhere is refused (`cp`: "not writing through dangling symlink"). Private files
///   (`writePrivate`) are never written through a link.
/// - A target that is a pipe or a character device (`/dev/null`, `/dev/stdout` on a terminal)
///   is written to directly, as `cp` does; a folder or any other kind of file is refused.
///
/// Certificates and keys (`serve --tls`) are one line each:
/// `try AtomicFile.write(certificatePEM, to: path, mode: 0o644)` and
/// `try AtomicFile.writePrivate(keyPEM, to: path)`; from a library that imports only
/// JumpCapture, `try PrivateFile.write(keyPEM, to: path)` does the latter.
public enum AtomicFile {
    /// Kept for the callers that name it so.
    package typealias Failure = FileFailure

    /// Writes `bytes` to `path` (see the type's notes). The folder must exist. `durable: false`
    /// skips the flushes (only for the scratch files of benchmarks and fuzz targets, which a
    /// crash may lose).
    public static func write(
        _ bytes: [UInt8], to path: String, mode: mode_t, ignoringUmask: Bool = false,
        durable: Bool = true
    ) throws(FileFailure) {
        try write(bytes, to: path, mode: mode, ignoringUmask: ignoringUmask, followingLinks: true, durable: durable)
    }

    /// Writes a file only its owner may read (a key, a session): mode 0600 exactly, its folder
    /// (and the folders above it that are missing) created with mode 0700, the folder checked
    /// as `PrivateAccess.checkFolder` checks it, and never through a symbolic link.
    package static func writePrivate(_ bytes: [UInt8], to path: String) throws(FileFailure) {
        try PrivateAccess.makeFolder(PathText.folder(of: path))
        try write(bytes, to: path, mode: 0o600, ignoringUmask: true, followingLinks: false, durable: true)
    }

    private static func write(
        _ bytes: [UInt8], to path: String, mode: mode_t, ignoringUmask: Bool,
        followingLinks: Bool, durable: Bool
    ) throws(FileFailure) {
        var target = path
        var existing: stat?
        var info = stat()
        if lstat(path, &info) == 0 {
            if (info.st_mode & S_IFMT) == S_IFLNK {
                guard followingLinks else {
                    throw FileFailure(
                        path: path, reason: "it is a symbolic link; private files are not written through links (remove it, and run again)")
                }
                guard stat(path, &info) == 0 else {
                    if errno == ENOENT {
                        throw FileFailure(path: path, reason: "not writing through a dangling symbolic link (it points at nothing)")
                    }
                    throw FileFailure.system(path)
                }
                if (info.st_mode & S_IFMT) == S_IFREG {
                    guard let resolved = realpath(path, nil) else { throw FileFailure.system(path) }
                    target = String(cString: resolved)
                    free(resolved)
                }
            }
            switch info.st_mode & S_IFMT {
            case S_IFREG:
                // `access` says what the user may do; root may write anything, so a file without
                // any write permission is refused explicitly too.
                guard access(target, W_OK) == 0, info.st_mode & 0o222 != 0 else {
                    throw FileFailure(path: path, reason: "permission denied (the file is read-only; make it writable first: chmod u+w '\(path)')")
                }
                existing = info
            case S_IFDIR:
                throw FileFailure(path: path, reason: String(cString: strerror(EISDIR)))
            case S_IFIFO, S_IFCHR:
                try writeDirectly(bytes, to: path)
                return
            default:
                throw FileFailure(path: path, reason: "it is not a regular file")
            }
        } else if errno != ENOENT {
            throw FileFailure.system(path)
        }

        let folder = PathText.folder(of: target)
        let (descriptor, temporary) = try createTemporary(
            in: folder, for: PathText.name(of: target),
            mode: ignoringUmask || existing != nil ? 0o600 : mode, reporting: path)
        func abandon() -> FileFailure {
            let failure = FileFailure.system(path)
            close(descriptor)
            unlink(temporary)
            return failure
        }
        guard writeAll(bytes, to: descriptor) else { throw abandon() }
        if ignoringUmask {
            guard fchmod(descriptor, mode) == 0 else { throw abandon() }
        } else if let existing {
            // Root replacing someone's file gives it back to them, as writing in place would.
            if geteuid() == 0, existing.st_uid != 0 || existing.st_gid != 0 {
                _ = fchown(descriptor, existing.st_uid, existing.st_gid)
            }
            guard fchmod(descriptor, existing.st_mode & 0o777) == 0 else { throw abandon() }
        }
        // A failed flush or close (a full disk or quota can first show there) leaves the old
        // file in place: the temporary one is removed, nothing is renamed.
        guard !durable || fsync(descriptor) == 0 else { throw abandon() }
        guard close(descriptor) == 0 else {
            let failure = FileFailure.system(path)
            unlink(temporary)
            throw failure
        }
        guard rename(temporary, target) == 0 else {
            let failure = FileFailure.system(path)
            unlink(temporary)
            throw failure
        }
        if durable { syncFolder(folder) }
    }

    /// A new file in `folder` with a random name, opened for writing; never an existing file
    /// or a link (`O_EXCL | O_NOFOLLOW`). Errors name `reported` (the path the caller asked for).
    private static func createTemporary(
        in folder: String, for name: String, mode: mode_t,
        reporting reported: String
    ) throws(FileFailure) -> (Int32, String) {
        // The name stays within NAME_MAX (255 bytes): the target's name, shortened, and 8 random
        // characters.
        var stem = ""
        for scalar in name.unicodeScalars {
            if stem.utf8.count + String(scalar).utf8.count > 200 { break }
            stem.unicodeScalars.append(scalar)
        }
        let alphabet = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789".unicodeScalars)
        for _ in 0..<100 {
            var random = ""
            for _ in 0..<8 { random.unicodeScalars.append(alphabet[Int.random(in: 0..<alphabet.count)]) }
            let temporary = PathText.join(folder, ".\(stem).\(random).tmp")
            let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
            if descriptor >= 0 { return (descriptor, temporary) }
            if errno != EEXIST { throw FileFailure.system(reported) }
        }
        throw FileFailure(path: reported, reason: "no free temporary name in '\(folder)'")
    }

    /// Writes into an existing pipe or device (no temporary file, no rename).
    private static func writeDirectly(_ bytes: [UInt8], to path: String) throws(FileFailure) {
        let descriptor = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else { throw FileFailure.system(path) }
        guard writeAll(bytes, to: descriptor) else {
            let failure = FileFailure.system(path)
            close(descriptor)
            throw failure
        }
        close(descriptor)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { systemWrite(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return false
            }
            offset += written
        }
        return true
    }

    /// Flushes a folder, so that a rename in it is durable (best effort: some file systems
    /// refuse to open or flush a folder, and the file's own bytes are already on disk).
    package static func syncFolder(_ folder: String) {
        let descriptor = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = fsync(descriptor)
        close(descriptor)
    }
}

private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, buffer, count)
}
