import JumpForms

/// What the text checks read in a message: tags, URLs, numbers, invisible and bidi characters.
/// Scans work on Unicode scalars; offsets are scalar offsets into the message source.
enum TextScan {
    // MARK: literal text

    /// The literal text of a message: every text node at any depth (arguments excluded).
    static func literalText(_ pattern: MessagePattern) -> [String] {
        var texts: [String] = []
        pattern.walk { node in
            if case .text(let text) = node { texts.append(text) }
        }
        return texts
    }

    // MARK: markup

    /// The distinct tags (`<b>`, `</b>`, `<br/>`, `<a>`: attributes dropped), sorted.
    static func tags(in texts: [String]) -> [String] {
        // Few tags per message: a list keeps them distinct more cheaply than a set.
        var found: [String] = []
        for text in texts where text.utf8.contains(UInt8(ascii: "<")) {
            let scalars = scalars(of: text)
            var index = 0
            while index < scalars.count {
                guard scalars[index] == "<" else { index += 1; continue }
                var cursor = index + 1
                var closing = false
                if cursor < scalars.count, scalars[cursor] == "/" { closing = true; cursor += 1 }
                guard cursor < scalars.count, isASCIILetter(scalars[cursor]) else { index += 1; continue }
                // The tag as found, `<`, `/` and the name lowercased (all ASCII).
                var tag: [UInt8] = closing ? [UInt8(ascii: "<"), UInt8(ascii: "/")] : [UInt8(ascii: "<")]
                while cursor < scalars.count,
                    isASCIILetter(scalars[cursor]) || ("0"..."9").contains(scalars[cursor]) || scalars[cursor] == "-" || scalars[cursor] == ":"
                {
                    let byte = UInt8(scalars[cursor].value)
                    tag.append(isASCIILetter(scalars[cursor]) ? byte | 0x20 : byte)
                    cursor += 1
                }
                // Attributes run to `>`; a quoted attribute value may hold `>`.
                var quote: Unicode.Scalar?
                while cursor < scalars.count {
                    let c = scalars[cursor]
                    if let open = quote {
                        if c == open { quote = nil }
                    } else if c == "\"" || c == "'" {
                        quote = c
                    } else if c == ">" {
                        break
                    } else if c == "<" {
                        break
                    }
                    cursor += 1
                }
                guard cursor < scalars.count, scalars[cursor] == ">" else { index += 1; continue }
                if !closing, scalars[cursor - 1] == "/" { tag.append(UInt8(ascii: "/")) }
                tag.append(UInt8(ascii: ">"))
                let text = String(decoding: tag, as: UTF8.self)
                if !found.contains(text) { found.append(text) }
                index = cursor + 1
            }
        }
        return found.sorted()
    }

    // MARK: URLs

    /// The URLs (`http://`, `https://`, `www.`, `mailto:`) with their scalar ranges in `text`.
    static func urls(in text: String) -> [(url: String, range: Range<Int>)] {
        guard mayHoldURL(text) else { return [] }
        // The prefixes are matched on the lowercased text, where only ASCII letters can match
        // them (of the other scalars only U+212A KELVIN SIGN lowercases to ASCII, to `k`,
        // which no prefix has), so ASCII letters are lowercased and the rest kept. One scalar
        // lowercases to two, U+0130 (`İ`): then no scalar offset can be trusted (no URLs).
        if text.utf8.contains(0xC4), text.unicodeScalars.contains("\u{0130}") { return [] }
        let scalars = scalars(of: text)
        let lowered = scalars.map { ("A"..."Z").contains($0) ? Unicode.Scalar($0.value | 0x20)! : $0 }
        var result: [(String, Range<Int>)] = []
        var index = 0
        func starts(_ prefix: [Unicode.Scalar], at position: Int) -> Bool {
            guard position + prefix.count <= lowered.count else { return false }
            for offset in prefix.indices where lowered[position + offset] != prefix[offset] { return false }
            return true
        }
        while index < scalars.count {
            let boundary = index == 0 || !(isASCIILetter(scalars[index - 1]) || ("0"..."9").contains(scalars[index - 1]))
            // Every prefix starts with `h`, `w` or `m`: other scalars need no comparison.
            let lead = lowered[index]
            if boundary, lead == "h" || lead == "w" || lead == "m", urlPrefixes.contains(where: { starts($0, at: index) }) {
                var end = index
                while end < scalars.count, !isWhitespace(scalars[end]), !isURLTerminator(scalars[end]) {
                    end += 1
                }
                while end > index, isURLTrailingPunctuation(scalars[end - 1]) { end -= 1 }
                result.append((string(scalars[index..<end]), index..<end))
                index = end
            } else {
                index += 1
            }
        }
        return result
    }

