/// A form made ready for one locale: ordered fields with their localized texts, options and
/// compiled rules. Built by `FormInterpreter`; drives `RuleEngine`, the prompts and the
/// request builders.
public struct FormModel: Sendable {
    public var name: String
    public var flowName: String
    public var flowVersion: String
    public var locale: LocaleTag
    public var fields: [Field]
    private var fieldIndex: [String: Int]

    public init(name: String, flowName: String, flowVersion: String, locale: LocaleTag, fields: [Field]) {
        self.name = name
        self.flowName = flowName
        self.flowVersion = flowVersion
        self.locale = locale
        self.fields = fields
        self.fieldIndex = Dictionary(fields.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The field named `name`.
    public func field(named name: String) -> Field? {
        fieldIndex[name].map { fields[$0] }
    }

    func index(of name: String) -> Int? { fieldIndex[name] }

    /// A field of the form, localized.
    public struct Field: Sendable {
        public var name: String
        public var type: FieldType
        public var schemaId: SchemaID?
        /// The localized label (the field name when the flow gives no label).
        public var label: String
        public var placeholder: String?
        public var tip: String?
        public var options: [Option]
        public var rules: [Rule]
        public var defaultValue: String?
        /// Where the field is defined.
        public var location: SourceLocation

        public init(
            name: String, type: FieldType, schemaId: SchemaID? = nil, label: String, placeholder: String? = nil,
            tip: String? = nil, options: [Option] = [], rules: [Rule] = [], defaultValue: String? = nil,
            location: SourceLocation
        ) {
            self.name = name
            self.type = type
            self.schemaId = schemaId
            self.label = label
            self.placeholder = placeholder
            self.tip = tip
            self.options = options
            self.rules = rules
            self.defaultValue = defaultValue
            self.location = location
        }

        /// Whether the field has a client-side `required` rule.
        public var isRequired: Bool { rules.contains { $0.kind == .required && $0.clientSide } }

        /// Options the user may choose.
        public var enabledOptions: [Option] { options.filter { !$0.disabled } }
    }

    /// An option with its localized label.
    public struct Option: Sendable, Hashable {
        public var value: String
        public var label: String
        public var disabled: Bool

        public init(value: String, label: String, disabled: Bool = false) {
            self.value = value
            self.label = label
            self.disabled = disabled
        }
    }

    /// A rule ready to run.
    public struct Rule: Sendable {
        public var kind: RuleKind
        public var value: RuleValue
        public var messageKey: String
        public var clientSide: Bool
        let check: Check

        init(kind: RuleKind, value: RuleValue, messageKey: String, clientSide: Bool, check: Check) {
            self.kind = kind
            self.value = value
            self.messageKey = messageKey
            self.clientSide = clientSide
            self.check = check
        }

        /// The rule's value as a message argument (`{value}`).
        public var argument: MessageArgument? {
            switch value {
            case .none: nil
            case .integer(let number): .int(number)
            case .text(let text): .string(text)
            case .list(let items): .string(items.joined(separator: ", "))
            }
        }
    }

    /// The compiled form of a rule: what the engine runs.
    enum Check: @unchecked Sendable {
        case required
        case format(Format)
        case pattern(Regex<AnyRegexOutput>)
        case minLength(Int), maxLength(Int), minYears(Int), maxYears(Int)
        case match(String)
        case matchOptions(Set<String>)
        case whitelist(Set<String>)
        /// The listed values' look-alike keys, and how a value's key is made.
        case blacklist(Set<String>, LookAlike.Comparison)
        /// The listed domains, folded (`LookAlike.folded`).
        case emailDomainBlacklist([String])
        case alongWith(String)
        case serverOnly
    }
}
