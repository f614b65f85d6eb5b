import JumpForms

/// Decodes a flow file's node tree into a `Flow`, by hand, keeping every location.
struct FlowDecoder {
    enum FlowKey: String, CaseIterable { case flow, version, defaultLocale, locales, fields, forms, providers, activities, sharing }
    enum FieldKey: String, CaseIterable { case type, schemaId, label, placeholder, tip, validation, options, `default` }
    enum OptionKey: String, CaseIterable { case value, label, disabled }
    enum RuleKey: String, CaseIterable { case rule, value, message, clientSide }
    enum FormKey: String, CaseIterable { case fields }
    enum ProviderKey: String, CaseIterable { case id, type, name, openidIdentifier, opxBlob, samlProvider, icon }
    enum ProviderType: String, CaseIterable { case openid, saml }
    enum ActivityKey: String, CaseIterable {
        case action, url, title, description, userContent, actionLinks, media, properties, arguments
    }
    enum ActionLinkKey: String, CaseIterable { case text, href }
    /// Every key a media item may have; which ones depends on its `type` (`ActivityMediaType`).
    enum MediaKey: String, CaseIterable {
        case type, src, href, swfsrc, imgsrc, width, height, expandedWidth, expandedHeight, title, artist, album
    }

    /// What each key holds (the decoder below and `FormatSchema` read these).
    static func spec(_ key: FlowKey) -> KeySpec {
        switch key {
        case .flow, .version, .defaultLocale: .text(required: true)
        case .locales: .text()
        case .fields: KeySpec(value: .named("fields"), required: true)
        case .forms: KeySpec(value: .named("forms"), required: true)
        case .providers: KeySpec(value: .list(.named("provider")))
        case .activities: KeySpec(value: .named("activities"))
        case .sharing: KeySpec(value: .list(.text))
        }
    }

    static func spec(_ key: ActivityKey) -> KeySpec {
        switch key {
        case .action: .text(required: true)
        case .url, .title, .description: .text()
        case .userContent: KeySpec(value: .boolean)
        case .actionLinks: KeySpec(value: .list(.named("actionLink")))
        case .media: KeySpec(value: .list(.named("media")))
        case .properties: KeySpec(value: .named("properties"))
        case .arguments: KeySpec(value: .list(.text))
        }
    }

    static func spec(_ key: ActionLinkKey) -> KeySpec {
        .text(required: true)
    }

    /// `type` is required; the other keys' presence depends on it (`mediaKeys`).
    static func spec(_ key: MediaKey) -> KeySpec {
        switch key {
        case .type: KeySpec(value: .choice(ActivityMediaType.allCases.map(\.rawValue)), required: true)
        case .width, .height, .expandedWidth, .expandedHeight: KeySpec(value: .integer(0...100_000))
        default: .text()
        }
    }

    /// The keys a media item of this type may have, `type` first.
    static func mediaKeys(_ type: ActivityMediaType) -> [MediaKey] {
        [.type] + (type.requiredKeys + type.optionalKeys).compactMap(MediaKey.init(rawValue:))
    }

    static func spec(_ key: FieldKey) -> KeySpec {
        switch key {
        case .type: KeySpec(value: .choice(FieldType.allCases.map(\.rawValue)), required: true)
        case .schemaId: KeySpec(value: .named("schemaId"))
        case .label, .placeholder, .tip, .default: .text()
        case .validation: KeySpec(value: .list(.named("rule")))
        case .options: KeySpec(value: .list(.named("option")))
        }
    }

    static func spec(_ key: OptionKey) -> KeySpec {
        switch key {
        case .value, .label: .text(required: true)
        case .disabled: KeySpec(value: .boolean)
        }
    }

    /// `value`'s kind depends on the rule (`RuleKind.valueShape`).
    static func spec(_ key: RuleKey) -> KeySpec {
        switch key {
        case .rule: KeySpec(value: .choice(RuleKind.allCases.map(\.rawValue)), required: true)
        case .value: .text()
        case .message: .text(required: true)
        case .clientSide: KeySpec(value: .boolean)
        }
    }

