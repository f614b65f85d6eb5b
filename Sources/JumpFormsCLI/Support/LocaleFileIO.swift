#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ArgumentParser
import JumpFiles
import JumpForms

/// Reading and writing the files of `jump-forms locales` (interchange files, baselines,
/// generated locale files). Writes go to a temporary file renamed into place, so a failed run
/// never leaves half a file.
enum LocaleFileIO {
    /// The bytes of a file (or of standard input for `-`); nil when it cannot be read.
    static func read(_ path: String) -> [UInt8]? {
        try? read(path, limit: Int.max).get()
    }

    /// The bytes of a file (or of standard input for `-`), refusing more than `limit` bytes.
    static func read(_ path: String, limit: Int) -> Result<[UInt8], FileReader.Failure> {
        path == "-" ? FileReader.readStandardInput(limit: limit) : FileReader.read(WorkingDirectory.path(path), limit: limit)
    }

    /// Writes `bytes` to `path` (standard output for `-`), whole or not at all; the error names
    /// the path and why it could not be written.
    static func write(_ bytes: [UInt8], to path: String) throws(ValidationError) {
        if path == "-" {
            Console.write(String(decoding: bytes, as: UTF8.self), to: 1)
            return
        }
        do {
            try AtomicFile.write(bytes, to: WorkingDirectory.path(path), mode: 0o666)
        } catch {
            throw cannotWrite(path, reason: error.reason)
        }
    }

    /// The locale a YAML file's name says (`fr-FR.yaml`: fr-FR): the loader requires the
    /// file's `locale:` to be that tag. Nil for other names.
    static func namedTag(_ path: String) -> LocaleTag? {
        guard path.hasSuffix(".yaml") || path.hasSuffix(".yml") else { return nil }
        return LocaleTag(PathText.stem(of: path))
    }

    /// The error for a file `write` could not write: a folder that does not exist (it is not
    /// created for one file) or cannot be written to, else the system's `reason`.
    private static func cannotWrite(_ path: String, reason: String) -> ValidationError {
        let folder = PathText.folder(of: path)
        if !WorkingDirectory.isDirectory(folder) {
            return ValidationError("cannot write '\(path)': the folder '\(folder)' does not exist (create it first)")
        }
        if access(WorkingDirectory.path(folder), W_OK) != 0 {
            return ValidationError("cannot write '\(path)': the folder '\(folder)' is not writable")
        }
        return ValidationError("cannot write '\(path)': \(reason)")
    }

    /// Creates the folder `path` and the folders it is in; false on failure.
    static func createFolder(_ path: String) -> Bool {
        var prefix = path.hasPrefix("/") ? "/" : ""
        for part in path.split(separator: "/") {
            prefix += part
            if !WorkingDirectory.isDirectory(prefix), mkdir(WorkingDirectory.path(prefix), 0o755) != 0, errno != EEXIST { return false }
            prefix += "/"
        }
        return WorkingDirectory.isDirectory(path)
    }
}
