/// Capture's flow document: the JSON the JUMP SDKs download per locale from
/// `/widget_data/flows/<app>/<flow>/<version>/<locale>.json`, written from a flow and its
/// localizer, and read back (see `CaptureFlowDocumentReader`).
///
/// The document has Capture's shape: a top-level `version`; `fields` holding fields and forms
/// in one map (a form is an entry whose `fields` is an ordered list of names); per field
/// `type`, `schemaId`, `label`, `placeholder`, `tip`, `options` (`{value, text, disabled}`) and
/// `validation` (`{rule, value, message}`), every text rendered for the locale; and
/// `schema_info.paths` (field name -> schema path, and the `SchemaRole` entries the Android SDK
/// reads by name). What the SDKs ignore carries what the flow
/// format has and Capture's format has not, so that a document turns back into the same flow:
/// each text's message key (`labelKey`, `placeholderKey`, `tipKey`, an option's `textKey`, a
/// rule's `messageKey`), a field's `default`, a rule left to the server
/// (`disableClientSide: true`), and a top-level `jumpForms` object with the flow's name, the
/// document's locale, the default locale, the providers, the ICU messages behind the texts and
/// the flow's own versions of jump-forms' built-in words.
///
/// The SDKs fill a form from the record, field by field, through each field's `schemaId`: a
/// field without one is never sent (and Android's debug builds stop on it). A password
/// confirmation therefore needs the password's `schemaId` in the flow, as Capture's own flows
/// give it (flows/standard.yaml does).
///
/// The output is deterministic: fields in flow order, then forms in flow order; keys in a fixed
/// order; messages in order of first use. Golden files compare it byte for byte.
public enum CaptureFlowDocument {
    /// The top-level keys.
    public enum Key: String, CaseIterable, Sendable {
        case version, fields
        case schemaInfo = "schema_info"
        case jumpForms
    }

    /// The keys of a field entry (Capture's, then the flow format's additions).
    public enum FieldKey: String, CaseIterable, Sendable {
        case type, schemaId, label, placeholder, tip, options, validation
        case labelKey, placeholderKey, tipKey, `default`
    }

    /// The keys of a form entry.
    public enum FormKey: String, CaseIterable, Sendable {
        case fields
    }

    /// The keys of an option.
    public enum OptionKey: String, CaseIterable, Sendable {
        case value, text, disabled, selected
        case textKey
    }

    /// The keys of a rule.
    public enum RuleKey: String, CaseIterable, Sendable {
        case rule, value, message, disableClientSide
        case messageKey
    }

    /// The keys of `schema_info`.
    public enum SchemaInfoKey: String, CaseIterable, Sendable {
        case paths
    }

    /// The entries of `schema_info.paths` the Android SDK reads by these names, whatever the
    /// flow calls its fields: `CaptureRecord.getEmail()` and `hasPassword()` look up `email` and
    /// `password` there and stop on a NullPointerException when either is missing. Each names
    /// the record path of the flow's first field of that type with a `schemaId` (Capture's own
    /// attribute name when there is none).
    public enum SchemaRole: String, CaseIterable, Sendable {
        case email, password

        /// The field type whose record path the entry gives.
        var fieldType: FieldType {
            switch self {
            case .email: .email
            case .password: .password
            }
        }
    }

    /// The keys of the `jumpForms` object.
    public enum ExtensionKey: String, CaseIterable, Sendable {
        case flow, locale, defaultLocale, providers, messages
    }

    /// The keys of a custom provider in `jumpForms.providers`.
    public enum ProviderKey: String, CaseIterable, Sendable {
        case id, type, name, openidIdentifier, opxBlob, samlProvider
    }

    /// Why a flow cannot be written as a Capture flow document.
    public enum EncodeError: Error, Sendable, Hashable, CustomStringConvertible {
        /// A field and a form have the same name: the document holds both in one map.
        case sharedName(String, field: SourceLocation, form: SourceLocation)

        public var diagnostic: Diagnostic {
            switch self {
            case let .sharedName(name, field, form):
                Diagnostic(
                    .fieldAndFormShareName,
                    "'\(name)' names both a field and a form: Capture's flow document holds fields and forms in one map",
                    at: form, hint: "rename the form or the field",
                    related: [Diagnostic.Related("the field '\(name)' is defined here", at: field)])
            }
        }

