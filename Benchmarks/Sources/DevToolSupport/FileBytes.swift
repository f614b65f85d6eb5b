#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of the file at `path`, or nil when it cannot be opened.
package func readFile(_ path: String) -> [UInt8]? {
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

/// Writes a line to standard error (fd 2; the C `stderr` global is not concurrency-safe).
package func printError(_ text: String) {
    var bytes = Array((text.hasSuffix("\n") ? text : text + "\n").utf8)
    let count = bytes.count
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, count) }
}
