#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import JumpFiles
import JumpForms

/// The few file-system calls the loader makes, with errno turned into a `ReadError`. Each takes
/// the folder relative paths are read from (`ProjectLoader.directory`; nil: the process's
/// working directory) and names the path as written in what it returns.
enum FileAccess {
    /// The bytes of a file (`FileReader`), refusing files over `limit` before reading them.
    static func read(_ path: String, limit: Int, from directory: String?) -> Result<[UInt8], ReadError> {
        FileReader.read(located(path, directory), limit: limit).mapError { failure in readError(failure, path: path) }
    }

    /// Where `path` is: read from `directory` when it is relative.
    static func located(_ path: String, _ directory: String?) -> String {
        PathText.resolve(path, against: directory ?? ".")
    }

    /// Everything on standard input (named `<stdin>` in errors), refusing more than `limit` bytes.
    static func readStandardInput(limit: Int) -> Result<[UInt8], ReadError> {
        FileReader.readStandardInput(limit: limit).mapError { failure in readError(failure, path: "<stdin>") }
    }

    private static func readError(_ failure: FileReader.Failure, path: String) -> ReadError {
        if case .tooLarge(let size, let limit) = failure { return .tooLarge(path: path, size: size, limit: limit) }
        return .unreadable(path: path, reason: failure.reason)
    }

    enum Kind { case file, directory, missing }

    static func kind(of path: String, from directory: String?) -> Kind {
        let path = located(path, directory)
        return FileExists.directory(path) ? .directory : FileExists.file(path) ? .file : .missing
    }

    /// The `.yaml` and `.yml` entries directly in a folder, sorted by name. Entries that are
    /// not readable files (a link to nothing, a folder named `de-DE.yaml`) are listed too:
    /// reading them fails with a message that names them, where skipping them would be silence.
    static func yamlFiles(in directory: String, from base: String?) -> Result<[String], ReadError> {
        entries(in: directory, from: base).map { names in
            names.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
                .map { PathText.resolve($0, against: directory) }
                .sorted()
        }
    }

    /// The names in a folder, hidden ones (`.name`) left out.
    static func entries(in directory: String, from base: String?) -> Result<[String], ReadError> {
        guard let handle = opendir(located(directory, base)) else {
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
    static func nearest(to written: String, relativeTo base: String, kind wanted: Kind, from directory: String?) -> String? {
        let trimmed = written.hasSuffix("/") && written.count > 1 ? String(written.dropLast()) : written
        let folder = PathText.folder(of: trimmed)
        let name = trimmed.split(separator: "/").last.map(String.init) ?? trimmed
        let listed = PathText.resolve(folder, against: base)
        guard case .success(let names) = entries(in: listed, from: directory) else { return nil }
        let candidates = names.filter { kind(of: PathText.resolve($0, against: listed), from: directory) == wanted }
        guard let best = Suggestion.closest(to: name, among: candidates) else { return nil }
        return trimmed.contains("/") ? PathText.resolve(best, against: folder) : best
    }

    private static func errorText() -> String {
        String(cString: strerror(errno))
    }
}