        public var description: String { diagnostic.description }
    }

    /// The document of `flow` for `locale`: texts rendered by `localizer` (falling back as it
    /// does for a locale without a file of its own).
    public static func encode(_ flow: Flow, localizer: Localizer, locale: LocaleTag) throws(EncodeError) -> JSONValue {
        var forms: [String: FormDefinition] = [:]
        for form in flow.forms where forms[form.name] == nil { forms[form.name] = form }
        for field in flow.fields {
            if let form = forms[field.name] { throw .sharedName(field.name, field: field.location, form: form.location) }
        }
        let texts = TextRenderer(localizer: localizer, locale: locale)
        var entries: [(key: String, value: JSONValue)] = []
        var seen = Set<String>()
        var paths: [(key: String, value: JSONValue)] = []
        for field in flow.fields where seen.insert(field.name).inserted {
            entries.append((field.name, Self.field(field, texts: texts)))
            if let schemaId = field.schemaId { paths.append((field.name, Self.schemaID(schemaId))) }
        }
        for role in SchemaRole.allCases where !paths.contains(where: { $0.key == role.rawValue }) {
            let path = flow.fields.lazy.compactMap { field -> String? in
                guard field.type.value == role.fieldType, case .path(let path) = field.schemaId else { return nil }
                return path.value
            }.first
            paths.append((role.rawValue, .string(path ?? role.rawValue)))
        }
        for form in flow.forms where seen.insert(form.name).inserted {
            entries.append((form.name, [FormKey.fields.rawValue: .array(form.fields.map { .string($0.value) })]))
        }
        return .object([
            (Key.version.rawValue, .string(flow.version.value)),
            (Key.fields.rawValue, .object(entries)),
            (Key.schemaInfo.rawValue, .object([(SchemaInfoKey.paths.rawValue, .object(paths))])),
            (Key.jumpForms.rawValue, Self.extensionObject(flow, localizer: localizer, locale: locale))
        ])
    }

    /// The document as the files and the server hold it: indented JSON ending in a newline.
    public static func text(_ flow: Flow, localizer: Localizer, locale: LocaleTag) throws(EncodeError) -> String {
        try encode(flow, localizer: localizer, locale: locale).serialized(pretty: true) + "\n"
    }

    static func field(_ field: FieldDefinition, texts: TextRenderer) -> JSONValue {
        var entries: [(key: String, value: JSONValue)] = [(FieldKey.type.rawValue, .string(field.type.value.rawValue))]
        if let schemaId = field.schemaId { entries.append((FieldKey.schemaId.rawValue, Self.schemaID(schemaId))) }
        for (slot, keySlot, message) in [
            (FieldKey.label, FieldKey.labelKey, field.label), (.placeholder, .placeholderKey, field.placeholder),
            (.tip, .tipKey, field.tip)
        ] {
            guard let message else { continue }
            entries.append((slot.rawValue, .string(texts.text(message.value))))
            entries.append((keySlot.rawValue, .string(message.value)))
        }
        if let value = field.defaultValue { entries.append((FieldKey.default.rawValue, .string(value.value))) }
        if !field.options.isEmpty {
            entries.append(
                (
                    FieldKey.options.rawValue,
                    .array(
                        field.options.map { option in
                            [
                                OptionKey.value.rawValue: .string(option.value.value),
                                OptionKey.text.rawValue: .string(texts.text(option.label.value)),
                                OptionKey.textKey.rawValue: .string(option.label.value),
                                OptionKey.disabled.rawValue: .bool(option.disabled)
                            ]
                        })
                ))
        }
        if !field.validation.isEmpty {
            let label = field.label.map { texts.text($0.value) } ?? field.name
            entries.append(
                (
                    FieldKey.validation.rawValue,
                    .array(
                        field.validation.map { rule in
                            var ruleEntries: [(key: String, value: JSONValue)] = [
                                (RuleKey.rule.rawValue, .string(rule.kind.rawValue)),
                                (RuleKey.value.rawValue, Self.ruleValue(rule.value)),
                                (RuleKey.message.rawValue, .string(texts.ruleMessage(rule, fieldName: field.name, label: label))),
                                (RuleKey.messageKey.rawValue, .string(rule.message.value))
                            ]
                            if !rule.clientSide { ruleEntries.append((RuleKey.disableClientSide.rawValue, true)) }
                            return .object(ruleEntries)
                        })
                ))
        }
        return .object(entries)
    }

