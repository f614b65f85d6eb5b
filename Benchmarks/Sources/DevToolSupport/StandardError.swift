#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a line to standard error (fd 2; the C `stderr` global is not concurrency-safe).
package func printError(_ text: String) {
    var bytes = Array((text.hasSuffix("\n") ? text : text + "\n").utf8)
    let count = bytes.count
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, count) }
}