    /// The scalars of `text` in an array, decoded in one pass.
    static func scalars(of text: String) -> [Unicode.Scalar] {
        // A text has at most as many scalars as UTF-8 bytes.
        Array(unsafeUninitializedCapacity: text.utf8.count) { buffer, count in
            for scalar in text.unicodeScalars {
                buffer[count] = scalar
                count += 1
            }
        }
    }

    /// The text of some scalars.
    static func string(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(scalars.count)
        for scalar in scalars { bytes.append(contentsOf: scalar.utf8) }
        return String(decoding: bytes, as: UTF8.self)
    }

    static let urlPrefixes: [[Unicode.Scalar]] = ["http://", "https://", "www.", "mailto:"].map { Array($0.unicodeScalars) }

    /// Characters that end a URL: `<>"'{}`.
    static func isURLTerminator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "<", ">", "\"", "'", "{", "}": true
        default: false
        }
    }

    /// Punctuation dropped from the end of a URL: `.,;:!?)]`.
    static func isURLTrailingPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case ".", ",", ";", ":", "!", "?", ")", "]": true
        default: false
        }
    }

    /// A cheap test on the bytes: `://`, `www.` or `mailto:` (any case) somewhere.
    static func mayHoldURL(_ text: String) -> Bool {
        var found = false
        text.utf8.withContiguousStorageIfAvailable { bytes in
            guard bytes.count >= 4 else { return }
            for index in 0..<(bytes.count - 3) {
                let b = bytes[index]
                if b == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") { found = true; return }
                if b | 0x20 == UInt8(ascii: "w"), bytes[index + 1] | 0x20 == UInt8(ascii: "w"), bytes[index + 2] | 0x20 == UInt8(ascii: "w"),
                    bytes[index + 3] == UInt8(ascii: ".")
                {
                    found = true; return
                }
                if b == UInt8(ascii: ":"), index >= 6, bytes[index - 6] | 0x20 == UInt8(ascii: "m"), bytes[index - 1] | 0x20 == UInt8(ascii: "o") {
                    found = true; return
                }
            }
        }
        return found
    }

    static func urls(in texts: [String]) -> [String] {
        Set(texts.flatMap { urls(in: $0).map(\.url) }).sorted()
    }

    // MARK: numbers

    /// The distinct numbers of the text, as ASCII digits without group separators or leading
    /// zeros, with `.` for a decimal mark (`1,5` and `1.5` are `1.5`), sorted. A separator
    /// between digits groups them only when exactly three digits follow (`1,000`, `1 000`,
    /// `1.000.000`); otherwise `.` and `,` are decimal marks, and the other separators end the
    /// number (`3 4` is two numbers). URLs and international phone numbers (`+` then digits)
    /// are skipped.
    static func numbers(in texts: [String]) -> [String] {
        // Few numbers per message: a list keeps them distinct more cheaply than a set.
        var found: [String] = []
        // The number being read, as ASCII: the whole part without leading zeros, then `.` and
        // each further part.
        var number: [UInt8] = []
        for text in texts {
            guard mayHoldDigit(text) else { continue }
            let scalars = scalars(of: text)
            let urlRanges = urls(in: text).map(\.range)
            var skip: [Bool] = []
            if !urlRanges.isEmpty {
                skip = Array(repeating: false, count: scalars.count)
                for range in urlRanges { for index in range { skip[index] = true } }
            }
            /// The length of the run of digits at `start` (0 when none, or skipped).
            func digitRun(_ start: Int) -> Int {
                var end = start
                while end < scalars.count, skip.isEmpty || !skip[end], digit(scalars[end]) != nil { end += 1 }
                return end - start
            }
            /// The digits of `range` as ASCII digits, appended to `number` (leading zeros of
            /// the whole part dropped).
            func appendDigits(_ range: Range<Int>, whole: Bool) {
                for index in range {
                    let value = digit(scalars[index])!
                    if whole, value == 0, number.isEmpty { continue }
                    number.append(UInt8(ascii: "0") + UInt8(value))
                }
            }
            var index = 0
            while index < scalars.count {
                if !skip.isEmpty, skip[index] { index += 1; continue }
                // An international phone number: `+`, then digits, spaces, hyphens, dots, parentheses.
                if scalars[index] == "+", index + 1 < scalars.count, digit(scalars[index + 1]) != nil {
                    index += 1
                    while index < scalars.count, digit(scalars[index]) != nil || isPhoneNumberPunctuation(scalars[index]) {
                        index += 1
                    }
                    continue
                }
                let run = digitRun(index)
                guard run > 0 else { index += 1; continue }
                number.removeAll(keepingCapacity: true)
                appendDigits(index..<index + run, whole: true)
                var hasFraction = false
                index += run
                while index + 1 < scalars.count, isNumberSeparator(scalars[index]) {
                    let next = digitRun(index + 1)
                    guard next > 0 else { break }
                    let separator = scalars[index]
                    let isDecimalMark = separator == "." || separator == "," || separator == "\u{066B}"
                    if !hasFraction, next == 3, separator != "\u{066B}" {
                        appendDigits(index + 1..<index + 1 + next, whole: true)
                    } else if isDecimalMark {
                        // A decimal mark, or a further part (`1.2.3`): kept after a `.`.
                        if !hasFraction, number.isEmpty { number.append(UInt8(ascii: "0")) }
                        hasFraction = true
                        number.append(UInt8(ascii: "."))
                        appendDigits(index + 1..<index + 1 + next, whole: false)
                    } else {
                        break
                    }
                    index += 1 + next
                }
                if number.isEmpty { number.append(UInt8(ascii: "0")) }
                let text = String(decoding: number, as: UTF8.self)
                if !found.contains(text) { found.append(text) }
            }
        }
        // The numbers are ASCII: their length in bytes is their length in characters.
        return found.sorted { ($0.utf8.count, $0) < ($1.utf8.count, $1) }
    }

    /// Separators between the digits of a number (grouping or decimal marks).
    static func isNumberSeparator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case ",", ".", " ", "'", "\u{00A0}", "\u{202F}", "\u{066B}", "\u{066C}", "\u{2009}": true
        default: false
        }
    }

    /// What an international phone number holds besides digits: spaces, hyphens, dots, parentheses.
    static func isPhoneNumberPunctuation(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case " ", "-", ".", "(", ")", "\u{00A0}": true
        default: false
        }
    }

    static func digit(_ scalar: Unicode.Scalar) -> Int? {
        let v = scalar.value
        if v < 0x80 { return v >= 0x30 && v <= 0x39 ? Int(v - 0x30) : nil }
        guard otherDigitRanges.contains(where: { $0.contains(v) }) else { return nil }
        guard scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue else { return nil }
        return Int(value)
    }

    /// Where decimal digits (Nd) outside ASCII live: CJK, Hangul and most letters are skipped
    /// without a property lookup.
    static let otherDigitRanges: [ClosedRange<UInt32>] = [0x0660...0x1C59, 0xA620...0xABF9, 0xFF10...0xFF19, 0x104A0...0x10FFFF]

    /// A cheap test: could the text hold a digit? ASCII digits, or the UTF-8 lead byte of a
    /// range that holds decimal digits of other scripts (then the scalars are looked at).
    static func mayHoldDigit(_ text: String) -> Bool {
        var text = text
        let other = text.withUTF8 { bytes in
            var other = false
            for byte in bytes {
                if byte >= 0x30 && byte <= 0x39 { return Optional(true) }
                if TextPrescan.mayBeginOtherDigit(byte) { other = true }
            }
            return other ? nil : Optional(false)
        }
        if let other { return other }
        return text.unicodeScalars.contains { $0.value >= 0x80 && digit($0) != nil }
    }

    /// `Unicode.Scalar.Properties.isWhitespace`, without the property lookup.
    /// Unicode's White_Space list is fixed (a stability policy), so it is written out here.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    // MARK: characters

    /// Invisible characters (see the rule's explanation), with the scalar offset of each.
    static func invisibles(in source: String, allowZeroWidthSpace: Bool) -> [(offset: Int, scalar: Unicode.Scalar)] {
        var result: [(Int, Unicode.Scalar)] = []
        for (offset, scalar) in source.unicodeScalars.enumerated() where isInvisible(scalar, allowZeroWidthSpace: allowZeroWidthSpace) {
            result.append((offset, scalar))
        }
        return result
    }

    /// Whether `invisibles` reports `scalar`.
    static func isInvisible(_ scalar: Unicode.Scalar, allowZeroWidthSpace: Bool) -> Bool {
        scalar.value == zeroWidthSpace ? !allowZeroWidthSpace : invisibleRanges.contains { $0.contains(scalar.value) }
    }

    /// The invisible characters (ASCII and C1 controls but tab and line feed, fillers, format
    /// characters, tags) besides the zero-width space, which some languages need.
    static let invisibleRanges: [ClosedRange<UInt32>] = [
        0x00...0x08, 0x0B...0x1F, 0x7F...0x9F, 0xAD...0xAD, 0x115F...0x1160, 0x180E...0x180E, 0x2028...0x2029,
        0x2060...0x2064, 0x3164...0x3164, 0xFEFF...0xFEFF, 0xFFA0...0xFFA0, 0xFFF9...0xFFFB, 0xE0000...0xE007F
    ]
    static let zeroWidthSpace: UInt32 = 0x200B

    enum BidiKind { case mark, embedding, isolate, popEmbedding, popIsolate }

    static func bidiKind(_ scalar: Unicode.Scalar) -> BidiKind? {
        bidiControls[scalar.value]
    }

    /// The bidi controls: marks, embeddings and overrides, isolates, and their closers.
    static let bidiControls: [UInt32: BidiKind] = [
        0x061C: .mark, 0x200E: .mark, 0x200F: .mark,
        0x202A: .embedding, 0x202B: .embedding, 0x202D: .embedding, 0x202E: .embedding, 0x202C: .popEmbedding,
        0x2066: .isolate, 0x2067: .isolate, 0x2068: .isolate, 0x2069: .popIsolate
    ]

    /// The first bidi problem of a message: in a left-to-right locale any bidi control; in a
    /// right-to-left one, a closer without opener or an opener never closed.
    static func bidiProblem(in source: String, rightToLeft: Bool) -> (offset: Int, scalar: Unicode.Scalar, problem: String, count: Int)? {
        var controls: [(Int, Unicode.Scalar, BidiKind)] = []
        for (offset, scalar) in source.unicodeScalars.enumerated() {
            if scalar.value >= 0x061C, let kind = bidiKind(scalar) { controls.append((offset, scalar, kind)) }
        }
        guard let first = controls.first else { return nil }
        if !rightToLeft {
            return (first.0, first.1, "a left-to-right locale needs no bidi controls", controls.count)
        }
        // Embeddings and overrides close with PDF, isolates with PDI (which also closes the
        // embeddings opened inside the isolate).
        var stack: [(Int, Unicode.Scalar, BidiKind)] = []
        for control in controls {
            switch control.2 {
            case .mark: break
            case .embedding, .isolate: stack.append(control)
            case .popEmbedding:
                guard let last = stack.last, last.2 == .embedding else {
                    return (control.0, control.1, "it closes an embedding that was never opened", controls.count)
                }
                stack.removeLast()
            case .popIsolate:
                guard let isolate = stack.lastIndex(where: { $0.2 == .isolate }) else {
                    return (control.0, control.1, "it closes an isolate that was never opened", controls.count)
                }
                stack.removeSubrange(isolate...)
            }
        }
        if let open = stack.first {
            let closer = open.2 == .isolate ? "U+2069" : "U+202C"
            return (open.0, open.1, "it is never closed (\(closer))", controls.count)
        }
        return nil
    }

    /// Languages written right to left, by BCP 47 language (and scripts that are).
    static let rightToLeftLanguages: Set<String> = [
        "ar", "he", "iw", "fa", "ur", "ps", "yi", "ji", "dv", "ckb", "sd", "ug", "syr", "ks", "nqo", "arc", "ku"
    ]
    static let rightToLeftScripts: Set<String> = ["Arab", "Hebr", "Syrc", "Thaa", "Nkoo", "Adlm", "Rohg"]

    static func isRightToLeft(_ tag: LocaleTag) -> Bool {
        if let script = tag.script { return rightToLeftScripts.contains(script) }
        if tag.language == "ku" { return false }  // Kurdish is Latin unless the script says Arabic
        return rightToLeftLanguages.contains(tag.language)
    }

    /// Languages that use U+200B to mark word breaks.
    static let zeroWidthSpaceLanguages: Set<String> = ["th", "lo", "km", "my", "bo", "dz"]

    /// `U+200B ZERO WIDTH SPACE`.
    static func describe(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        if let name = scalar.properties.name ?? scalar.properties.nameAlias { return "\(code) \(name)" }
        return code
    }

    static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
        ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }

    /// Whether the text has letters once arguments (ICU's, and printf's `%@`, `%1$d`), markup,
    /// URLs, e-mail addresses, numbers and unit symbols (`h`, `min`, `km/h`, `MB`: see
    /// `unitSymbols`) are set aside: text without any (`%@h`, `{n} min`) is not "untranslated".
    static func hasTranslatableLetters(_ texts: [String]) -> Bool {
        for text in texts {
            var scalars = Array(text.unicodeScalars)
            // Drop URLs and tags.
            for (_, range) in urls(in: text).reversed() { scalars.removeSubrange(range) }
            var inTag = false
            var word: [Unicode.Scalar] = []
            var letters = false
            func flush() {
                let rest = withoutPrintfSpecifiers(word)
                // A word with `@` is an e-mail address.
                if !rest.contains("@"), hasWordLetters(rest) { letters = true }
                word.removeAll()
            }
            for scalar in scalars {
                if scalar == "<" { inTag = true; flush(); continue }
                if inTag { if scalar == ">" { inTag = false }; continue }
                if scalar.properties.isWhitespace { flush() } else { word.append(scalar) }
            }
            flush()
            if letters { return true }
        }
        return false
    }
}