    static func spec(_ key: FormKey) -> KeySpec {
        switch key {
        case .fields: KeySpec(value: .list(.text), required: true)
        }
    }

    static func spec(_ key: ProviderKey) -> KeySpec {
        switch key {
        case .id: .text(required: true)
        case .type: KeySpec(value: .choice(ProviderType.allCases.map(\.rawValue)))
        case .name, .openidIdentifier, .opxBlob, .samlProvider, .icon: .text()
        }
    }

    /// The keys a provider of this type may have (nil: a built-in provider, without `type`).
    static func providerKeys(_ type: ProviderType?) -> [ProviderKey] {
        switch type {
        case nil: [.id, .name, .icon, .type]
        case .openid: [.id, .type, .name, .openidIdentifier, .opxBlob, .icon]
        case .saml: [.id, .type, .name, .samlProvider, .icon]
        }
    }

    var decoder: NodeDecoder

    init(path: String) {
        decoder = NodeDecoder(path: path)
    }

    /// The flow, or nil when a required part is missing; `decoder.errors` holds the reasons.
    mutating func decode(_ document: YAMLDocument) -> Flow? {
        guard let root = decoder.mapping(document.root, "a flow file") else { return nil }
        let keyed = decoder.keyed(root, FlowKey.self, context: "the flow")
        let name = decoder.required(keyed, .flow).flatMap { decoder.string($0, "'flow'") }
        let version = decoder.required(keyed, .version).flatMap { decoder.string($0, "'version'") }
        let defaultLocale = decoder.required(keyed, .defaultLocale).flatMap { localeTag($0, "'defaultLocale'") }
        let locales =
            keyed[.locales].flatMap { decoder.string($0, "'locales'") }
            ?? Located("../locales", at: decoder.location(root.start))
        let fieldList = decoder.required(keyed, .fields).map { fields($0) } ?? []
        let formList = decoder.required(keyed, .forms).map { forms($0) } ?? []
        let providerList = keyed[.providers].map { providers($0) } ?? []
        let activityList = keyed[.activities].map { activities($0) } ?? []
        let sharing = keyed[.sharing].flatMap { decoder.strings($0, "'sharing'") } ?? []
        guard let name, let version, let defaultLocale else { return nil }
        return Flow(
            path: document.path, name: name, version: version, defaultLocale: defaultLocale,
            localesDirectory: locales, fields: fieldList, forms: formList, providers: providerList,
            activities: activityList, sharing: sharing)
    }

    mutating func localeTag(_ node: YAMLNode, _ context: String) -> Located<LocaleTag>? {
        guard let text = decoder.string(node, context) else { return nil }
        guard let tag = LocaleTag(text.value) else {
            decoder.errors.append(.invalidLocaleTag(text.location, text: text.value))
            return nil
        }
        return Located(tag, at: text.location)
    }

    // MARK: fields

    mutating func fields(_ node: YAMLNode) -> [FieldDefinition] {
        guard let mapping = decoder.mapping(node, "'fields'") else { return [] }
        return mapping.entries.compactMap { entry in
            let nameLocation = decoder.location(entry.key)
            guard decoder.checkName(entry.key.value, at: nameLocation, what: "field") else { return nil }
            return field(named: entry.key.value, at: nameLocation, entry.value)
        }
    }

