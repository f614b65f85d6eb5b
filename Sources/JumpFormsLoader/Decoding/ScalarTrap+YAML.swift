import JumpForms

extension ScalarTrap {
    /// What a YAML 1.1 loader would type an unquoted scalar as, when not a string.
    static func of(_ scalar: YAMLScalar) -> ScalarTrap? {
        guard scalar.style == .plain, scalar.tag == nil else { return nil }
        return of(plain: scalar.value)
    }

    /// What a YAML 1.1 loader would type `value`, written as a plain scalar, as.
    public static func of(plain value: String) -> ScalarTrap? {
        // Most texts are rejected by their first byte, read without reaching for all of them.
        guard let lead = value.utf8.first else { return .null }
        guard mayStartTrap(lead) else { return nil }
        var text = value
        return text.withUTF8 { of(bytes: $0) }
    }

    /// What a YAML 1.1 loader would type the plain scalar of UTF-8 `value` as.
    static func of(plainUTF8 value: UnsafeBufferPointer<UInt8>) -> ScalarTrap? {
        guard let lead = value.first else { return .null }
        guard mayStartTrap(lead) else { return nil }
        return of(bytes: value)
    }

    /// Every trap starts with one of these bytes (or is empty).
    private static func mayStartTrap(_ lead: UInt8) -> Bool {
        switch lead {
        case UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"),
            UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "o"), UInt8(ascii: "O"), UInt8(ascii: "~"), UInt8(ascii: "."),
            UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            false
        }
    }

    /// The words YAML 1.1 types (all at most five bytes long), by their packed bytes, sorted:
    /// found by binary search (a handful of integer comparisons, no hashing).
    private static let words: [(packed: UInt64, trap: ScalarTrap)] = {
        let typed: [(ScalarTrap, [String])] = [
            (.null, ["~", "null", "Null", "NULL"]),
            (
                .boolean,
                [
                    "y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
                    "on", "On", "ON", "off", "Off", "OFF"
                ]
            ),
            (.number, [".inf", ".Inf", ".INF", "-.inf", "+.inf", "-.Inf", "+.Inf", "-.INF", "+.INF", ".nan", ".NaN", ".NAN"])
        ]
        var words: [(packed: UInt64, trap: ScalarTrap)] = []
        for (trap, list) in typed {
            for word in list { words.append((Array(word.utf8).withUnsafeBufferPointer(packed), trap)) }
        }
        return words.sorted { $0.packed < $1.packed }
    }()

    /// The trap of the word packed as `packed`, if it is one of `words`.
    private static func word(_ packed: UInt64) -> ScalarTrap? {
        let words = Self.words
        var (low, high) = (0, words.count)
        while low < high {
            let middle = (low + high) / 2
            if words[middle].packed < packed { low = middle + 1 } else { high = middle }
        }
        return low < words.count && words[low].packed == packed ? words[low].trap : nil
    }

    /// A word of up to seven bytes in one integer: its bytes, the first lowest, and its length
    /// in the top byte. Words pack equal only when they are equal, so a word is found with one
    /// lookup instead of a comparison per word.
    private static func packed(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        precondition(bytes.count < 8)
        var value = UInt64(bytes.count) << 56
        for (position, byte) in bytes.enumerated() { value |= UInt64(byte) << (8 * position) }
        return value
    }

    /// `b`: not empty, its first byte one `mayStartTrap` accepts.
    private static func of(bytes b: UnsafeBufferPointer<UInt8>) -> ScalarTrap? {
        let lead = b[0]
        if b.count <= 5, let trap = word(packed(b)) { return trap }
        guard lead == UInt8(ascii: "-") || lead == UInt8(ascii: "+") || lead == UInt8(ascii: ".") || isDigit(lead) else { return nil }
        if isDate(b) { return .date }
        if isNumber(b) { return .number }
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// `yyyy-mm-dd`, optionally followed by a time (YAML 1.1 timestamp).
    private static func isDate(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard b.count >= 8 else { return false }
        var i = 0
        var digits = 0
        while i < b.count, isDigit(b[i]) { i += 1; digits += 1 }
        guard digits == 4, i < b.count, b[i] == UInt8(ascii: "-") else { return false }
        i += 1
        digits = 0
        while i < b.count, isDigit(b[i]) { i += 1; digits += 1 }
        guard (1...2).contains(digits), i < b.count, b[i] == UInt8(ascii: "-") else { return false }
        i += 1
        digits = 0
        while i < b.count, isDigit(b[i]) { i += 1; digits += 1 }
        guard (1...2).contains(digits) else { return false }
        return i == b.count || b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == UInt8(ascii: " ")
    }

    /// Integers (decimal, `0x`, `0o`/octal, `0b`, `_` separators, sexagesimal `1:30`) and floats.
    private static func isNumber(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        if b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { i += 1 }
        guard i < b.count else { return false }
        if b.count - i > 2, b[i] == UInt8(ascii: "0") {
            let marker = b[i + 1]
            let rest = b[(i + 2)...]
            switch marker {
            case UInt8(ascii: "x"):
                return rest.allSatisfy { isDigit($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0 | 0x20) || $0 == UInt8(ascii: "_") }
            case UInt8(ascii: "b"): return rest.allSatisfy { $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: "1") || $0 == UInt8(ascii: "_") }
            case UInt8(ascii: "o"): return rest.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) || $0 == UInt8(ascii: "_") }
            default: break
            }
        }
        var sawDigit = false
        var sawDot = false
        var sawExponent = false
        while i < b.count {
            let byte = b[i]
            if isDigit(byte) {
                sawDigit = true
            } else if byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") {
                guard sawDigit, !sawDot else { return false }
            } else if byte == UInt8(ascii: ".") {
                guard !sawDot, !sawExponent else { return false }
                sawDot = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                guard sawDigit, !sawExponent else { return false }
                sawExponent = true
                if i + 1 < b.count, b[i + 1] == UInt8(ascii: "-") || b[i + 1] == UInt8(ascii: "+") { i += 1 }
            } else {
                return false
            }
            i += 1
        }
        return sawDigit
    }
}