extension TextScan {
    /// Unit symbols and abbreviations that most languages write as English does (CLDR's short
    /// units keep them in most locales): a text made of numbers, arguments and these is the
    /// same in every language. Case matters (`MB`, `mAh`).
    static let unitSymbols: Set<String> = [
        "ns", "µs", "ms", "s", "sec", "min", "h", "hr", "hrs", "d",
        "nm", "µm", "mm", "cm", "m", "km", "ft", "yd", "mi", "mg", "g", "kg", "lb", "lbs", "oz", "ml", "mL", "l", "L",
        "B", "kB", "KB", "MB", "GB", "TB", "PB", "KiB", "MiB", "GiB", "TiB", "bit", "kbit", "Mbit", "bps", "kbps", "Kbps", "Mbps", "Gbps",
        "Hz", "kHz", "MHz", "GHz", "W", "kW", "Wh", "kWh", "mAh", "V", "mV", "px", "pt", "dp", "sp", "dpi", "ppi", "fps", "mph",
        "°", "°C", "°F", "x"
    ]

    /// The word without its printf conversions (`%@`, `%1$@`, `%d`, `%.2f`, `%lld`, `%%`).
    static func withoutPrintfSpecifiers(_ word: [Unicode.Scalar]) -> [Unicode.Scalar] {
        guard word.contains("%") else { return word }
        var result: [Unicode.Scalar] = []
        var index = 0
        func isDigit(_ at: Int) -> Bool { at < word.count && ("0"..."9").contains(word[at]) }
        while index < word.count {
            guard word[index] == "%" else { result.append(word[index]); index += 1; continue }
            var cursor = index + 1
            // `N$`
            var digits = cursor
            while isDigit(digits) { digits += 1 }
            if digits > cursor, digits < word.count, word[digits] == "$" { cursor = digits + 1 }
            while cursor < word.count, "-+ #0'".unicodeScalars.contains(word[cursor]) { cursor += 1 }
            while isDigit(cursor) || (cursor < word.count && word[cursor] == "*") { cursor += 1 }
            if cursor < word.count, word[cursor] == "." {
                cursor += 1
                while isDigit(cursor) { cursor += 1 }
            }
            for length in ["hh", "ll", "h", "l", "q", "L", "z", "t", "j"] {
                let scalars = Array(length.unicodeScalars)
                if cursor + scalars.count < word.count, Array(word[cursor..<cursor + scalars.count]) == scalars {
                    cursor += scalars.count
                    break
                }
            }
            if cursor < word.count, "@dDiuUxXoOfFeEgGaAcCsSp%".unicodeScalars.contains(word[cursor]) {
                index = cursor + 1
            } else {
                result.append(word[index])
                index += 1
            }
        }
        return result
    }

