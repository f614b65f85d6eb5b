#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Files for the replay mode: a file, or the regular files of a folder (sorted, not recursive).
enum ReplayFiles {
    static func list(_ path: String) -> [String] {
        var info = stat()
        guard stat(path, &info) == 0 else { return [path] }
        guard (info.st_mode & S_IFMT) == S_IFDIR, let handle = opendir(path) else { return [path] }
        defer { closedir(handle) }
        var files: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard !name.hasPrefix(".") else { continue }
            let child = path + "/" + name
            var childInfo = stat()
            if stat(child, &childInfo) == 0, (childInfo.st_mode & S_IFMT) == S_IFREG { files.append(child) }
        }
        return files.sorted()
    }

    static func read(_ path: String) -> [UInt8]? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            if count <= 0 { break }
            bytes += chunk[0..<count]
        }
        return bytes
    }
}

/// Writes a line to standard error (fd 2; the C `stderr` global is not concurrency-safe).
func printError(_ text: String) {
    var bytes = Array((text.hasSuffix("\n") ? text : text + "\n").utf8)
    let count = bytes.count
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, count) }
}