    static func schemaID(_ schemaId: SchemaID) -> JSONValue {
        switch schemaId {
        case .path(let path): .string(path.value)
        case .map(let subs): .object(subs.map { (key: $0.key, value: .string($0.path.value)) })
        }
    }

    /// A rule's `value` as Capture writes it: `true` for the rules that take none.
    static func ruleValue(_ value: RuleValue) -> JSONValue {
        switch value {
        case .none: true
        case .integer(let number): .integer(number)
        case .text(let text): .string(text)
        case .list(let items): .array(items.map(JSONValue.string))
        }
    }

    static func extensionObject(_ flow: Flow, localizer: Localizer, locale: LocaleTag) -> JSONValue {
        var entries: [(key: String, value: JSONValue)] = [
            (ExtensionKey.flow.rawValue, .string(flow.name.value)),
            (ExtensionKey.locale.rawValue, .string(locale.identifier)),
            (ExtensionKey.defaultLocale.rawValue, .string(flow.defaultLocale.value.identifier))
        ]
        if !flow.providers.isEmpty {
            entries.append((ExtensionKey.providers.rawValue, .array(flow.providers.map(provider))))
        }
        // The ICU source of every message the flow uses, under the locale whose file holds it
        // (the document's own locale first): what the texts were rendered from.
        var byLocale: [LocaleTag: [(key: String, value: JSONValue)]] = [:]
        var seen = Set<String>()
        // Then the flow's own versions of jump-forms' words (the form session's prompts, the
        // input checks), so that an app reading the document asks in the words its locale
        // files chose; none when they keep the built-in ones.
        let builtinKeys = BuiltinCatalog.catalogs.first?.keys ?? []
        // Activities are not part of a flow document: their messages are not carried.
        for key in flow.formMessageKeyUses.map(\.value) + builtinKeys where seen.insert(key).inserted {
            guard let resolved = localizer.resolve(key, for: locale),
                localizer.catalog(for: resolved.locale)?.contains(key) == true
            else { continue }
            byLocale[resolved.locale, default: []].append((key, .string(resolved.message.text)))
        }
        let order = byLocale.keys.sorted { lhs, rhs in lhs == locale || (rhs != locale && lhs < rhs) }
        entries.append((ExtensionKey.messages.rawValue, .object(order.map { (key: $0.identifier, value: .object(byLocale[$0]!)) })))
        return .object(entries)
    }

    static func provider(_ provider: ProviderDefinition) -> JSONValue {
        var entries: [(key: String, value: JSONValue)] = [(ProviderKey.id.rawValue, .string(provider.id.value))]
        switch provider.kind {
        case .builtIn:
            guard provider.name != nil else { return .string(provider.id.value) }
        case .openID(let identifier, let blob):
            entries.append((ProviderKey.type.rawValue, "openid"))
            if let identifier { entries.append((ProviderKey.openidIdentifier.rawValue, .string(identifier.value))) }
            if let blob { entries.append((ProviderKey.opxBlob.rawValue, .string(blob.value))) }
        case .saml(let samlProvider):
            entries.append((ProviderKey.type.rawValue, "saml"))
            if let samlProvider { entries.append((ProviderKey.samlProvider.rawValue, .string(samlProvider.value))) }
        }
        if let name = provider.name { entries.append((ProviderKey.name.rawValue, .string(name.value))) }
        return .object(entries)
    }

    /// Renders a flow's texts for one locale as the forms show them: labels, placeholders,
    /// tips and option labels without arguments, rule messages with `label` (the field's
    /// rendered label, or its name), `field` and `value`.
    struct TextRenderer {
        let localizer: Localizer
        let locale: LocaleTag

        func text(_ key: String) -> String {
            localizer.text(key, for: locale)
        }

        func ruleMessage(_ rule: ValidationRule, fieldName: String, label: String) -> String {
            var arguments: [String: MessageArgument] = ["label": .string(label), "field": .string(fieldName)]
            switch rule.value {
            case .none: break
            case .integer(let number): arguments["value"] = .int(number)
            case .text(let text): arguments["value"] = .string(text)
            case .list(let items): arguments["value"] = .string(items.joined(separator: ", "))
            }
            return localizer.text(rule.message.value, for: locale, arguments)
        }
    }
}
