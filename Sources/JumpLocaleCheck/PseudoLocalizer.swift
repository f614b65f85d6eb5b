import JumpForms

/// Pseudo-locales: machine-made "translations" that show, before any translator is involved,
/// text that is not localizable (it stays plain), layouts that break on longer text, and
/// right-to-left problems. ICU syntax, arguments, `#`, markup tags and URLs are kept intact.
///
/// - `en-XA` (accented): `[Ŕéqûîŕéð one two]`: every Latin letter accented, about 35% longer
///   (padding words), in brackets, so cut-off and concatenated texts stand out.
/// - `ar-XB` (bidi): every word forced right-to-left (RIGHT-TO-LEFT OVERRIDE ... POP
///   DIRECTIONAL FORMATTING, between RIGHT-TO-LEFT MARKs), so left-to-right layouts and
///   unmarked arguments show up; plurals get the Arabic categories.
public struct PseudoLocalizer: Sendable {
    public enum Style: String, Sendable, CaseIterable {
        case accented = "en-XA"
        case bidi = "ar-XB"

        public var tag: LocaleTag { LocaleTag(rawValue)! }
    }

    public var style: Style
    /// Extra length of `en-XA`, as a fraction of the text's length.
    public var expansion: Double = 0.35

    public init(style: Style) {
        self.style = style
    }

    /// The pseudo-localized message (a message that does not parse is returned unchanged).
    public func transform(_ source: String) -> String {
        guard let pattern = try? MessagePattern(parsing: source) else { return source }
        let rewriter = MessageRewriter(rules: PluralRules.cardinal(for: style.tag.identifier))
        var nodes = rewriter.nodes(pattern.nodes, text: transformText)
        if style == .accented {
            let length = Self.literalLength(pattern.nodes)
            let endsWithSpace = Self.lastText(pattern.nodes)?.unicodeScalars.last?.properties.isWhitespace ?? false
            let padding = Self.padding(Int((Double(length) * expansion).rounded(.up)))
            nodes.insert(.text("["), at: 0)
            nodes.append(.text((padding.isEmpty || endsWithSpace ? "" : " ") + padding + "]"))
        }
        return MessagePrinter().source(Self.merged(nodes))
    }

    /// The pseudo-locale's file content for the reference's messages (and jump-forms' own).
    public func messages(_ catalogs: [LocaleCatalog]) -> [(key: String, text: String)] {
        var seen = Set<String>()
        var result: [(String, String)] = []
        for catalog in catalogs {
            for message in catalog.allMessages where seen.insert(message.key).inserted {
                result.append((message.key, transform(message.text)))
            }
        }
        return result
    }

    /// Rewrites the words of a text, leaving tags, URLs and numbers alone.
    func transformText(_ text: String) -> String {
        var out = ""
        for segment in Self.segments(text) {
            switch segment {
            case .kept(let kept): out += kept
            case .words(let words): out += style == .accented ? Self.accent(words) : Self.forceRightToLeft(words)
            }
        }
        return out
    }

    enum Segment {
        case kept(String)
        case words(String)
    }

    /// Text split into what is rewritten and what is not (tags, URLs).
    static func segments(_ text: String) -> [Segment] {
        let scalars = Array(text.unicodeScalars)
        var keep = Array(repeating: false, count: scalars.count)
        for (_, range) in TextScan.urls(in: text) { for index in range { keep[index] = true } }
        // E-mail addresses: the word around an `@`.
        for (index, scalar) in scalars.enumerated() where scalar == "@" {
            var start = index
            while start > 0, !scalars[start - 1].properties.isWhitespace { start -= 1 }
            var end = index
            while end + 1 < scalars.count, !scalars[end + 1].properties.isWhitespace { end += 1 }
            while end > index, ".,;:!?)".unicodeScalars.contains(scalars[end]) { end -= 1 }
            for position in start...end { keep[position] = true }
        }
        var index = 0
        while index < scalars.count {
            if scalars[index] == "<", index + 1 < scalars.count, TextScan.isASCIILetter(scalars[index + 1]) || scalars[index + 1] == "/",
                let close = scalars[index...].firstIndex(of: ">")
            {
                for position in index...close { keep[position] = true }
                index = close + 1
            } else {
                index += 1
            }
        }
        var segments: [Segment] = []
        var current = String.UnicodeScalarView()
        var currentKept = false
        for (position, scalar) in scalars.enumerated() {
            if keep[position] != currentKept, !current.isEmpty {
                segments.append(currentKept ? .kept(String(current)) : .words(String(current)))
                current = String.UnicodeScalarView()
            }
            currentKept = keep[position]
            current.append(scalar)
        }
        if !current.isEmpty { segments.append(currentKept ? .kept(String(current)) : .words(String(current))) }
        return segments
    }

