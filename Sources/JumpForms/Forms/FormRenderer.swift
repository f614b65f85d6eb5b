/// Renders a form model as text for people and as JSON for programs.
public enum FormRenderer {
    /// A rule in a few words: `minLength 8`, `match newPassword`, `unique (server only)`.
    public static func summary(of rule: FormModel.Rule) -> String {
        var text = rule.kind.rawValue
        switch rule.value {
        case .none: break
        case .integer(let number): text += " \(number)"
        case .text(let value): text += " \(value)"
        case .list(let items): text += " [\(items.joined(separator: ", "))]"
        }
        if rule.kind.isServerOnly { text += " (server only)" } else if !rule.clientSide { text += " (server)" }
        return text
    }

    public static func text(_ form: FormModel) -> String {
        var out = "Form \(form.name) · flow \(form.flowName) \(form.flowVersion) · \(form.locale)\n"
        for field in form.fields {
            var traits = [field.type.rawValue]
            if field.isRequired { traits.append("required") }
            out += "\n  \(field.name) (\(traits.joined(separator: ", ")))\n"
            func line(_ name: String, _ value: String?) {
                guard let value, !value.isEmpty else { return }
                out += "    \(name.padding(13))\(value)\n"
            }
            line("Label:", field.label)
            line("Placeholder:", field.placeholder)
            line("Tip:", field.tip)
            if !field.options.isEmpty {
                let options = field.options.map { option in
                    let value = option.value.isEmpty ? "\"\"" : option.value
                    return "\(value) = \(option.label)" + (option.disabled ? " (disabled)" : "")
                }
                line("Options:", options.joined(separator: " · "))
            }
            if let schemaId = field.schemaId {
                switch schemaId {
                case .path(let path): line("Schema:", path.value)
                case .map(let subs): line("Schema:", subs.map { "\($0.key) -> \($0.path.value)" }.joined(separator: ", "))
                }
            }
            if let value = field.defaultValue { line("Default:", value) }
            if !field.rules.isEmpty {
                line("Rules:", field.rules.map(summary).joined(separator: " · "))
            }
        }
        return out
    }

    /// The form as JSON; each rule carries its message rendered for this field.
    public static func json(_ form: FormModel, localizer: Localizer) -> JSONValue {
        let fields: [JSONValue] = form.fields.map { field in
            var entries: [(key: String, value: JSONValue)] = [
                ("name", .string(field.name)),
                ("type", .string(field.type.rawValue)),
                ("label", .string(field.label))
            ]
            if let placeholder = field.placeholder { entries.append(("placeholder", .string(placeholder))) }
            if let tip = field.tip { entries.append(("tip", .string(tip))) }
            entries.append(("required", .bool(field.isRequired)))
            if let schemaId = field.schemaId {
                switch schemaId {
                case .path(let path): entries.append(("schemaId", .string(path.value)))
                case .map(let subs): entries.append(("schemaId", .object(subs.map { (key: $0.key, value: .string($0.path.value)) })))
                }
            }
            if let value = field.defaultValue { entries.append(("default", .string(value))) }
            if !field.options.isEmpty {
                entries.append(
                    (
                        "options",
                        .array(
                            field.options.map {
                                ["value": .string($0.value), "label": .string($0.label), "disabled": .bool($0.disabled)]
                            })
                    ))
            }
            entries.append(
                (
                    "rules",
                    .array(
                        field.rules.map { rule in
                            var ruleEntries: [(key: String, value: JSONValue)] = [("rule", .string(rule.kind.rawValue))]
                            switch rule.value {
                            case .none: break
                            case .integer(let number): ruleEntries.append(("value", .integer(number)))
                            case .text(let text): ruleEntries.append(("value", .string(text)))
                            case .list(let items): ruleEntries.append(("value", .array(items.map(JSONValue.string))))
                            }
                            var arguments: [String: MessageArgument] = ["label": .string(field.label), "field": .string(field.name)]
                            if let argument = rule.argument { arguments["value"] = argument }
                            ruleEntries.append(("message", .string(rule.messageKey)))
                            ruleEntries.append(("text", .string(localizer.text(rule.messageKey, for: form.locale, arguments))))
                            ruleEntries.append(("clientSide", .bool(rule.clientSide && !rule.kind.isServerOnly)))
                            return .object(ruleEntries)
                        })
                ))
            return .object(entries)
        }
        return [
            "form": .string(form.name),
            "flow": .string(form.flowName),
            "version": .string(form.flowVersion),
            "locale": .string(form.locale.identifier),
            "fields": .array(fields)
        ]
    }
}

extension String {
    func padding(_ width: Int) -> String {
        count >= width ? self + " " : self + String(repeating: " ", count: width - count)
    }
}
