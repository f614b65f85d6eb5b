import JumpForms

/// Failures of the decode phase: a well-formed YAML tree that does not fit the flow format.
public enum DecodeError: Error, Sendable, Hashable {
    case unknownKey(SourceLocation, key: String, context: String, known: [String])
    /// A key the format had and no longer has: unknown, with a hint that says what became of it.
    case removedKey(SourceLocation, key: String, context: String, hint: String)
    case missingKey(SourceLocation, key: String, context: String)
    case wrongNodeKind(SourceLocation, expected: String, found: String, context: String)
    case nullValue(SourceLocation, context: String)
    case notABoolean(SourceLocation, text: String, quoted: Bool, context: String)
    case notAnInteger(SourceLocation, text: String, context: String)
    case unknownValue(SourceLocation, value: String, what: String, known: [String])
    case invalidName(SourceLocation, name: String, what: String)
    case invalidLocaleTag(SourceLocation, text: String)
    case invalidRuleValue(SourceLocation, rule: RuleKind, problem: String)
    case undefinedEnvironmentVariable(SourceLocation, name: String)
    case localeTagMismatch(SourceLocation, declared: String, fileName: String)
    case duplicateMessageKey(SourceLocation, key: String, first: SourceLocation)
    case invalidURL(SourceLocation, text: String, context: String)
    case emptyList(SourceLocation, message: String)
    case duplicateIdentity(SourceLocation, provider: String, identifier: String, first: SourceLocation)
    case valueOutOfRange(SourceLocation, value: Int, context: String, range: ClosedRange<Int>)

    public var diagnostic: Diagnostic {
        switch self {
        case let .unknownKey(location, key, context, known):
            let hint = Suggestion.hint(for: key, among: known) ?? "known keys: \(known.joined(separator: ", "))"
            return Diagnostic(.unknownKey, "unknown key '\(key)' in \(context)", at: location, hint: hint)
        case let .removedKey(location, key, context, hint):
            return Diagnostic(.unknownKey, "unknown key '\(key)' in \(context)", at: location, hint: hint)
        case let .missingKey(location, key, context):
            return Diagnostic(.missingKey, "\(context) has no '\(key)'", at: location)
        case let .wrongNodeKind(location, expected, found, context):
            return Diagnostic(.wrongNodeKind, "\(context) must be \(expected), found \(found)", at: location)
        case let .nullValue(location, context):
            return Diagnostic(
                .nullValue, "\(context) has no value", at: location,
                hint: "write a value, or \"\" for an empty string")
        case let .notABoolean(location, text, quoted, context):
            let hint: String
            switch text.lowercased() {
            case "true", "false": hint = quoted ? "remove the quotes: \(text.lowercased())" : "write it in lower case: \(text.lowercased())"
            case "yes", "y", "on": hint = "write true (YAML 1.1 reads '\(text)' as true, YAML 1.2 as a string)"
            case "no", "n", "off": hint = "write false (YAML 1.1 reads '\(text)' as false, YAML 1.2 as a string)"
            default: hint = "write true or false"
            }
            let shown = quoted ? "\"\(text)\"" : text
            return Diagnostic(.notABoolean, "\(context) must be true or false, found \(shown)", at: location, hint: hint)
        case let .notAnInteger(location, text, context):
            return Diagnostic(
                .notAnInteger, "\(context) must be an integer, found '\(text)'", at: location,
                hint: text.first == "\"" || text.first == "'" ? "remove the quotes" : nil)
        case let .unknownValue(location, value, what, known):
            let hint = Suggestion.hint(for: value, among: known) ?? "expected one of: \(known.joined(separator: ", "))"
            return Diagnostic(.unknownValue, "unknown \(what) '\(value)'", at: location, hint: hint)
        case let .invalidName(location, name, what):
            return Diagnostic(.invalidName, "invalid \(what) name '\(name)': use a letter, then letters, digits, '_' or '-'", at: location)
        case let .invalidLocaleTag(location, text):
            return Diagnostic(
                .invalidLocaleTag, "'\(text)' is not a BCP 47 locale tag", at: location,
                hint: "write a tag such as en-US, fr, pt-BR or zh-Hant-TW")
        case let .invalidRuleValue(location, rule, problem):
            return Diagnostic(.invalidRuleValue, "rule '\(rule.rawValue)': \(problem)", at: location)
        case let .undefinedEnvironmentVariable(location, name):
            return Diagnostic(
                .undefinedEnvironmentVariable, "environment variable '\(name)' is not set", at: location,
                hint: "set it, or give a default: ${\(name):-value}")
        case let .localeTagMismatch(location, declared, fileName):
            return Diagnostic(
                .localeTagMismatch, "the file declares locale '\(declared)' but is named '\(fileName)'", at: location,
                hint: "rename the file to '\(declared).yaml' or change 'locale'")
        case let .duplicateMessageKey(location, key, first):
            return Diagnostic(
                .duplicateMessageKey, "message key '\(key)' is defined twice", at: location,
                related: [Diagnostic.Related("'\(key)' first defined here", at: first)])
        case let .invalidURL(location, text, context):
            return Diagnostic(.invalidURL, "\(context) must be an absolute http(s) URL, found '\(text)'", at: location)
        case let .emptyList(location, message):
            return Diagnostic(.emptyList, message, at: location)
        case let .duplicateIdentity(location, provider, identifier, first):
            return Diagnostic(
                .duplicateIdentity, "identity \(provider) '\(identifier)' is listed twice", at: location,
                related: [Diagnostic.Related("first listed here", at: first)])
        case let .valueOutOfRange(location, value, context, range):
            return Diagnostic(
                .valueOutOfRange, "\(context) is out of range: \(value) is not within \(range.lowerBound)...\(range.upperBound)", at: location,
                hint: "write a value from \(range.lowerBound) to \(range.upperBound)")
        }
    }
}
