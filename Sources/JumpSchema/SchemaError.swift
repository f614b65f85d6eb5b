import JumpForms

/// Problems of a schema or access-schema file: JSON that is not a Capture schema. Each knows
/// where it is and renders as a `JF4xx` diagnostic.
public enum SchemaError: Error, Sendable, Hashable {
    case syntax(SourceLocation, message: String)
    case wrongKind(SourceLocation, expected: String, found: String, context: String)
    case unknownKey(SourceLocation, key: String, context: String, known: [String])
    case missingKey(SourceLocation, key: String, context: String)
    case unknownType(SourceLocation, type: String, attribute: String)
    case keyDoesNotFitType(SourceLocation, key: String, type: AttributeType, attribute: String)
    case duplicateAttribute(SourceLocation, name: String, first: SourceLocation)
    case duplicateKey(SourceLocation, key: String, first: SourceLocation)
    case unknownConstraint(SourceLocation, constraint: String, attribute: String)
    case invalidName(SourceLocation, name: String)
    case errorResponse(SourceLocation, message: String)
    case unknownAccessPath(SourceLocation, path: String, known: [String])
    /// An access-schema path that cannot make anything writable on its own (inside a plural,
    /// set by the server, a password): a warning; the path is left out.
    case accessPathIgnored(SourceLocation, path: String, reason: String, hint: String?)

    public var diagnostic: Diagnostic {
        switch self {
        case let .syntax(location, message):
            return Diagnostic(.schemaSyntax, "not valid JSON: \(message)", at: location)
        case let .wrongKind(location, expected, found, context):
            return Diagnostic(.schemaWrongKind, "\(context) must be \(expected), found \(found)", at: location)
        case let .unknownKey(location, key, context, known):
            let hint = Suggestion.hint(for: key, among: known) ?? "known keys: \(known.joined(separator: ", "))"
            return Diagnostic(.schemaUnknownKey, "unknown key '\(key)' in \(context)", at: location, hint: hint)
        case let .missingKey(location, key, context):
            return Diagnostic(.schemaMissingKey, "\(context) has no '\(key)'", at: location)
        case let .unknownType(location, type, attribute):
            let hint =
                Suggestion.hint(for: type, among: AttributeType.knownNames)
                ?? "expected one of: \(AttributeType.knownNames.joined(separator: ", ")), or password-<scheme>"
            return Diagnostic(.unknownAttributeType, "unknown type '\(type)' of attribute '\(attribute)'", at: location, hint: hint)
        case let .keyDoesNotFitType(location, key, type, attribute):
            let reason = key == "attr_defs" ? "only objects and plurals hold attributes" : "objects and plurals hold no value of their own"
            return Diagnostic(
                .keyDoesNotFitAttributeType, "'\(key)' does not fit attribute '\(attribute)' of type \(type.name): \(reason)",
                at: location)
        case let .duplicateAttribute(location, name, first):
            return Diagnostic(
                .duplicateAttribute, "attribute '\(name)' is defined twice", at: location,
                related: [Diagnostic.Related("'\(name)' first defined here", at: first)])
        case let .duplicateKey(location, key, first):
            return Diagnostic(
                .duplicateSchemaKey, "key '\(key)' is written twice in one object", at: location,
                related: [Diagnostic.Related("first written here", at: first)])
        case let .unknownConstraint(location, constraint, attribute):
            let known = AttributeConstraint.allCases.map(\.rawValue)
            let hint = Suggestion.hint(for: constraint, among: known) ?? "expected one of: \(known.joined(separator: ", "))"
            return Diagnostic(.unknownConstraint, "unknown constraint '\(constraint)' on attribute '\(attribute)'", at: location, hint: hint)
        case let .invalidName(location, name):
            return Diagnostic(
                .invalidAttributeName,
                "invalid attribute name '\(name)': a name is not empty and holds no '/', '.', '#', whitespace or control characters",
                at: location)
        case let .errorResponse(location, message):
            return Diagnostic(
                .schemaErrorResponse, "the file is a Capture API error, not a schema: \(message)", at: location,
                hint: "download the schema again")
        case let .unknownAccessPath(location, path, known):
            return Diagnostic(
                .unknownAccessPath, "the access schema names '\(path)', which is no attribute of the schema", at: location,
                hint: Suggestion.hint(for: path, among: known))
        case let .accessPathIgnored(location, path, reason, hint):
            return Diagnostic(.accessPathIgnored, "the access schema's '\(path)' is left out: \(reason)", at: location, hint: hint)
        }
    }
}
