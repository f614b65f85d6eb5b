/// Failures of the interpret phase: a flow that lint would have refused.
public enum InterpretError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownForm(String, known: [String])
    case undefinedField(form: String, field: Located<String>)
    case unknownFormat(field: String, Located<String>)
    case invalidPattern(field: String, Located<String>, reason: String)
    case invalidRuleValue(field: String, rule: RuleKind, at: SourceLocation)

    public var description: String {
        switch self {
        case let .unknownForm(name, known):
            let hint = Suggestion.hint(for: name, among: known).map { "; \($0)" } ?? "; forms: \(known.joined(separator: ", "))"
            return "the flow has no form '\(name)'\(hint)"
        case let .undefinedField(form, field):
            return "\(field.location): form '\(form)' names field '\(field.value)', which the flow does not define"
        case let .unknownFormat(field, format):
            return "\(format.location): field '\(field)' uses unknown format '\(format.value)'"
        case let .invalidPattern(field, pattern, reason):
            return "\(pattern.location): field '\(field)': pattern does not compile: \(reason)"
        case let .invalidRuleValue(field, rule, location):
            return "\(location): field '\(field)': rule '\(rule.rawValue)' has an invalid value"
        }
    }
}

/// Turns a decoded flow into form models for a locale (the interpret phase).
public struct FormInterpreter: Sendable {
    public var flow: Flow
    public var localizer: Localizer

    public init(flow: Flow, localizer: Localizer) {
        self.flow = flow
        self.localizer = localizer
    }

    /// The form `name`, localized for `locale`.
    public func model(form name: String, locale: LocaleTag) throws(InterpretError) -> FormModel {
        guard let form = flow.form(named: name) else {
            throw .unknownForm(name, known: flow.forms.map(\.name))
        }
        if let undefined = form.fields.first(where: { flow.field(named: $0.value) == nil }) {
            throw .undefinedField(form: name, field: undefined)
        }
        return try model(fields: form.fields.map(\.value), named: name, locale: locale)
    }

    /// A form made of some of the flow's field definitions (named `name`, in that order),
    /// localized for `locale`: the fields a write touches, checked outside any form of the flow.
    /// Names the flow does not define are left out.
    public func model(fields names: [String], named name: String, locale: LocaleTag) throws(InterpretError) -> FormModel {
        var fields: [FormModel.Field] = []
        for fieldName in names {
            guard let definition = flow.field(named: fieldName) else { continue }
            fields.append(try field(definition, locale: locale))
        }
        return FormModel(name: name, flowName: flow.name.value, flowVersion: flow.version.value, locale: locale, fields: fields)
    }

    func field(_ definition: FieldDefinition, locale: LocaleTag) throws(InterpretError) -> FormModel.Field {
        func text(_ key: Located<String>?) -> String? {
            key.map { localizer.text($0.value, for: locale) }
        }
        let options = definition.options.map {
            FormModel.Option(value: $0.value.value, label: localizer.text($0.label.value, for: locale), disabled: $0.disabled)
        }
        var rules: [FormModel.Rule] = []
        for rule in definition.validation {
            rules.append(
                FormModel.Rule(
                    kind: rule.kind, value: rule.value, messageKey: rule.message.value, clientSide: rule.clientSide,
                    check: try check(for: rule, field: definition)
                ))
        }
        return FormModel.Field(
            name: definition.name, type: definition.type.value, schemaId: definition.schemaId,
            label: text(definition.label) ?? definition.name, placeholder: text(definition.placeholder), tip: text(definition.tip),
            options: options, rules: rules, defaultValue: definition.defaultValue?.value, location: definition.location
        )
    }

    func check(for rule: ValidationRule, field: FieldDefinition) throws(InterpretError) -> FormModel.Check {
        let invalid = InterpretError.invalidRuleValue(field: field.name, rule: rule.kind, at: rule.location)
        switch (rule.kind, rule.value) {
        case (.required, _): return .required
        case (.unique, _): return .serverOnly
        case (.format, .text(let name)):
            guard let format = Format(rawValue: name) else {
                throw .unknownFormat(field: field.name, Located(name, at: rule.valueLocation ?? rule.location))
            }
            return .format(format)
        case (.pattern, .text(let source)):
            do {
                return .pattern(try Regex(source))
            } catch {
                throw .invalidPattern(field: field.name, Located(source, at: rule.valueLocation ?? rule.location), reason: "\(error)")
            }
        case (.minLength, .integer(let n)): return .minLength(n)
        case (.maxLength, .integer(let n)): return .maxLength(n)
        case (.minYears, .integer(let n)): return .minYears(n)
        case (.maxYears, .integer(let n)): return .maxYears(n)
        case (.match, .text(let other)): return .match(other)
        case (.alongWith, .text(let other)): return .alongWith(other)
        case (.matchOptions, _):
            return .matchOptions(Set(field.options.filter { !$0.disabled }.map(\.value.value)))
        case (.whitelist, .list(let items)): return .whitelist(Set(items.map { $0.lowercased() }))
        case (.blacklist, .list(let items)):
            // Compared by look-alike keys: `ａdmin` and `аdmin` are refused like `admin`.
            let comparison = LookAlike.Comparison(fieldType: field.type.value)
            return .blacklist(Set(items.map(comparison.key)), comparison)
        case (.emailDomainBlacklist, .list(let items)): return .emailDomainBlacklist(items.map(RuleEngine.emailDomain))
        default: throw invalid
        }
    }
}
