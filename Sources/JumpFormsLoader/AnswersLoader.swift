import JumpForms

/// Reads an answers file: a YAML (or JSON) mapping of field name to value. Values are taken as
/// written (`true`, `2012-06-15`, `no` stay the text they are); lists and maps are refused.
public enum AnswersLoader {
    /// The answers, in file order, with where each was written; or the diagnostics.
    public static func load(bytes: [UInt8], path: String, limits: LoaderLimits = .default)
        -> (answers: [(field: Located<String>, value: String)], diagnostics: [Diagnostic], sources: SourceFiles)
    {
        var sources = SourceFiles()
        sources.add(path: path, text: String(decoding: bytes, as: UTF8.self))
        let result = YAMLReader.read(bytes, path: path, limits: limits)
        var diagnostics = result.diagnostics
        guard let document = result.document else { return ([], diagnostics, sources) }
        var decoder = NodeDecoder(path: path)
        var answers: [(field: Located<String>, value: String)] = []
        if let mapping = decoder.mapping(document.root, "an answers file") {
            for entry in mapping.entries {
                let field = Located(entry.key.value, at: decoder.location(entry.key))
                guard case .scalar(let scalar) = entry.value else {
                    decoder.errors.append(
                        .wrongNodeKind(
                            decoder.location(entry.value), expected: "a single value",
                            found: entry.value.kindDescription, context: "the answer for '\(field.value)'"))
                    continue
                }
                answers.append((field, scalar.isNull ? "" : scalar.value))
            }
        }
        diagnostics += decoder.errors.map(\.diagnostic)
        return (answers, diagnostics, sources)
    }

    /// Reads the answers file at `path` (`-` is standard input); a relative `path` is read from
    /// `directory` (nil: the process's working directory).
    public static func load(path: String, limits: LoaderLimits = .default, directory: String? = nil)
        -> (answers: [(field: Located<String>, value: String)], diagnostics: [Diagnostic], sources: SourceFiles)
    {
        let standardInput = path == "-"
        let read =
            standardInput
            ? FileAccess.readStandardInput(limit: limits.maximumFileSize) : FileAccess.read(path, limit: limits.maximumFileSize, from: directory)
        switch read {
        case .failure(let error): return ([], [error.diagnostic], SourceFiles())
        case .success(let bytes): return load(bytes: bytes, path: standardInput ? "<stdin>" : path, limits: limits)
        }
    }
}
