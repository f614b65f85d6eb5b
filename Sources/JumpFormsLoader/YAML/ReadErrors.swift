import JumpForms

/// Failures of the read phase: bytes that cannot become YAML events.
public enum ReadError: Error, Sendable, Hashable {
    case unreadable(path: String, reason: String)
    case directoryUnreadable(path: String, reason: String)
    case empty(path: String)
    case tooLarge(path: String, size: Int, limit: Int)
    case invalidUTF8(SourceLocation, byte: UInt8)
    case byteOrderMark(path: String, encoding: String)
    case tabIndentation(SourceLocation)
    /// libyaml's problem and context, and a hint in our words for the common cases.
    case syntax(SourceLocation, problem: String, context: String?, contextLocation: SourceLocation?, hint: String? = nil)

    public var diagnostic: Diagnostic {
        switch self {
        case let .unreadable(path, reason):
            return Diagnostic(.fileUnreadable, "cannot read '\(path)': \(reason)", at: nil, file: path)
        case let .directoryUnreadable(path, reason):
            return Diagnostic(.directoryUnreadable, "cannot read the folder '\(path)': \(reason)", at: nil, file: path)
        case let .empty(path):
            return Diagnostic(.emptyFile, "the file is empty: it holds no YAML document", at: .startOfFile(path))
        case let .tooLarge(path, size, limit):
            return Diagnostic(
                .fileTooLarge, "the file is \(size) bytes, over the limit of \(limit) bytes", at: .startOfFile(path),
                hint: "split the file, or raise the limit (--max-file-size on the command line, LoaderLimits.maximumFileSize in code)")
        case let .invalidUTF8(location, byte):
            let hex = String(byte, radix: 16, uppercase: true)
            return Diagnostic(
                .invalidUTF8, "invalid UTF-8: byte 0x\(hex.count == 1 ? "0" + hex : hex) does not start a valid UTF-8 sequence", at: location,
                hint: "save the file as UTF-8")
        case let .byteOrderMark(path, encoding):
            return Diagnostic(
                .byteOrderMark, "the file starts with a \(encoding) byte-order mark", at: .startOfFile(path),
                hint: encoding == "UTF-8" ? "save the file as UTF-8 without BOM" : "save the file as UTF-8 (without BOM)")
        case let .tabIndentation(location):
            return Diagnostic(
                .tabIndentation, "tab character in indentation; YAML indents with spaces only", at: location,
                hint: "replace the tab with spaces")
        case let .syntax(location, problem, context, contextLocation, hint):
            let related = contextLocation.map { [Diagnostic.Related(context ?? "context", at: $0)] } ?? []
            let text = context.map { "\(problem) (\($0))" } ?? problem
            return Diagnostic(.yamlSyntax, "YAML syntax error: \(text)", at: location, hint: hint, related: related)
        }
    }
}

/// Failures of the compose phase: events that cannot become a located node tree.
public enum ComposeError: Error, Sendable, Hashable {
    case multipleDocuments(SourceLocation)
    case nestingTooDeep(SourceLocation, limit: Int)
    case aliasBudgetExceeded(SourceLocation, alias: String, limit: Int)
    case nonScalarKey(SourceLocation, kind: String)
    case aliasAsKey(SourceLocation, alias: String)
    case duplicateKey(SourceLocation, key: String, first: SourceLocation)
    case undefinedAlias(SourceLocation, alias: String, known: [String])
    case mergeKey(SourceLocation)
    case unsupportedTag(SourceLocation, tag: String)

    public var diagnostic: Diagnostic {
        switch self {
        case let .multipleDocuments(location):
            return Diagnostic(
                .multipleDocuments, "a second YAML document starts here; a file holds exactly one", at: location,
                hint: "move the second document to its own file")
        case let .nestingTooDeep(location, limit):
            return Diagnostic(.nestingTooDeep, "nesting deeper than \(limit) levels", at: location)
        case let .aliasBudgetExceeded(location, alias, limit):
            return Diagnostic(
                .aliasBudgetExceeded,
                "alias '*\(alias)' makes the document expand to more than \(limit) nodes (an alias bomb?)",
                at: location, hint: "write the values out instead of sharing them through aliases")
        case let .nonScalarKey(location, kind):
            return Diagnostic(.nonScalarKey, "mapping key is \(kind); keys must be plain strings", at: location)
        case let .aliasAsKey(location, alias):
            return Diagnostic(.nonScalarKey, "alias '*\(alias)' used as a mapping key; keys must be written out", at: location)
        case let .duplicateKey(location, key, first):
            return Diagnostic(
                .duplicateKey, "duplicate key '\(key)'", at: location,
                related: [Diagnostic.Related("'\(key)' first defined here", at: first)])
        case let .undefinedAlias(location, alias, known):
            return Diagnostic(
                .undefinedAlias, "alias '*\(alias)' names no anchor defined before it", at: location,
                hint: Suggestion.hint(for: alias, among: known))
        case let .mergeKey(location):
            return Diagnostic(
                .mergeKey, "merge keys ('<<') are not supported", at: location,
                hint: "write the keys out, or alias the whole value")
        case let .unsupportedTag(location, tag):
            return Diagnostic(
                .unsupportedTag, "unsupported tag '\(tag)'; values are typed by the flow format", at: location,
                hint: "remove the tag (only !!str is accepted)")
        }
    }
}