    mutating func field(named name: String, at location: SourceLocation, _ node: YAMLNode) -> FieldDefinition? {
        let context = "field '\(name)'"
        guard let mapping = decoder.mapping(node, context) else { return nil }
        let keyed = decoder.keyed(mapping, FieldKey.self, context: context)
        let type: Located<FieldType>? = decoder.required(keyed, .type)
            .flatMap { decoder.string($0, "the type of \(context)") }
            .flatMap { decoder.oneOf($0, what: "field type") }
        let schemaId = keyed[.schemaId].flatMap { schemaID($0, context) }
        let label = keyed[.label].flatMap { decoder.string($0, "the label of \(context)") }
        let placeholder = keyed[.placeholder].flatMap { decoder.string($0, "the placeholder of \(context)") }
        let tip = keyed[.tip].flatMap { decoder.string($0, "the tip of \(context)") }
        let optionList = keyed[.options].map { options($0, context) } ?? []
        let validation = keyed[.validation].map { rules($0, context) } ?? []
        let defaultValue = keyed[.default].flatMap { decoder.string($0, "the default of \(context)") }
        guard let type else { return nil }
        return FieldDefinition(
            name: name, location: location, type: type, schemaId: schemaId, label: label, placeholder: placeholder,
            tip: tip, options: optionList, optionsLocation: keyed.keyScalar(.options).map(decoder.location),
            validation: validation, defaultValue: defaultValue
        )
    }

    mutating func schemaID(_ node: YAMLNode, _ context: String) -> SchemaID? {
        switch node {
        case .mapping(let mapping):
            let subs = mapping.entries.compactMap { entry -> SchemaID.SubPath? in
                guard let path = decoder.string(entry.value, "schemaId '\(entry.key.value)' of \(context)") else { return nil }
                return SchemaID.SubPath(key: entry.key.value, path: path)
            }
            if subs.isEmpty {
                decoder.errors.append(.emptyList(decoder.location(mapping.start), message: "the schemaId map of \(context) is empty"))
                return nil
            }
            return .map(subs)
        default:
            return decoder.string(node, "the schemaId of \(context)").map(SchemaID.path)
        }
    }

    mutating func options(_ node: YAMLNode, _ context: String) -> [FieldOption] {
        guard let sequence = decoder.sequence(node, "the options of \(context)") else { return [] }
        return sequence.items.compactMap { item in
            guard let mapping = decoder.mapping(item, "an option of \(context)") else { return nil }
            let keyed = decoder.keyed(mapping, OptionKey.self, context: "an option of \(context)")
            let value = decoder.required(keyed, .value).flatMap { node -> Located<String>? in
                // An empty value is a legitimate option ("unset"), but it must be quoted.
                guard case .scalar(let scalar) = node, !scalar.isNull else {
                    return decoder.string(node, "the value of an option of \(context)")
                }
                return Located(scalar.value, at: decoder.location(scalar))
            }
            let label = decoder.required(keyed, .label).flatMap { decoder.string($0, "the label of an option of \(context)") }
            let disabled = keyed[.disabled].flatMap { decoder.bool($0, "'disabled'") }?.value ?? false
            guard let value, let label else { return nil }
            return FieldOption(value: value, label: label, disabled: disabled, location: decoder.location(mapping.start))
        }
    }

    mutating func rules(_ node: YAMLNode, _ context: String) -> [ValidationRule] {
        guard let sequence = decoder.sequence(node, "the validation of \(context)") else { return [] }
        return sequence.items.compactMap { rule($0, context) }
    }

    mutating func rule(_ node: YAMLNode, _ context: String) -> ValidationRule? {
        guard let mapping = decoder.mapping(node, "a rule of \(context)") else { return nil }
        let keyed = decoder.keyed(mapping, RuleKey.self, context: "a rule of \(context)")
        let kind: Located<RuleKind>? = decoder.required(keyed, .rule)
            .flatMap { decoder.string($0, "'rule'") }
            .flatMap { decoder.oneOf($0, what: "rule") }
        let message = decoder.required(keyed, .message).flatMap { decoder.string($0, "the message of a rule of \(context)") }
        let clientSide = keyed[.clientSide].flatMap { decoder.bool($0, "'clientSide'") }?.value ?? true
        guard let kind else { return nil }
        let valueNode = keyed[.value]
        let value = ruleValue(kind, valueNode, at: decoder.location(mapping.start))
        guard let message, let value else { return nil }
        return ValidationRule(
            kind: kind.value, value: value, message: message, clientSide: clientSide,
            location: kind.location, valueLocation: valueNode.map(decoder.location))
    }

