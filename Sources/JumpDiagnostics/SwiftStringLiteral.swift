/// Swift source text of a string, for the generated tables of rule codes
/// (`DiagnosticCode+LintRules.generated.swift`, `DiagnosticCode+LocaleRules.generated.swift`):
/// quotes and backslashes escaped, newlines and tabs as `\n` and `\t`, other control characters
/// as `\u{…}`.
public func swiftStringLiteral(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
        switch scalar {
        case "\\": out += "\\\\"
        case "\"": out += "\\\""
        case "\n": out += "\\n"
        case "\t": out += "\\t"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
    }
    return out + "\""
}
