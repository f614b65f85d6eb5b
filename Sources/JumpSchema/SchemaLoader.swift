import JumpFiles
import JumpForms

/// What reading one file produced: the value when the file is sound, every diagnostic, and
/// the file's text for rendering them.
public struct SchemaLoad<Value: Sendable>: Sendable {
    /// Nil when the file could not be read or had errors.
    public var value: Value?
    public var diagnostics: [Diagnostic]
    public var sources: SourceFiles

    public init(value: Value?, diagnostics: [Diagnostic], sources: SourceFiles) {
        self.value = value
        self.diagnostics = diagnostics
        self.sources = sources
    }
}

/// Reads Capture schema and access-schema files (JSON). Schemas are not YAML: this does not
/// go through JumpFormsLoader.
public enum SchemaLoader {
    /// Files over this size are refused before they are read.
    public static let maximumFileSize = 8 << 20

    /// A schema from its bytes; `path` names the file in diagnostics.
    public static func schema(bytes: [UInt8], path: String) -> SchemaLoad<EntitySchema> {
        load(bytes, path: path) { root in
            var decoder = SchemaDecoder(file: path)
            let schema = decoder.decode(root)
            let diagnostics = decoder.errors.map(\.diagnostic).sortedByLocation()
            return (diagnostics.containsErrors ? nil : schema, diagnostics)
        }
    }

    /// The schema file at `path`; a relative `path` is read from `directory` (nil: the
    /// process's working directory).
    public static func schema(path: String, directory: String? = nil) -> SchemaLoad<EntitySchema> {
        switch read(path, from: directory) {
        case .success(let bytes): schema(bytes: bytes, path: path)
        case .failure(let failure): SchemaLoad(value: nil, diagnostics: [failure.diagnostic], sources: SourceFiles())
        }
    }

    /// An access schema from its bytes, its paths checked against `schema`.
    public static func accessSchema(bytes: [UInt8], path: String, schema: EntitySchema) -> SchemaLoad<AccessSchema> {
        load(bytes, path: path) { root in
            let (access, errors) = AccessSchema.decode(root, file: path, schema: schema)
            return (access, errors.map(\.diagnostic).sortedByLocation())
        }
    }

    /// The access-schema file at `path`.
    public static func accessSchema(path: String, schema: EntitySchema, directory: String? = nil) -> SchemaLoad<AccessSchema> {
        switch read(path, from: directory) {
        case .success(let bytes): accessSchema(bytes: bytes, path: path, schema: schema)
        case .failure(let failure): SchemaLoad(value: nil, diagnostics: [failure.diagnostic], sources: SourceFiles())
        }
    }

    /// A JSON file from its bytes: its text kept for rendering diagnostics, its syntax error
    /// as the only diagnostic, else what `decode` makes of its root (the value and the
    /// diagnostics).
    static func load<Value: Sendable>(
        _ bytes: [UInt8], path: String,
        decode: (JSONNode) -> (value: Value?, diagnostics: [Diagnostic])
    ) -> SchemaLoad<Value> {
        var sources = SourceFiles()
        sources.add(path: path, text: String(decoding: bytes, as: UTF8.self))
        let root: JSONNode
        do {
            root = try JSONNode.parse(bytes, file: path)
        } catch {
            return SchemaLoad(value: nil, diagnostics: [syntaxError(error, path: path).diagnostic], sources: sources)
        }
        let (value, diagnostics) = decode(root)
        return SchemaLoad(value: value, diagnostics: diagnostics, sources: sources)
    }

    static func syntaxError(_ error: JSONParseError, path: String) -> SchemaError {
        .syntax(SourceLocation(file: path, line: error.line, column: error.column), message: error.message)
    }

    /// A file that could not be read, with the `JF100`/`JF102` diagnostic saying why.
    struct ReadFailure: Error {
        var diagnostic: Diagnostic
    }

    /// The bytes of a file (`FileReader`), refusing more than `maximumFileSize`.
    static func read(_ path: String, from directory: String?) -> Result<[UInt8], ReadFailure> {
        FileReader.read(PathText.resolve(path, against: directory ?? "."), limit: maximumFileSize).mapError { failure in
            switch failure {
            case .system(let reason, _):
                ReadFailure(diagnostic: Diagnostic(.fileUnreadable, "cannot read '\(path)': \(reason)", at: nil, file: path))
            case .folder:
                ReadFailure(diagnostic: Diagnostic(.fileUnreadable, "cannot read '\(path)': it is a folder", at: nil, file: path))
            case .tooLarge:
                ReadFailure(diagnostic: Diagnostic(.fileTooLarge, "the file is over the limit of \(maximumFileSize) bytes", at: .startOfFile(path)))
            }
        }
    }
}