    /// Whether a word has letters that are not a unit symbol: its runs of letters (`°` and `µ`
    /// count as letters) are each checked, so `10MB`, `km/h` and `5h` have none.
    static func hasWordLetters(_ word: [Unicode.Scalar]) -> Bool {
        var run = ""
        var runHasLetter = false
        for scalar in word + [" "] {
            let isLetter = scalar.properties.isAlphabetic
            if isLetter || scalar == "°" || scalar == "µ" {
                run.unicodeScalars.append(scalar)
                runHasLetter = runHasLetter || isLetter
                continue
            }
            if runHasLetter, !unitSymbols.contains(run) { return true }
            run = ""
            runHasLetter = false
        }
        return false
    }
}

extension String {
    /// The scalar offset of the first occurrence of two spaces, if any.
    var doubleSpaceOffset: Int? {
        var previousByte: UInt8 = 0
        var found = false
        for byte in utf8 {
            if byte == 0x20 && previousByte == 0x20 { found = true; break }
            previousByte = byte
        }
        guard found else { return nil }
        var previous: Unicode.Scalar?
        for (offset, scalar) in unicodeScalars.enumerated() {
            if scalar == " ", previous == " " { return offset - 1 }
            previous = scalar
        }
        return nil
    }

    var newlineCount: Int { utf8.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }
}

