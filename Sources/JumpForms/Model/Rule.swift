/// The validation rules of the flow format (Capture's rule vocabulary plus `pattern`).
///
/// The family is data: each kind carries its value shape, the field types it fits, its
/// description and valid/invalid examples. The examples feed `docs/flow-format.md` and the
/// rule-engine tests alike.
public enum RuleKind: String, Sendable, Hashable, CaseIterable, Codable {
    case required, format, pattern, minLength, maxLength, minYears, maxYears, match, matchOptions
    case whitelist, blacklist, emailDomainBlacklist, alongWith, unique

    /// What the rule's `value` must be.
    public enum ValueShape: Sendable, Hashable {
        /// No value (or `true` for `required`).
        case none
        case integer
        /// Another field of the flow.
        case fieldName
        /// One of `Format`'s names.
        case format
        /// A regular expression.
        case pattern
        /// A list of strings.
        case stringList
    }

    public var valueShape: ValueShape {
        switch self {
        case .required, .matchOptions, .unique: .none
        case .minLength, .maxLength, .minYears, .maxYears: .integer
        case .match, .alongWith: .fieldName
        case .format: .format
        case .pattern: .pattern
        case .whitelist, .blacklist, .emailDomainBlacklist: .stringList
        }
    }

    /// Whether the rule can apply to a field of the given type.
    public func fits(_ type: FieldType, hasOptions: Bool) -> Bool {
        switch self {
        case .required, .alongWith, .unique: true
        case .format, .pattern, .minLength, .maxLength: type.holdsText
        case .whitelist, .blacklist: type.holdsText || type.offersOptions
        case .emailDomainBlacklist: type == .email || type == .text || type == .hidden
        case .minYears, .maxYears: type == .dateselect
        case .match: type != .checkbox
        case .matchOptions: hasOptions && type.offersOptions
        }
    }

    /// The field types the rule fits, for messages and docs.
    public var fittingTypes: String {
        switch self {
        case .required, .alongWith, .unique: "any"
        case .format, .pattern, .minLength, .maxLength: "text, email, password, textarea, hidden"
        case .whitelist, .blacklist: "text-like fields, select, radio"
        case .emailDomainBlacklist: "email, text, hidden"
        case .minYears, .maxYears: "dateselect"
        case .match: "any but checkbox"
        case .matchOptions: "select or radio with options"
        }
    }

    /// Whether only the server can evaluate the rule.
    public var isServerOnly: Bool { self == .unique }

    /// Whether the rule applies to an empty value (all others skip empty optional fields).
    public var appliesToEmptyValues: Bool { self == .required || self == .alongWith }

    /// Whether the rule compares this field with another one.
    public var isCrossField: Bool { self == .match || self == .alongWith }

    /// What the rule checks, as the docs say it.
    public var summary: String {
        switch self {
        case .required: "The value is not empty after trimming whitespace; a checkbox must be checked."
        case .format: "The value matches the named format (see Formats)."
        case .pattern:
            """
            The whole value matches the regular expression (Swift `Regex` syntax, anchored at both ends). Lint refuses one that does not compile \
            (JF306) and warns about one prone to catastrophic backtracking (JF307): a quantifier inside a repeated group, or alternatives of a \
            repeated group that can match the same text.
            """
        case .minLength: "The value has at least `value` user-perceived characters (grapheme clusters)."
        case .maxLength: "The value has at most `value` user-perceived characters (grapheme clusters)."
        case .minYears:
            """
            The person is at least `value` years old on today's date (birthday counted on the day; 29 February birthdays count on 1 March in other \
            years).
            """
        case .maxYears: "The person is at most `value` years old on today's date."
        case .match: "The value equals the value of the field named by `value`."
        case .matchOptions: "The value is one of the field's enabled options."
        case .whitelist: "The value is one of the listed strings, compared case-insensitively."
        case .blacklist:
            """
            The value is none of the listed strings, compared by look-alike keys: case, width and compatibility forms folded (NFKC_Casefold), and on \
            `text` fields look-alike letters too (the UTS #39 skeleton), so `ａdmin` and `аdmin` (Cyrillic а) count as `admin`.
            """
        case .emailDomainBlacklist:
            """
            The email's domain is not listed, nor a subdomain of a listed domain, compared folded (case, width: `ＣＯＭ` is `com`; a final dot \
            ignored).
            """
        case .alongWith: "When this field has a value, the field named by `value` has one too."
        case .unique:
            """
            No other record has this value, compared by look-alike keys as `blacklist` compares. Needs the record store, so only the server checks \
            it.
            """
        }
    }

