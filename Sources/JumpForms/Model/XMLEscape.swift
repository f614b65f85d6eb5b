/// XML 1.0 escaping for the package's XML writers (Android strings.xml, JUnit reports).
package enum XMLEscape {
    /// Element text: `&`, `<` and `>` as entities.
    package static func text(_ text: String) -> String {
        escape(text, quotes: false, replacingInvalid: false)
    }

    /// A double-quoted attribute value: `text` escaping, and `"` as `&quot;`. With
    /// `replacingInvalid`, control characters other than tab, line feed and carriage return, and
    /// U+FFFE and U+FFFF (which XML 1.0 cannot hold) become U+FFFD; the result is then fit for
    /// element text as well.
    package static func attribute(_ value: String, replacingInvalid: Bool = false) -> String {
        escape(value, quotes: true, replacingInvalid: replacingInvalid)
    }

    private static func escape(_ text: String, quotes: Bool, replacingInvalid: Bool) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if let entity = entity(for: scalar, quotes: quotes) {
                out += entity
            } else if replacingInvalid, !isAllowed(scalar) {
                out += "\u{FFFD}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// The entity written for `scalar` (for `"` only with `quotes`); nil when it stands as itself.
    private static func entity(for scalar: Unicode.Scalar, quotes: Bool) -> String? {
        switch scalar {
        case "&": "&amp;"
        case "<": "&lt;"
        case ">": "&gt;"
        case "\"" where quotes: "&quot;"
        default: nil
        }
    }

    /// Whether XML 1.0 can hold `scalar`: no control character but tab, line feed and carriage
    /// return, and neither U+FFFE nor U+FFFF.
    private static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        !(scalar.value < 0x20 && scalar != "\n" && scalar != "\t" && scalar != "\r" || scalar.value == 0xFFFE || scalar.value == 0xFFFF)
    }
}