/// What one pass over a message's UTF-8 bytes found (braces, markup, digits, URLs, special
/// characters, whitespace at the edges, line breaks), so that each check can skip the messages
/// it has nothing to say about without scanning the text again.
struct TextPrescan {
    /// The text scanned: the message's text, built once from its bytes for all the checks.
    let text: String
    var hasBrace = false
    var hasTag = false
    /// `://`, `www.` or `mailto:` somewhere (any case).
    var mayHoldURL = false
    var hasASCIIDigit = false
    /// A decimal digit of another script.
    var hasOtherDigit = false
    /// An ASCII control, or a scalar that may be an invisible or bidi character.
    var mayHoldSpecialCharacter = false
    var hasDoubleSpace = false
    var newlines = 0
    /// Whether the first and the last scalar are whitespace.
    var startsWithWhitespace = false
    var endsWithWhitespace = false

    /// What a byte may tell: most bytes (letters, most punctuation) tell nothing. The lead
    /// bytes of multi-byte characters that may tell something come last: `isLead`.
    private enum ByteClass: UInt8 {
        case nothing, newline, space, brace, tag, digit, colon, dot, control, otherDigit
        /// The lead byte of a range holding invisible or bidi characters (and of one holding
        /// decimal digits of other scripts).
        case specialLead, specialLeadOrOtherDigit

