#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import JumpFiles
import JumpForms

private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}

/// The few file-system calls the loader makes, with errno turned into a `ReadError`.
enum FileAccess {
    /// The bytes of a file (`FileReader`), refusing files over `limit` before reading them.
    static func read(_ path: String, limit: Int) -> Result<[UInt8], ReadError> {
        FileReader.read(path, limit: limit).mapError { failure in
            if case .tooLarge(let size, let limit) = failure { return .tooLarge(path: path, size: size, limit: limit) }
            return .unreadable(path: path, reason: failure.reason)
        }
    }

    /// Everything on standard input, up to `limit` bytes (one more, so the caller sees it is over).
    static func readStandardInput(limit: Int) -> [UInt8] {
        var bytes = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while bytes.count <= limit {
            let count = chunk.withUnsafeMutableBytes { systemRead(0, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return bytes
    }

    enum Kind { case file, directory, missing }

    static func kind(of path: String) -> Kind {
        FileExists.directory(path) ? .directory : FileExists.file(path) ? .file : .missing
    }

    /// The `.yaml` and `.yml` entries directly in a folder, sorted by name. Entries that are
    /// not readable files (a link to nothing, a folder named `de-DE.yaml`) are listed too:
    /// reading them fails with a message that names them, where skipping them would be silence.
    static func yamlFiles(in directory: String) -> Result<[String], ReadError> {
        entries(in: directory).map { names in
            names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
                .map { join(directory, $0) }
                .sorted()
        }
    }

    /// The names in a folder, hidden ones (`.name`) left out.
    static func entries(in directory: String) -> Result<[String], ReadError> {
        guard let handle = opendir(directory) else {
            return .failure(.directoryUnreadable(path: directory, reason: errorText()))
        }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return .success(names)
    }

    /// For a path that does not exist (`written`, relative to `base`): the path written with the
    /// closest name of a `wanted` entry of its folder (a typo), or nil.
    static func nearest(to written: String, relativeTo base: String, kind wanted: Kind) -> String? {
        let trimmed = written.hasSuffix("/") && written.count > 1 ? String(written.dropLast()) : written
        let folder = directory(of: trimmed)
        let name = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
        let listed = join(base, folder)
        guard case .success(let names) = entries(in: listed) else { return nil }
        let candidates = names.filter { kind(of: join(listed, $0)) == wanted }
        guard let best = Suggestion.closest(to: name, among: candidates) else { return nil }
        return trimmed.contains("/") ? join(folder, best) : best
    }

    /// `base/relative`, or `relative` when it is absolute.
    static func join(_ base: String, _ relative: String) -> String {
        if relative.hasPrefix("/") || base.isEmpty || base == "." { return relative }
        return base.hasSuffix("/") ? base + relative : base + "/" + relative
    }

    /// The folder part of a path ("." for a bare file name).
    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The file name without folder and extension.
    static func stem(of path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return name }
        return String(name[..<dot])
    }

    /// `a/b/../c` -> `a/c`, `./x` -> `x`: for showing and comparing paths.
    static func normalize(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." {
                parts.removeLast()
                continue
            }
            if part == "..", absolute { continue }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        return absolute ? "/" + joined : (joined.isEmpty ? "." : joined)
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
