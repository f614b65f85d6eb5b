/// The kinds of field a flow defines (Capture's field types).
public enum FieldType: String, Sendable, Hashable, CaseIterable, Codable {
    case text, email, password, dateselect, select, radio, checkbox, textarea, hidden

    /// What the type is for, as the docs show it.
    public var summary: String {
        switch self {
        case .text: "one line of text"
        case .email: "an email address (one line)"
        case .password: "a secret: never echoed, printed, logged or stored in clear text"
        case .dateselect: "a calendar date (`yyyy-MM-dd`), sent as year, month and day"
        case .select: "one of the field's `options`, shown as a list"
        case .radio: "one of the field's `options`, shown as buttons"
        case .checkbox: "`true` or `false`"
        case .textarea: "several lines of text"
        case .hidden: "a value the user never sees or types"
        }
    }

    /// Text-like fields hold a free string that length, format and list rules apply to.
    public var holdsText: Bool {
        switch self {
        case .text, .email, .password, .textarea, .hidden: true
        case .dateselect, .select, .radio, .checkbox: false
        }
    }

    /// Fields that offer `options`.
    public var offersOptions: Bool { self == .select || self == .radio }

    /// Fields whose value identifies an account (sign-in, forgot password).
    public var canIdentify: Bool { self == .email || self == .text }
}