        /// `otherDigit`, `specialLead` or `specialLeadOrOtherDigit`.
        var isLead: Bool { rawValue >= ByteClass.otherDigit.rawValue }
    }

    /// The class of each byte and, for each lead byte, the second bytes (their low six bits,
    /// one bit each) that begin a scalar the checks may report or a decimal digit.
    private struct ByteTables {
        var classes: [ByteClass]
        var secondByteFilter: [UInt64]
    }

    /// The tables, derived from `mayBeSpecial` and `TextScan.digit` over the scalars of their
    /// definitions (`TextScan.invisibleRanges`, `bidiControls`, `otherDigitRanges`): a lead
    /// byte's class says which of them some scalar it begins satisfies, and its filter lets
    /// through only those scalars' second bytes (most letters of Arabic, Indic and CJK texts
    /// share a lead byte with such a scalar but not its second byte). Four-byte leads are
    /// classed from the ranges alone and let every second byte through.
    private static let tables: ByteTables = {
        var classes = (0...255).map { (byte: Int) -> ByteClass in
            switch byte {
            case 0x0A: .newline
            case 0x20: .space
            case 0x7B, 0x7D: .brace
            case 0x3C: .tag
            case 0x30...0x39: .digit
            case 0x3A: .colon
            case 0x2E: .dot
            case 0x00..<0x80 where mayBeSpecial(Unicode.Scalar(UInt8(byte))): .control
            default: .nothing
            }
        }
        var special = [Bool](repeating: false, count: 256)
        var digit = [Bool](repeating: false, count: 256)
        var filter = [UInt64](repeating: 0, count: 256)
        // The two- and three-byte scalars of the definitions' ranges, each with its lead byte
        // and its second byte's low six bits.
        func scalars(in ranges: [ClosedRange<UInt32>]) -> [(scalar: Unicode.Scalar, lead: Int, second: Int)] {
            ranges.filter { $0.overlaps(0x80...0xFFFF) }.flatMap { range in
                range.clamped(to: 0x80...0xFFFF).compactMap { value in
                    Unicode.Scalar(value).map {
                        (
                            $0, value < 0x800 ? Int(0xC0 | value >> 6) : Int(0xE0 | value >> 12),
                            Int(value < 0x800 ? value & 0x3F : value >> 6 & 0x3F)
                        )
                    }
                }
            }
        }
        let specialCandidates =
            TextScan.invisibleRanges + [TextScan.zeroWidthSpace...TextScan.zeroWidthSpace]
            + TextScan.bidiControls.keys.map { $0...$0 }
        for (scalar, lead, second) in scalars(in: specialCandidates) where mayBeSpecial(scalar) {
            special[lead] = true
            filter[lead] |= 1 << UInt64(second)
        }
        for (scalar, lead, second) in scalars(in: TextScan.otherDigitRanges) where TextScan.digit(scalar) != nil {
            digit[lead] = true
            filter[lead] |= 1 << UInt64(second)
        }
        func fourByteLeads(_ ranges: [ClosedRange<UInt32>]) -> [Int] {
            ranges.filter { $0.upperBound > 0xFFFF }.flatMap { range in
                Int(leadByte(max(range.lowerBound, 0x10000)))...Int(leadByte(range.upperBound))
            }
        }
        for lead in fourByteLeads(TextScan.invisibleRanges) { special[lead] = true; filter[lead] = ~0 }
        for lead in fourByteLeads(TextScan.otherDigitRanges) { digit[lead] = true; filter[lead] = ~0 }
        for lead in 0x80...0xFF {
            switch (special[lead], digit[lead]) {
            case (true, true): classes[lead] = .specialLeadOrOtherDigit
            case (true, false): classes[lead] = .specialLead
            case (false, true): classes[lead] = .otherDigit
            case (false, false): break
            }
        }
        return ByteTables(classes: classes, secondByteFilter: filter)
    }()