    mutating func ruleValue(_ kind: Located<RuleKind>, _ node: YAMLNode?, at ruleLocation: SourceLocation) -> RuleValue? {
        let rule = kind.value
        switch rule.valueShape {
        case .none:
            guard let node else { return RuleValue.none }
            if rule == .required, case .scalar(let scalar) = node, scalar.style == .plain, scalar.value == "true" {
                return RuleValue.none
            }
            decoder.errors.append(
                .invalidRuleValue(
                    decoder.location(node), rule: rule,
                    problem: rule == .required ? "takes no value (or true)" : "takes no value"))
            return nil
        case .integer:
            guard let node else {
                decoder.errors.append(.invalidRuleValue(kind.location, rule: rule, problem: "needs an integer 'value'"))
                return nil
            }
            return decoder.integer(node, "the value of '\(rule.rawValue)'").map { .integer($0.value) }
        case .fieldName, .format, .pattern:
            let what = rule.valueShape == .fieldName ? "a field name" : rule.valueShape == .format ? "a format name" : "a regular expression"
            guard let node else {
                decoder.errors.append(.invalidRuleValue(kind.location, rule: rule, problem: "needs \(what) as 'value'"))
                return nil
            }
            guard case .scalar = node else {
                decoder.errors.append(
                    .invalidRuleValue(
                        decoder.location(node), rule: rule,
                        problem: "'value' must be \(what), found \(node.kindDescription)"))
                return nil
            }
            return decoder.string(node, "the value of '\(rule.rawValue)'").map { .text($0.value) }
        case .stringList:
            guard let node else {
                decoder.errors.append(.invalidRuleValue(kind.location, rule: rule, problem: "needs a list of strings as 'value'"))
                return nil
            }
            guard case .sequence = node else {
                decoder.errors.append(
                    .invalidRuleValue(
                        decoder.location(node), rule: rule,
                        problem: "'value' must be a list of strings, found \(node.kindDescription)"))
                return nil
            }
            return decoder.strings(node, "the value of '\(rule.rawValue)'").map { .list($0.map(\.value)) }
        }
    }

    // MARK: forms

    mutating func forms(_ node: YAMLNode) -> [FormDefinition] {
        guard let mapping = decoder.mapping(node, "'forms'") else { return [] }
        return mapping.entries.compactMap { entry in
            let location = decoder.location(entry.key)
            guard decoder.checkName(entry.key.value, at: location, what: "form") else { return nil }
            let context = "form '\(entry.key.value)'"
            guard let formMapping = decoder.mapping(entry.value, context) else { return nil }
            let keyed = decoder.keyed(formMapping, FormKey.self, context: context)
            guard let list = decoder.required(keyed, .fields), let fields = decoder.strings(list, "the fields of \(context)") else {
                return nil
            }
            if fields.isEmpty {
                decoder.errors.append(.emptyList(decoder.location(list), message: "\(context) lists no fields"))
            }
            return FormDefinition(name: entry.key.value, location: location, fields: fields)
        }
    }

    // MARK: providers

    mutating func providers(_ node: YAMLNode) -> [ProviderDefinition] {
        guard let sequence = decoder.sequence(node, "'providers'") else { return [] }
        return sequence.items.compactMap { provider($0) }
    }

