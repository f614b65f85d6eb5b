import JumpForms

/// The types of a Capture attribute. The family is data: each type says what it holds, how a
/// change to it is sent, which field types can write it and what the generated model makes of
/// it; docs/schema.md is drawn from it.
public enum AttributeType: Sendable, Hashable, CustomStringConvertible {
    case string, boolean, integer, decimal, date, dateTime, ipAddress, uuid, id, json, object, plural
    /// `password` or `password-<scheme>` (`password-bcrypt`, `password-crypt-sha256`, ...):
    /// write-only, never part of a record. Holds the name as written.
    case password(String)

    /// Every type with a fixed name, in the order the docs show them.
    public static let namedTypes: [AttributeType] = [
        .string, .boolean, .integer, .decimal, .date, .dateTime, .ipAddress, .uuid, .id, .json, .object, .plural,
        .password("password"), .password("password-bcrypt")
    ]

    /// The names a schema may use (for "did you mean").
    public static var knownNames: [String] { namedTypes.map(\.name) }

    /// The type named `name`: one of the fixed names, or `password` / `password-<scheme>`.
    public init?(name: String) {
        switch name {
        case "string": self = .string
        case "boolean": self = .boolean
        case "integer": self = .integer
        case "decimal": self = .decimal
        case "date": self = .date
        case "dateTime": self = .dateTime
        case "ipAddress": self = .ipAddress
        case "uuid": self = .uuid
        case "id": self = .id
        case "json": self = .json
        case "object": self = .object
        case "plural": self = .plural
        default:
            guard name == "password" || (name.hasPrefix("password-") && name.count > "password-".count) else { return nil }
            self = .password(name)
        }
    }

    /// The name as Capture writes it.
    public var name: String {
        switch self {
        case .string: "string"
        case .boolean: "boolean"
        case .integer: "integer"
        case .decimal: "decimal"
        case .date: "date"
        case .dateTime: "dateTime"
        case .ipAddress: "ipAddress"
        case .uuid: "uuid"
        case .id: "id"
        case .json: "json"
        case .object: "object"
        case .plural: "plural"
        case .password(let name): name
        }
    }

    public var description: String { name }

    /// Objects and plurals hold attributes (`attr_defs`); every other type holds a value.
    public var holdsAttributes: Bool { self == .object || self == .plural }

    public var isPassword: Bool {
        if case .password = self { return true }
        return false
    }

    /// How a change to an attribute of this type is sent: objects updated, plurals replaced,
    /// everything else (`json` included, whatever it holds) set whole within its parent.
    public var kind: AttributeKind {
        switch self {
        case .object: .object
        case .plural: .plural
        default: .primitive
        }
    }

    /// What an attribute of the type holds, as the docs say it.
    public var summary: String {
        switch self {
        case .string: "text"
        case .boolean: "`true` or `false`"
        case .integer: "a whole number"
        case .decimal: "a number with a fraction"
        case .date: "a calendar day, `yyyy-MM-dd`"
        case .dateTime: "an instant, rendered `yyyy-MM-dd HH:mm:ss.SSSSSS +0000` (UTC)"
        case .ipAddress: "an IPv4 or IPv6 address, as text"
        case .uuid: "a UUID, as text; the record's `uuid` is set by the server"
        case .id: "a number the server assigns (the record's `id`, a plural element's `id`)"
        case .json: "any JSON value, stored as given"
        case .object: "named attributes (`attr_defs`); updated with `entity.update`"
        case .plural: "a list of elements, each with the attributes of `attr_defs` and an `id`; replaced whole with `entity.replace`"
        case .password: "a secret, write-only: never in a record (`password` or `password-<scheme>`, such as `password-bcrypt`)"
        }
    }

    /// Whether a form value (text, as an option's `value`) is a value of this type: `true` or
    /// `false` for a boolean, a whole number for an integer, a plain decimal number (`-12.5`)
    /// for a decimal. Text-like types take any text.
    public func accepts(_ text: String) -> Bool {
        switch self {
        case .boolean: return text == "true" || text == "false"
        case .integer: return Int(text) != nil
        case .decimal:
            return Double(text) != nil && text.allSatisfy { $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }
        default: return true
        }
    }

    /// The field types that can write an attribute of this type (`lint --schema`).
    public var writingFieldTypes: [FieldType] {
        switch self {
        case .string: [.text, .email, .textarea, .hidden, .select, .radio]
        case .boolean: [.checkbox, .select, .radio, .hidden]
        case .integer, .decimal: [.text, .hidden, .select, .radio]
        case .date: [.dateselect, .hidden]
        case .dateTime: [.hidden]
        case .ipAddress: [.text, .hidden]
        case .password: [.password]
        case .uuid, .id, .json, .object, .plural: []
        }
    }
}

/// The constraints of a Capture attribute (`constraints`).
public enum AttributeConstraint: String, Sendable, Hashable, CaseIterable {
    case required, unique
    case locallyUnique = "locally-unique"
    case alphabetic, alphanumeric
    case unicodeLetters = "unicode-letters"
    case unicodePrintable = "unicode-printable"
    case emailAddress = "email-address"

    /// What the constraint demands, as the docs say it.
    public var summary: String {
        switch self {
        case .required: "the attribute always has a value; `lint --schema` checks that the registration forms set it"
        case .unique: "no two records share the value"
        case .locallyUnique: "no two elements of one plural share the value"
        case .alphabetic: "letters `A-Z`, `a-z` only; `lint --schema` checks the field has `format: alpha` (or a pattern)"
        case .alphanumeric:
            "ASCII letters and digits only; `lint --schema` checks the field has `format: alpha`, `alphaNumeric` or `numeric` (or a pattern)"
        case .unicodeLetters: "letters of any script only"
        case .unicodePrintable: "no control characters"
        case .emailAddress: "an email address; `lint --schema` checks the field is an `email` field or has `format: email` (or a pattern)"
        }
    }

    /// Formats that guarantee the constraint on the client, for the constraints lint checks.
    public var satisfyingFormats: Set<Format>? {
        switch self {
        case .emailAddress: [.email]
        case .alphabetic: [.alpha]
        case .alphanumeric: [.alpha, .alphaNumeric, .numeric]
        default: nil
        }
    }
}
