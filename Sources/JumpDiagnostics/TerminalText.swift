/// Text from outside (a record, a server's answer, an email in the local outbox, a file's
/// content, a provider's name) made safe to print on a terminal: every C0 and C1 control
/// character but the tab (ESC, CR, BEL, backspace, CSI ...) and every bidirectional control
/// (embeddings and overrides U+202A-202E, isolates U+2066-2069, the marks U+200E, U+200F,
/// U+061C) is written as Swift writes it escaped, `\u{1B}`, so that it cannot move the
/// cursor, clear the screen, set the window title, recolour or reorder what the terminal
/// shows. The CLI passes every text from outside through it before it reaches standard output
/// or standard error; `--format json` output is not text for a terminal and stays exact.
public enum TerminalText {
    /// `text` with its control characters escaped. With `keepingLineBreaks`, a line feed
    /// (U+000A) stays a line break (for multi-line messages); a carriage return never does.
    public static func escaped(_ text: String, keepingLineBreaks: Bool = false) -> String {
        func escapes(_ scalar: Unicode.Scalar) -> Bool {
            isControl(scalar) && !(keepingLineBreaks && scalar == "\n")
        }
        guard text.unicodeScalars.contains(where: escapes) else { return text }
        var out = ""
        for scalar in text.unicodeScalars {
            if escapes(scalar) { out += escaped(scalar) } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// `\u{1B}` for ESC.
    static func escaped(_ scalar: Unicode.Scalar) -> String {
        "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
    }

    /// C0 and C1 controls but the tab, and the bidirectional controls (embeddings, overrides,
    /// isolates, marks).
    public static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v == 0x09 { return false }
        return v < 0x20 || (0x7F...0x9F).contains(v) || (0x202A...0x202E).contains(v)
            || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F || v == 0x061C
    }
}