    mutating func provider(_ node: YAMLNode) -> ProviderDefinition? {
        if case .scalar = node {
            guard let id = decoder.string(node, "a provider") else { return nil }
            return ProviderDefinition(id: id, kind: .builtIn, location: id.location)
        }
        guard let mapping = decoder.mapping(node, "a provider") else { return nil }
        let keyed = decoder.keyed(mapping, ProviderKey.self, context: "a provider")
        guard let id = decoder.required(keyed, .id).flatMap({ decoder.string($0, "the id of a provider") }) else { return nil }
        let context = "provider '\(id.value)'"
        let name = keyed[.name].flatMap { decoder.string($0, "the name of \(context)") }
        let icon = keyed[.icon].flatMap { decoder.string($0, "the icon of \(context)") }
        let identifier = keyed[.openidIdentifier].flatMap { decoder.string($0, "'openidIdentifier'") }
        let blob = keyed[.opxBlob].flatMap { decoder.string($0, "'opxBlob'") }
        let samlProvider = keyed[.samlProvider].flatMap { decoder.string($0, "'samlProvider'") }
        var kind = ProviderDefinition.Kind.builtIn
        if let typeNode = keyed[.type], let type = decoder.string(typeNode, "the type of \(context)") {
            switch ProviderType(rawValue: type.value) {
            case .openid: kind = .openID(identifier: identifier, opxBlob: blob)
            case .saml: kind = .saml(provider: samlProvider)
            case nil:
                decoder.errors.append(
                    .unknownValue(
                        type.location, value: type.value, what: "provider type",
                        known: ProviderType.allCases.map(\.rawValue)))
                return nil
            }
        }
        if case .builtIn = kind {
            for (key, value) in [(ProviderKey.openidIdentifier, identifier), (.opxBlob, blob), (.samlProvider, samlProvider)] where value != nil {
                if let scalar = keyed.keyScalar(key) {
                    decoder.errors.append(
                        .unknownKey(
                            decoder.location(scalar), key: key.rawValue,
                            context: "\(context) (a built-in provider; add 'type: openid' or 'type: saml')",
                            known: Self.providerKeys(nil).map(\.rawValue)))
                }
            }
        } else if case .openID = kind, let scalar = keyed.keyScalar(.samlProvider) {
            decoder.errors.append(
                .unknownKey(
                    decoder.location(scalar), key: "samlProvider", context: "\(context) (type: openid)",
                    known: Self.providerKeys(.openid).map(\.rawValue)))
        } else if case .saml = kind {
            for key in [ProviderKey.openidIdentifier, .opxBlob] {
                if let scalar = keyed.keyScalar(key) {
                    decoder.errors.append(
                        .unknownKey(
                            decoder.location(scalar), key: key.rawValue, context: "\(context) (type: saml)",
                            known: Self.providerKeys(.saml).map(\.rawValue)))
                }
            }
        }
        return ProviderDefinition(id: id, kind: kind, name: name, icon: icon, location: decoder.location(mapping.start))
    }

    // MARK: activities

    mutating func activities(_ node: YAMLNode) -> [ActivityDefinition] {
        guard let mapping = decoder.mapping(node, "'activities'") else { return [] }
        return mapping.entries.compactMap { entry in
            let location = decoder.location(entry.key)
            guard decoder.checkName(entry.key.value, at: location, what: "activity") else { return nil }
            return activity(named: entry.key.value, at: location, entry.value)
        }
    }

    mutating func activity(named name: String, at location: SourceLocation, _ node: YAMLNode) -> ActivityDefinition? {
        let context = "activity '\(name)'"
        guard let mapping = decoder.mapping(node, context) else { return nil }
        let keyed = decoder.keyed(mapping, ActivityKey.self, context: context)
        let action = decoder.required(keyed, .action).flatMap { decoder.string($0, "the action of \(context)") }
        let url = keyed[.url].flatMap { decoder.string($0, "the url of \(context)") }
        if let url { _ = decoder.url(url, "the url of \(context)") }
        let title = keyed[.title].flatMap { decoder.string($0, "the title of \(context)") }
        let description = keyed[.description].flatMap { decoder.string($0, "the description of \(context)") }
        let userContent = keyed[.userContent].flatMap { decoder.bool($0, "'userContent'") }?.value ?? false
        let links = keyed[.actionLinks].map { actionLinks($0, context) } ?? []
        let mediaList = keyed[.media].map { media($0, context) } ?? []
        let propertyList = keyed[.properties].map { properties($0, context) } ?? []
        var arguments: [Located<String>] = []
        if let node = keyed[.arguments], let names = decoder.strings(node, "the arguments of \(context)") {
            for argument in names where decoder.checkName(argument.value, at: argument.location, what: "argument") {
                arguments.append(argument)
            }
        }
        guard let action else { return nil }
        return ActivityDefinition(
            name: name, location: location, action: action, url: url, title: title, description: description,
            userContent: userContent, actionLinks: links, media: mediaList, properties: propertyList, arguments: arguments)
    }

