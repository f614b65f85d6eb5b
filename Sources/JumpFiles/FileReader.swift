#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way jump-forms reads a whole file: its bytes, or why not.
public enum FileReader {
    /// Why a whole file was not read.
    public enum Failure: Error, Sendable, Hashable {
        /// `open` or `read` failed: the system's text (`errno`), and the target when the path is a
        /// symbolic link to nothing.
        case system(reason: String, danglingLink: String?)
        /// The path is a folder.
        case folder
        /// The file is over `limit` bytes; `size` is what was seen (its size, or the bytes read
        /// from a pipe before the limit was passed).
        case tooLarge(size: Int, limit: Int)

        /// Why, in words: the system's text, `it is a link to 'x', which does not exist`,
        /// `it is a folder`, or `file too large (over N bytes)`.
        public var reason: String {
            switch self {
            case .system(let reason, nil): reason
            case .system(_, let target?): "it is a link to '\(target)', which does not exist"
            case .folder: "it is a folder"
            case .tooLarge(_, let limit): "file too large (over \(limit) bytes)"
            }
        }
    }

    /// The bytes of the file at `path` (a regular file, a pipe, a device; not a folder),
    /// refusing more than `limit` bytes: a regular file before it is read, anything else once
    /// it has passed the limit.
    public static func read(_ path: String, limit: Int = .max) -> Result<[UInt8], Failure> {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return .failure(openFailure(path)) }
        defer { close(descriptor) }
        return read(descriptor: descriptor, limit: limit)
    }

    /// Everything on standard input, refusing more than `limit` bytes.
    public static func readStandardInput(limit: Int = .max) -> Result<[UInt8], Failure> {
        read(descriptor: 0, limit: limit)
    }

    /// The bytes of an open file or pipe, from where it stands to its end. The size `fstat`
    /// gives is read straight into the array (one byte more shows whether the file grew
    /// meanwhile); a file that grew, or one whose size is not known in advance (a pipe,
    /// /proc), is read on in chunks.
    public static func read(descriptor: Int32, limit: Int) -> Result<[UInt8], Failure> {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(systemFailure()) }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .failure(.folder) }
        let size = (info.st_mode & S_IFMT) == S_IFREG ? Int(info.st_size) : 0
        if size > limit { return .failure(.tooLarge(size: size, limit: limit)) }
        var failure: Failure?
        var bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, initialized in
            while initialized < buffer.count {
                let count = systemRead(descriptor, buffer.baseAddress! + initialized, buffer.count - initialized)
                if count < 0 {
                    if errno == EINTR { continue }
                    failure = systemFailure()
                    return
                }
                if count == 0 { return }
                initialized += count
            }
        }
        if let failure { return .failure(failure) }
        if bytes.count <= size { return .success(bytes) }
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .failure(systemFailure())
            }
            if count == 0 { return .success(bytes) }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return .failure(.tooLarge(size: bytes.count, limit: limit))
    }

    /// Why `open` failed, naming a link to nothing as such.
    private static func openFailure(_ path: String) -> Failure {
        let code = errno
        let reason = String(cString: strerror(code))
        var info = stat()
        guard code == ENOENT, lstat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFLNK else {
            return .system(reason: reason, danglingLink: nil)
        }
        var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &target, target.count - 1)
        let name = count > 0 ? String(decoding: target[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : "?"
        return .system(reason: reason, danglingLink: name)
    }

    private static func systemFailure() -> Failure {
        .system(reason: String(cString: strerror(errno)), danglingLink: nil)
    }
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