    static let accents: [Unicode.Scalar: String] = {
        let pairs: [(String, String)] = [
            ("a", "á"), ("b", "ƀ"), ("c", "ç"), ("d", "ð"), ("e", "é"), ("f", "ƒ"), ("g", "ĝ"), ("h", "ĥ"), ("i", "î"), ("j", "ĵ"),
            ("k", "ķ"), ("l", "ļ"), ("m", "ɱ"), ("n", "ñ"), ("o", "ö"), ("p", "þ"), ("q", "ǫ"), ("r", "ŕ"), ("s", "š"), ("t", "ţ"),
            ("u", "û"), ("v", "ṽ"), ("w", "ŵ"), ("x", "ẋ"), ("y", "ý"), ("z", "ž"),
            ("A", "Å"), ("B", "Ɓ"), ("C", "Ç"), ("D", "Ð"), ("E", "É"), ("F", "Ƒ"), ("G", "Ĝ"), ("H", "Ĥ"), ("I", "Î"), ("J", "Ĵ"),
            ("K", "Ķ"), ("L", "Ļ"), ("M", "Ṁ"), ("N", "Ñ"), ("O", "Ö"), ("P", "Þ"), ("Q", "Ǫ"), ("R", "Ŕ"), ("S", "Š"), ("T", "Ţ"),
            ("U", "Û"), ("V", "Ṽ"), ("W", "Ŵ"), ("X", "Ẋ"), ("Y", "Ý"), ("Z", "Ž")
        ]
        return Dictionary(uniqueKeysWithValues: pairs.map { (Unicode.Scalar($0.0)!, $0.1) })
    }()

    static func accent(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if let accented = accents[scalar] { out += accented } else { out.unicodeScalars.append(scalar) }
        }
        return out
    }

    /// Each run of letters between RLM RLO ... PDF RLM.
    static func forceRightToLeft(_ text: String) -> String {
        var out = String.UnicodeScalarView()
        var word = String.UnicodeScalarView()
        func flush() {
            guard !word.isEmpty else { return }
            out.append(contentsOf: "\u{200F}\u{202E}".unicodeScalars)
            out.append(contentsOf: word)
            out.append(contentsOf: "\u{202C}\u{200F}".unicodeScalars)
            word = String.UnicodeScalarView()
        }
        for scalar in text.unicodeScalars {
            if scalar.properties.isAlphabetic {
                word.append(scalar)
            } else {
                flush()
                out.append(scalar)
            }
        }
        flush()
        return String(out)
    }

    static let paddingWords = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]

    /// Words adding about `length` characters.
    static func padding(_ length: Int) -> String {
        guard length > 0 else { return "" }
        var words: [String] = []
        var count = 0
        var index = 0
        while count < length {
            let word = paddingWords[index % paddingWords.count]
            words.append(word)
            count += word.count + (words.count > 1 ? 1 : 0)
            index += 1
        }
        return words.joined(separator: " ")
    }

    /// The length of the text a message shows: its text, with each plural or select counted
    /// as its longest case.
    static func literalLength(_ nodes: [MessageNode]) -> Int {
        var total = 0
        for node in nodes {
            switch node {
            case .text(let text): total += text.unicodeScalars.count
            case .plural(let plural): total += plural.cases.map { literalLength($0.message) }.max() ?? 0
            case .select(let select): total += select.cases.map { literalLength($0.message) }.max() ?? 0
            case .argument, .number, .pound: total += 4
            }
        }
        return total
    }

    static func lastText(_ nodes: [MessageNode]) -> String? {
        if case .text(let text)? = nodes.last { return text }
        return nil
    }

    /// Adjacent text nodes joined.
    static func merged(_ nodes: [MessageNode]) -> [MessageNode] {
        var result: [MessageNode] = []
        for node in nodes {
            if case .text(let text) = node, case .text(let previous)? = result.last {
                result[result.count - 1] = .text(previous + text)
            } else if case .text(let text) = node, text.isEmpty {
                continue
            } else {
                result.append(node)
            }
        }
        return result
    }
}

/// Rewrites the texts of ICU messages for another locale and keeps the rest: arguments, `#`,
/// `select` cases, and `plural` cases made those of the locale's plural rules (a category the
/// locale needs is copied from `other`, one it never uses is dropped; ordinals are kept).
public struct MessageRewriter: Sendable {
    public var rules: PluralRules

    public init(rules: PluralRules) {
        self.rules = rules
    }

    /// `source` with each text replaced by `text(it)`; nil when `source` does not parse.
    public func rewrite(_ source: String, text: (String) -> String) -> String? {
        guard let pattern = try? MessagePattern(parsing: source) else { return nil }
        return MessagePrinter().source(PseudoLocalizer.merged(nodes(pattern.nodes, text: text)))
    }

    func nodes(_ nodes: [MessageNode], text: (String) -> String) -> [MessageNode] {
        nodes.map { rewrite($0, text: text) }
    }

    private func rewrite(_ node: MessageNode, text: (String) -> String) -> MessageNode {
        switch node {
        case .text(let literal):
            return .text(text(literal))
        case .plural(var plural):
            var cases: [MessagePluralCase] = []
            let other = plural.cases.first { $0.key == .category(.other) }
            for item in plural.cases {
                if case .category(let category) = item.key, !plural.isOrdinal, !rules.categories.contains(category) { continue }
                cases.append(MessagePluralCase(key: item.key, keyOffset: item.keyOffset, message: nodes(item.message, text: text)))
            }
            if !plural.isOrdinal, let other {
                // The locale's categories that the message lacks, from `other`.
                for category in rules.categories where !plural.cases.contains(where: { $0.key == .category(category) }) {
                    let index = cases.firstIndex { if case .category(let existing) = $0.key { existing > category } else { false } } ?? cases.count
                    cases.insert(MessagePluralCase(key: .category(category), keyOffset: 0, message: nodes(other.message, text: text)), at: index)
                }
            }
            plural.cases = cases
            return .plural(plural)
        case .select(var select):
            select.cases = select.cases.map { MessageSelectCase(key: $0.key, keyOffset: $0.keyOffset, message: nodes($0.message, text: text)) }
            return .select(select)
        case .argument, .number, .pound:
            return node
        }
    }
}