    mutating func actionLinks(_ node: YAMLNode, _ context: String) -> [ActivityActionLink] {
        guard let sequence = decoder.sequence(node, "the actionLinks of \(context)") else { return [] }
        return sequence.items.compactMap { item in
            let linkContext = "an action link of \(context)"
            guard let mapping = decoder.mapping(item, linkContext) else { return nil }
            let keyed = decoder.keyed(mapping, ActionLinkKey.self, context: linkContext)
            let text = decoder.required(keyed, .text).flatMap { decoder.string($0, "the text of \(linkContext)") }
            let href = decoder.required(keyed, .href).flatMap { decoder.string($0, "the href of \(linkContext)") }
            guard let text, let href, decoder.url(href, "the href of \(linkContext)") else { return nil }
            return ActivityActionLink(text: text, href: href)
        }
    }

    mutating func media(_ node: YAMLNode, _ context: String) -> [ActivityMedia] {
        guard let sequence = decoder.sequence(node, "the media of \(context)") else { return [] }
        return sequence.items.compactMap { item in
            let itemContext = "a media item of \(context)"
            guard let mapping = decoder.mapping(item, itemContext) else { return nil }
            let keyed = decoder.keyed(mapping, MediaKey.self, context: itemContext)
            guard
                let type: Located<ActivityMediaType> = decoder.required(keyed, .type)
                    .flatMap({ decoder.string($0, "the type of \(itemContext)") })
                    .flatMap({ decoder.oneOf($0, what: "media type") })
            else { return nil }
            let typedContext = "\(itemContext) (type: \(type.value.rawValue))"
            let allowed = Self.mediaKeys(type.value)
            var values: [String: Located<String>] = [:]
            var valid = true
            for key in MediaKey.allCases where key != .type {
                guard let value = keyed[key] else {
                    if type.value.requiredKeys.contains(key.rawValue) {
                        decoder.errors.append(.missingKey(decoder.location(mapping.start), key: key.rawValue, context: typedContext))
                        valid = false
                    }
                    continue
                }
                guard allowed.contains(key) else {
                    if let scalar = keyed.keyScalar(key) {
                        decoder.errors.append(
                            .unknownKey(decoder.location(scalar), key: key.rawValue, context: typedContext, known: allowed.map(\.rawValue)))
                    }
                    valid = false
                    continue
                }
                if type.value.integerKeys.contains(key.rawValue) {
                    guard let number = decoder.integer(value, "'\(key.rawValue)' of \(typedContext)") else {
                        valid = false
                        continue
                    }
                    guard number.value >= 0 else {
                        decoder.errors.append(
                            .valueOutOfRange(
                                number.location, value: number.value, context: "'\(key.rawValue)' of \(typedContext)", range: 0...100_000))
                        valid = false
                        continue
                    }
                    values[key.rawValue] = Located(String(number.value), at: number.location)
                    continue
                }
                guard let text = decoder.string(value, "'\(key.rawValue)' of \(typedContext)") else {
                    valid = false
                    continue
                }
                if type.value.urlKeys.contains(key.rawValue), !decoder.url(text, "'\(key.rawValue)' of \(typedContext)") { valid = false }
                values[key.rawValue] = text
            }
            guard valid else { return nil }
            return ActivityMedia(type: type, values: values, location: decoder.location(mapping.start))
        }
    }

    mutating func properties(_ node: YAMLNode, _ context: String) -> [ActivityProperty] {
        guard let mapping = decoder.mapping(node, "the properties of \(context)") else { return [] }
        return mapping.entries.compactMap { entry in
            guard let value = decoder.string(entry.value, "property '\(entry.key.value)' of \(context)") else { return nil }
            return ActivityProperty(name: entry.key.value, value: value)
        }
    }
}
