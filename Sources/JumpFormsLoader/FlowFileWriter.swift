import JumpForms

/// Writes a flow as a flow file (`flows/<name>.yaml`) that the loader reads back as the same
/// flow: what `flow import` produces from Capture flow documents. Scalars are quoted as
/// `LocaleFileWriter` quotes them (plain only when every YAML tool reads them as that text);
/// options, rules and form field lists are written in flow style, as people write them, with
/// anything that could end a flow-style scalar (`,`, `[`, `]`, `{`, `}`) double-quoted.
public enum FlowFileWriter {
    /// The flow file's text. `header` lines become comments at the top (without `# `).
    public static func yaml(_ flow: Flow, header: [String] = []) -> String {
        var out = ""
        for line in header { out += line.isEmpty ? "#\n" : "# \(line)\n" }
        out += "flow: \(scalar(flow.name.value))\n"
        out += "version: \(LocaleFileWriter.doubleQuoted(flow.version.value))\n"
        out += "defaultLocale: \(scalar(flow.defaultLocale.value.identifier))\n"
        out += "locales: \(scalar(flow.localesDirectory.value))\n"
        out += "\nfields:\n"
        if flow.fields.isEmpty { out = String(out.dropLast()) + " {}\n" }
        for field in flow.fields { write(field, to: &out) }
        out += "\nforms:\n"
        if flow.forms.isEmpty { out = String(out.dropLast()) + " {}\n" }
        for form in flow.forms {
            out += "  \(scalar(form.name)):\n    fields: \(list(form.fields.map(\.value)))\n"
        }
        if !flow.providers.isEmpty {
            out += "\nproviders:\n"
            for provider in flow.providers { write(provider, to: &out) }
        }
        return out
    }

    static func write(_ field: FieldDefinition, to out: inout String) {
        out += "  \(scalar(field.name)):\n"
        out += "    type: \(field.type.value.rawValue)\n"
        switch field.schemaId {
        case .path(let path)?: out += "    schemaId: \(scalar(path.value))\n"
        case .map(let subs)?:
            out += "    schemaId:\n"
            for sub in subs { out += "      \(scalar(sub.key)): \(scalar(sub.path.value))\n" }
        case nil: break
        }
        if let label = field.label { out += "    label: \(scalar(label.value))\n" }
        if let placeholder = field.placeholder { out += "    placeholder: \(scalar(placeholder.value))\n" }
        if let tip = field.tip { out += "    tip: \(scalar(tip.value))\n" }
        if let value = field.defaultValue { out += "    default: \(scalar(value.value))\n" }
        if !field.options.isEmpty {
            out += "    options:\n"
            for option in field.options {
                var entries = [("value", flowScalar(option.value.value)), ("label", flowScalar(option.label.value))]
                if option.disabled { entries.append(("disabled", "true")) }
                out += "      - \(mapping(entries))\n"
            }
        }
        if !field.validation.isEmpty {
            out += "    validation:\n"
            for rule in field.validation {
                var entries = [("rule", rule.kind.rawValue)]
                switch rule.value {
                case .none: break
                case .integer(let number): entries.append(("value", String(number)))
                case .text(let text): entries.append(("value", flowScalar(text)))
                case .list(let items): entries.append(("value", list(items)))
                }
                entries.append(("message", flowScalar(rule.message.value)))
                if !rule.clientSide { entries.append(("clientSide", "false")) }
                out += "      - \(mapping(entries))\n"
            }
        }
    }

    static func write(_ provider: ProviderDefinition, to out: inout String) {
        var entries: [(String, String)] = []
        switch provider.kind {
        case .builtIn:
            if provider.name == nil, provider.icon == nil {
                out += "  - \(scalar(provider.id.value))\n"
                return
            }
            entries.append(("id", scalar(provider.id.value)))
        case .openID(let identifier, let blob):
            entries.append(("id", scalar(provider.id.value)))
            entries.append(("type", "openid"))
            if let name = provider.name { entries.append(("name", scalar(name.value))) }
            if let identifier { entries.append(("openidIdentifier", scalar(identifier.value))) }
            if let blob { entries.append(("opxBlob", scalar(blob.value))) }
        case .saml(let samlProvider):
            entries.append(("id", scalar(provider.id.value)))
            entries.append(("type", "saml"))
            if let name = provider.name { entries.append(("name", scalar(name.value))) }
            if let samlProvider { entries.append(("samlProvider", scalar(samlProvider.value))) }
        }
        if case .builtIn = provider.kind, let name = provider.name { entries.append(("name", scalar(name.value))) }
        if let icon = provider.icon { entries.append(("icon", scalar(icon.value))) }
        for (index, entry) in entries.enumerated() {
            out += (index == 0 ? "  - " : "    ") + "\(entry.0): \(entry.1)\n"
        }
    }

    static func scalar(_ text: String) -> String {
        LocaleFileWriter.scalar(text)
    }

    /// A scalar inside flow-style collections: plain only when it holds none of their indicators.
    static func flowScalar(_ text: String) -> String {
        let plain = LocaleFileWriter.isPlainSafe(text) && !text.unicodeScalars.contains { ",[]{}".unicodeScalars.contains($0) }
        return plain ? text : LocaleFileWriter.doubleQuoted(text)
    }

    static func list(_ items: [String]) -> String {
        "[" + items.map(flowScalar).joined(separator: ", ") + "]"
    }

    static func mapping(_ entries: [(String, String)]) -> String {
        "{ " + entries.map { "\($0.0): \($0.1)" }.joined(separator: ", ") + " }"
    }
}
