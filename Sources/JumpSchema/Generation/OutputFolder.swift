#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import JumpFiles

/// Why generated files could not be written.
public struct OutputError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var reason: String

    public var description: String { "cannot write '\(path)': \(reason)" }
}

/// Writes generated files into a folder, creating it (and the folders above it) as needed.
/// Each file is written to a temporary name and renamed, so a reader never sees half a file.
public enum OutputFolder {
    /// Writes `files` into `directory` (relative: read from `base`, nil: the process's working
    /// directory); returns their paths as `directory` spells them.
    @discardableResult
    public static func write(_ files: [GeneratedFile], to directory: String, from base: String? = nil) throws(OutputError) -> [String] {
        // One file must never overwrite another of the same run (names compared ignoring case,
        // as a case-insensitive disk does).
        var names = Set<String>()
        for file in files where !names.insert(file.name.lowercased()).inserted {
            throw OutputError(
                path: directory.hasSuffix("/") ? directory + file.name : directory + "/" + file.name,
                reason: "two generated files have this name; nothing was written")
        }
        try makeDirectories(directory, from: base)
        var paths: [String] = []
        for file in files {
            let path = directory.hasSuffix("/") ? directory + file.name : directory + "/" + file.name
            try write(Array(file.contents.utf8), to: path, from: base)
            paths.append(path)
        }
        return paths
    }

    static func failure(_ path: String) -> OutputError {
        OutputError(path: path, reason: String(cString: strerror(errno)))
    }

    static func makeDirectories(_ directory: String, from base: String?) throws(OutputError) {
        var current = directory.hasPrefix("/") ? "" : (base ?? ".")
        for part in directory.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0, errno != EEXIST { throw failure(current) }
        }
        var info = stat()
        guard stat(PathText.resolve(directory, against: base ?? "."), &info) == 0 else { throw failure(directory) }
        guard (info.st_mode & S_IFMT) == S_IFDIR else { throw OutputError(path: directory, reason: "it is not a folder") }
    }

    static func write(_ bytes: [UInt8], to path: String, from base: String?) throws(OutputError) {
        do {
            try AtomicFile.write(bytes, to: PathText.resolve(path, against: base ?? "."), mode: 0o644)
        } catch {
            throw OutputError(path: path, reason: error.reason)
        }
    }
}
