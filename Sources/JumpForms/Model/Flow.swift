/// A flow file, decoded: fields, forms and providers with the place each was written.
public struct Flow: Sendable {
    /// The path of the flow file.
    public var path: String
    /// `flow`: the flow name sent as the `flow` parameter.
    public var name: Located<String>
    /// `version`: sent as `flow_version`.
    public var version: Located<String>
    /// `defaultLocale`: where every locale falls back.
    public var defaultLocale: Located<LocaleTag>
    /// `locales`: the folder of locale files, relative to the flow file.
    public var localesDirectory: Located<String>
    public var fields: [FieldDefinition] {
        didSet { reindex() }
    }
    public var forms: [FormDefinition] {
        didSet { reindex() }
    }
    public var providers: [ProviderDefinition]
    /// `activities`: what an app may share, in file order.
    public var activities: [ActivityDefinition]
    /// `sharing`: the providers an activity may be posted to (Engage's `social_providers`).
    public var sharing: [Located<String>]

    private var fieldIndex: [String: Int] = [:]
    private var formIndex: [String: Int] = [:]

    public init(
        path: String,
        name: Located<String>,
        version: Located<String>,
        defaultLocale: Located<LocaleTag>,
        localesDirectory: Located<String>,
        fields: [FieldDefinition],
        forms: [FormDefinition],
        providers: [ProviderDefinition],
        activities: [ActivityDefinition] = [],
        sharing: [Located<String>] = []
    ) {
        self.path = path
        self.name = name
        self.version = version
        self.defaultLocale = defaultLocale
        self.localesDirectory = localesDirectory
        self.fields = fields
        self.forms = forms
        self.providers = providers
        self.activities = activities
        self.sharing = sharing
        reindex()
    }

    private mutating func reindex() {
        fieldIndex = Dictionary(fields.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
        formIndex = Dictionary(forms.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The field defined under `name`.
    public func field(named name: String) -> FieldDefinition? {
        fieldIndex[name].map { fields[$0] }
    }

    /// The form defined under `name`.
    public func form(named name: String) -> FormDefinition? {
        formIndex[name].map { forms[$0] }
    }

    /// The activity defined under `name`.
    public func activity(named name: String) -> ActivityDefinition? {
        activities.first { $0.name == name }
    }

    /// Every message key the flow uses, with the place that uses it (labels, tips,
    /// placeholders, option labels, rule messages, provider names, activities' texts), in
    /// file order.
    public var messageKeyUses: [Located<String>] {
        formMessageKeyUses + activities.flatMap(\.messageKeys)
    }

    /// The message keys of the fields and providers (what a Capture flow document carries),
    /// without the activities'.
    public var formMessageKeyUses: [Located<String>] {
        var keys: [Located<String>] = []
        for field in fields {
            keys.append(contentsOf: [field.label, field.placeholder, field.tip].compactMap { $0 })
            keys.append(contentsOf: field.options.map(\.label))
            keys.append(contentsOf: field.validation.map(\.message))
        }
        keys.append(contentsOf: providers.compactMap(\.name))
        return keys
    }
}

/// A field under the flow's `fields`.
public struct FieldDefinition: Sendable, Hashable {
    public var name: String
    /// Where the field's name is written.
    public var location: SourceLocation
    public var type: Located<FieldType>
    public var schemaId: SchemaID?
    /// Message keys of the localizable slots.
    public var label: Located<String>?
    public var placeholder: Located<String>?
    public var tip: Located<String>?
    public var options: [FieldOption]
    public var optionsLocation: SourceLocation?
    public var validation: [ValidationRule]
    /// `default`: a value the form starts with (an addition to the Capture vocabulary; hidden
    /// fields send it unchanged).
    public var defaultValue: Located<String>?

    public init(
        name: String, location: SourceLocation, type: Located<FieldType>, schemaId: SchemaID? = nil,
        label: Located<String>? = nil, placeholder: Located<String>? = nil, tip: Located<String>? = nil,
        options: [FieldOption] = [], optionsLocation: SourceLocation? = nil,
        validation: [ValidationRule] = [], defaultValue: Located<String>? = nil
    ) {
        self.name = name
        self.location = location
        self.type = type
        self.schemaId = schemaId
        self.label = label
        self.placeholder = placeholder
        self.tip = tip
        self.options = options
        self.optionsLocation = optionsLocation
        self.validation = validation
        self.defaultValue = defaultValue
    }

    /// Whether a `required` rule is evaluated on the client.
    public var isRequired: Bool {
        validation.contains { $0.kind == .required }
    }
}

/// Where a field is stored in the record: one dot path, or a map of sub-keys to paths
/// (sent as `field[sub]`).
public enum SchemaID: Sendable, Hashable {
    case path(Located<String>)
    case map([SubPath])

    public struct SubPath: Sendable, Hashable {
        public var key: String
        public var path: Located<String>

        public init(key: String, path: Located<String>) {
            self.key = key
            self.path = path
        }
    }

    /// Every schema path the field writes.
    public var paths: [Located<String>] {
        switch self {
        case .path(let path): [path]
        case .map(let subs): subs.map(\.path)
        }
    }
}

/// An option of a select or radio field.
public struct FieldOption: Sendable, Hashable {
    public var value: Located<String>
    /// Message key of the option's label.
    public var label: Located<String>
    public var disabled: Bool
    public var location: SourceLocation

    public init(value: Located<String>, label: Located<String>, disabled: Bool = false, location: SourceLocation) {
        self.value = value
        self.label = label
        self.disabled = disabled
        self.location = location
    }
}

/// A form: an ordered list of field names.
public struct FormDefinition: Sendable, Hashable {
    public var name: String
    public var location: SourceLocation
    public var fields: [Located<String>]

    public init(name: String, location: SourceLocation, fields: [Located<String>]) {
        self.name = name
        self.location = location
        self.fields = fields
    }
}
