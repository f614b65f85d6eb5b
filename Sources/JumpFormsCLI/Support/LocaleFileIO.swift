#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing the files of `jump-forms locales` (interchange files, baselines,
/// generated locale files). Writes go to a temporary file renamed into place, so a failed run
/// never leaves half a file.
enum LocaleFileIO {
    /// The bytes of a file (or of standard input for `-`); nil when it cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        let descriptor = path == "-" ? 0 : open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { if descriptor != 0 { close(descriptor) } }
        var info = stat()
        if fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if count == 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }

    /// Writes `bytes` to `path` (standard output for `-`); false on failure.
    static func write(_ bytes: [UInt8], to path: String) -> Bool {
        if path == "-" {
            Console.write(String(decoding: bytes, as: UTF8.self), to: 1)
            return true
        }
        let temporary = path + ".tmp-\(getpid())"
        guard let file = fopen(temporary, "wb") else { return false }
        let written = bytes.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, file) }
        let closed = fclose(file) == 0
        guard written == bytes.count, closed, rename(temporary, path) == 0 else {
            unlink(temporary)
            return false
        }
        return true
    }

    /// The file name without folder and extension.
    static func stem(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return name }
        return String(name[..<dot])
    }
}

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