    /// Worked examples: for each, values the rule accepts and values it refuses.
    public var examples: [RuleExample] {
        switch self {
        case .required:
            [
                RuleExample(field: .text, valid: ["Ana", " x "], invalid: ["", "   "]),
                RuleExample(field: .checkbox, valid: ["true"], invalid: ["false"])
            ]
        case .format:
            [
                RuleExample(field: .email, value: .text("email"), valid: ["ana@example.com"], invalid: ["ana@example"]),
                RuleExample(field: .text, value: .text("zipCode"), valid: ["90210"], invalid: ["9021"])
            ]
        case .pattern:
            [
                RuleExample(field: .text, value: .text("[A-Z]{2}[0-9]{4}"), valid: ["AB1234"], invalid: ["AB12345", "ab1234", "xAB1234"]),
                // Alternatives of a repeated group that match different text: no JF307.
                RuleExample(field: .text, value: .text("(?:[a-z]|[0-9]|_)+"), valid: ["ana_r2", "_"], invalid: ["Ana", "ana-r"])
            ]
        case .minLength:
            [RuleExample(field: .password, value: .integer(8), valid: ["correct horse", "ÉéÉéÉéÉé"], invalid: ["short", "👩‍👩‍👧‍👦👩‍👩‍👧‍👦"])]
        case .maxLength:
            [RuleExample(field: .text, value: .integer(5), valid: ["Zoë", "👩‍👩‍👧‍👦x"], invalid: ["Lorenzo"])]
        case .minYears:
            [RuleExample(field: .dateselect, value: .integer(13), valid: ["2012-06-15", "1990-01-01"], invalid: ["2012-06-16", "2020-02-29"])]
        case .maxYears:
            [RuleExample(field: .dateselect, value: .integer(120), valid: ["1905-06-15", "1904-06-16"], invalid: ["1904-06-15"])]
        case .match:
            [
                RuleExample(
                    field: .password, value: .text("other"), valid: [.init("s3cret!!", other: "s3cret!!"), .init("", other: "s3cret!!")],
                    invalid: [.init("s3cret!!", other: "S3cret!!"), .init("s3cret", other: "")])
            ]
        case .matchOptions:
            [
                RuleExample(
                    field: .select, options: ["female", "male", "other", "-disabled"], valid: ["female", "other"], invalid: ["unknown", "disabled"])
            ]
        case .whitelist:
            [RuleExample(field: .text, value: .list(["US", "CA"]), valid: ["us", "CA"], invalid: ["MX"])]
        case .blacklist:
            [RuleExample(field: .text, value: .list(["admin", "root"]), valid: ["ana"], invalid: ["Admin", "ROOT", "ａdmin", "adrnin"])]
        case .emailDomainBlacklist:
            [
                RuleExample(
                    field: .email, value: .list(["mailinator.com"]), valid: ["ana@example.com", "ana@notmailinator.com"],
                    invalid: ["ana@mailinator.com", "ana@eu.MAILINATOR.com", "ana@mailinator.ｃｏｍ"])
            ]
        case .alongWith:
            [
                RuleExample(
                    field: .text, value: .text("other"), valid: [.init("x", other: "y"), .init("", other: "")], invalid: [.init("x", other: "")])
            ]
        case .unique:
            [RuleExample(field: .text, taken: ["ana_r"], valid: ["ana_r2", "bob"], invalid: ["ana_r", "ANA_R", "ａna_r"])]
        }
    }
}

/// The `value` of a rule as written in the flow.
public enum RuleValue: Sendable, Hashable {
    case none
    case integer(Int)
    case text(String)
    case list([String])
}

/// One rule on one field, as decoded from the flow.
public struct ValidationRule: Sendable, Hashable {
    public var kind: RuleKind
    public var value: RuleValue
    /// The message key shown when the rule fails.
    public var message: Located<String>
    /// False leaves the rule to the server (Capture's `disableClientSide`).
    public var clientSide: Bool
    /// Where the rule is written (its `rule:` value).
    public var location: SourceLocation
    /// Where its `value` is written, when it has one.
    public var valueLocation: SourceLocation?

    public init(
        kind: RuleKind, value: RuleValue, message: Located<String>, clientSide: Bool = true,
        location: SourceLocation, valueLocation: SourceLocation? = nil
    ) {
        self.kind = kind
        self.value = value
        self.message = message
        self.clientSide = clientSide
        self.location = location
        self.valueLocation = valueLocation
    }
}

/// A worked example of a rule: the field it sits on, the rule's value, and inputs it accepts
/// and refuses. Dates are judged against `RuleExample.today`.
public struct RuleExample: Sendable, Hashable {
    /// An input: this field's value, and for cross-field rules the other field's value.
    public struct Input: Sendable, Hashable, ExpressibleByStringLiteral {
        public var value: String
        public var other: String?

        public init(_ value: String, other: String? = nil) {
            self.value = value
            self.other = other
        }

        public init(stringLiteral value: String) {
            self.init(value)
        }
    }

    /// The date examples are judged against.
    public static let today = CivilDate(year: 2025, month: 6, day: 15)!

    public var field: FieldType
    public var value: RuleValue
    /// Option values for choice fields; a leading `-` marks a disabled option.
    public var options: [String]
    /// For `unique`: the values other records already hold (compared by look-alike keys).
    public var taken: [String]
    public var valid: [Input]
    public var invalid: [Input]

    public init(
        field: FieldType, value: RuleValue = .none, options: [String] = [], taken: [String] = [],
        valid: [Input], invalid: [Input]
    ) {
        self.field = field
        self.value = value
        self.options = options
        self.taken = taken
        self.valid = valid
        self.invalid = invalid
    }
}