    /// The UTF-8 lead byte of a scalar above U+FFFF.
    private static func leadByte(_ value: UInt32) -> UInt8 {
        UInt8(0xF0 | (value >> 18))
    }

    /// Whether `byte` is the lead byte of a scalar that may be a decimal digit of another script.
    static func mayBeginOtherDigit(_ byte: UInt8) -> Bool {
        let byteClass = tables.classes[Int(byte)]
        return byteClass == .otherDigit || byteClass == .specialLeadOrOtherDigit
    }

    init(_ text: String) {
        self.text = text
        var copy = text
        copy.withUTF8 { bytes in
            let count = bytes.count
            guard count > 0 else { return }
            let filter = Self.tables.secondByteFilter
            Self.tables.classes.withUnsafeBufferPointer { classes in
                for index in 0..<count {
                    let byte = bytes[index]
                    let byteClass = classes[Int(byte)]
                    // Most bytes tell nothing: a plain branch skips them, where the switch below
                    // is an indirect jump that mispredicts on mixed text.
                    if byteClass == .nothing { continue }
                    if byteClass.isLead, index + 1 < count,
                        filter[Int(byte)] & (1 << UInt64(bytes[index + 1] & 0x3F)) == 0
                    {
                        continue
                    }
                    switch byteClass {
                    case .nothing: continue
                    case .newline: newlines += 1
                    case .space: if index > 0, bytes[index - 1] == 0x20 { hasDoubleSpace = true }
                    case .brace: hasBrace = true
                    case .tag: hasTag = true
                    case .digit: hasASCIIDigit = true
                    case .colon:
                        if index + 2 < count, bytes[index + 1] == 0x2F, bytes[index + 2] == 0x2F { mayHoldURL = true }
                        if index >= 6, bytes[index - 6] | 0x20 == 0x6D, bytes[index - 1] | 0x20 == 0x6F { mayHoldURL = true }
                    case .dot:
                        if index >= 3, bytes[index - 1] | 0x20 == 0x77, bytes[index - 2] | 0x20 == 0x77, bytes[index - 3] | 0x20 == 0x77 {
                            mayHoldURL = true
                        }
                    case .control: mayHoldSpecialCharacter = true
                    case .specialLead:
                        if Self.mayBeSpecial(Self.scalar(in: bytes, at: index)) { mayHoldSpecialCharacter = true }
                    case .otherDigit:
                        if TextScan.digit(Self.scalar(in: bytes, at: index)) != nil { hasOtherDigit = true }
                    case .specialLeadOrOtherDigit:
                        let scalar = Self.scalar(in: bytes, at: index)
                        if Self.mayBeSpecial(scalar) { mayHoldSpecialCharacter = true }
                        if TextScan.digit(scalar) != nil { hasOtherDigit = true }
                    }
                }
            }
            startsWithWhitespace = TextScan.isWhitespace(Self.scalar(in: bytes, at: 0))
            // The last scalar starts at the last byte that is not a continuation byte.
            var last = count - 1
            while last > 0, bytes[last] & 0xC0 == 0x80 { last -= 1 }
            endsWithWhitespace = TextScan.isWhitespace(Self.scalar(in: bytes, at: last))
        }
    }

    /// Whether a non-ASCII scalar may be one `TextScan.invisibles` (whichever the zero-width
    /// space rule) or `TextScan.bidiProblem` reports.
    private static func mayBeSpecial(_ scalar: Unicode.Scalar) -> Bool {
        TextScan.isInvisible(scalar, allowZeroWidthSpace: false) || TextScan.bidiKind(scalar) != nil
    }

    /// The scalar whose first byte is at `index` (the bytes are valid UTF-8).
    private static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Unicode.Scalar {
        let lead = bytes[index]
        if lead < 0x80 { return Unicode.Scalar(lead) }
        // The lead byte's payload bits, then six bits per continuation byte.
        var value = UInt32(lead) & (lead >= 0xF0 ? 0x07 : lead >= 0xE0 ? 0x0F : 0x1F)
        var next = index + 1
        while next < bytes.count, bytes[next] & 0xC0 == 0x80 {
            value = value << 6 | UInt32(bytes[next] & 0x3F)
            next += 1
        }
        return Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    /// Whether the text holds a digit of any script (then `TextScan.numbers` reads it).
    var hasDigit: Bool { hasASCIIDigit || hasOtherDigit }
}
