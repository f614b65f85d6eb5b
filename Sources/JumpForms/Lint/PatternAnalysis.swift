/// Finds the shapes of regular expression that backtrack exponentially on some inputs:
///
/// - a repeated group whose body can itself repeat, however deep: `(a+)+`, `(\w*)*`,
///   `(a{1,9})+`, `((a+))+`, `((a+)|b)+`;
/// - a repeated group with alternatives that can match the same text, alone or a few in a row:
///   `(a|a)*`, `(\w|\d)+` (a digit is a word character), `(a|aa)+` (`aa` is `a` twice),
///   `(a|b|ab)*` (`ab` is `a` then `b`).
///
/// The second check is exact for alternatives made of single characters, character classes and
/// fixed counts (`\d{3}`): it decides, with the Sardinas-Patterson test, whether some text splits
/// into alternatives in two ways. Alternatives it cannot read that way (with `?`, `*` or an
/// unknown class such as `\p{L}`) are left out of it, so it never warns without a reason.
/// Possessive quantifiers (`a++`) and atomic groups (`(?>...)`) do not backtrack and are not
/// counted.
public enum PatternAnalysis {
    public struct Risk: Sendable, Hashable, CustomStringConvertible {
        /// Scalar offset of the group's opening parenthesis.
        public var offset: Int
        public var group: String
        public var reason: String
        /// How to rewrite the pattern.
        public var hint: String

        public var description: String { "the repeated group '\(group)' \(reason)" }
    }

    static let nestedQuantifierHint = "avoid a quantifier inside a repeated group; match each character once"
    static let overlappingAlternativesHint =
        "make the alternatives of a repeated group exclusive: none may match text that another one, or a run of the others, also matches"

    /// The first risky group, innermost first.
    public static func backtrackingRisk(in pattern: String) -> Risk? {
        var parser = Parser(Array(pattern.unicodeScalars))
        while parser.i < parser.s.count {
            if let risk = firstRisk(in: parser.alternatives(), parser.s) { return risk }
            parser.i += 1  // an unbalanced `)`
        }
        return nil
    }

    // MARK: - Syntax tree

    /// A parsed group: where it starts and ends in the pattern, and its alternatives.
    struct Group {
        var start: Int
        var end: Int
        var alternatives: [[Item]]
        /// Where each alternative is written.
        var spans: [Range<Int>]
    }

    indirect enum Node {
        /// One character from a set (nil: a set this analysis does not understand, e.g. `\p{L}`).
        case character(CharacterClass?)
        case group(Group)
        /// Anchors, lookarounds, flag changes: match no text.
        case zeroWidth
        /// Matches text this analysis does not follow (backreferences, atomic groups, `\X`).
        case opaque
    }

    struct Item {
        var node: Node
        var minimum: Int
        /// nil: unbounded.
        var maximum: Int?
        var possessive = false

        /// Whether the item can match a varying number of times, more than once.
        var repeats: Bool {
            guard !possessive else { return false }
            guard let maximum else { return true }
            return maximum > 1 && maximum > minimum
        }
    }

    // MARK: - Checks

    private static func firstRisk(in alternatives: [[Item]], _ s: [Unicode.Scalar]) -> Risk? {
        for item in alternatives.joined() {
            guard case .group(let group) = item.node else { continue }
            if let risk = firstRisk(in: group.alternatives, s) { return risk }
            guard item.repeats else { continue }
            let text = String(String.UnicodeScalarView(s[group.start...min(group.end, s.count - 1)]))
            if containsRepetition(group.alternatives) {
                return Risk(
                    offset: group.start, group: text, reason: "contains a quantifier of its own",
                    hint: nestedQuantifierHint)
            }
            if let (first, second) = overlappingAlternatives(group, s) {
                let reason =
                    first == second
                    ? "offers the same alternative twice"
                    : "has alternatives that can match the same text ('\(first)' and '\(second)')"
                return Risk(offset: group.start, group: text, reason: reason, hint: overlappingAlternativesHint)
            }
        }
        return nil
    }

    /// Whether anything inside repeats, through groups of any depth.
    private static func containsRepetition(_ alternatives: [[Item]]) -> Bool {
        alternatives.joined().contains { item in
            if item.repeats { return true }
            if case .group(let group) = item.node { return containsRepetition(group.alternatives) }
            return false
        }
    }

    /// The longest fixed sequence (in characters) the alternative check reads, and how many
    /// sequences one group may expand to: beyond, the group is left out.
    static let sequenceLimit = 32

    /// The character sequences an item list matches, when it matches fixed-length text made of
    /// known characters only; nil otherwise.
    private static func sequences(_ items: [Item]) -> [[CharacterClass]]? {
        var result: [[CharacterClass]] = [[]]
        for item in items {
            guard item.maximum == item.minimum, !item.possessive else { return nil }
            let once: [[CharacterClass]]
            switch item.node {
            case .character(let set?):
                once = [[set]]
            case .group(let group):
                var expanded: [[CharacterClass]] = []
                for alternative in group.alternatives {
                    guard let paths = sequences(alternative) else { return nil }
                    expanded += paths
                }
                once = expanded
            default:
                return nil
            }
            guard item.minimum <= sequenceLimit else { return nil }
            for _ in 0..<item.minimum {
                result = result.flatMap { prefix in once.map { prefix + $0 } }
                guard result.count <= sequenceLimit, result.allSatisfy({ $0.count <= sequenceLimit }) else { return nil }
            }
        }
        return result
    }

    /// Two alternatives of a repeated group (their source text) from which some text can be
    /// matched in two ways, or nil. Sardinas-Patterson over sequences of character sets: a
    /// position of a text is covered by one set of each parse, so two sets that intersect can
    /// match the same character.
    private static func overlappingAlternatives(_ group: Group, _ s: [Unicode.Scalar]) -> (String, String)? {
        var words: [(sequence: [CharacterClass], alternative: Int)] = []
        for (index, alternative) in group.alternatives.enumerated() {
            guard let paths = sequences(alternative) else { continue }
            words += paths.filter { !$0.isEmpty }.map { ($0, index) }
            if words.count > sequenceLimit { return nil }
        }
        guard words.count > 1 else { return nil }
        func compatible(_ a: ArraySlice<CharacterClass>, _ b: ArraySlice<CharacterClass>) -> Bool {
            zip(a, b).allSatisfy { $0.intersects($1) }
        }
        // A dangling suffix: word `word` from offset `offset` on.
        struct Suffix: Hashable { var word: Int; var offset: Int }
        var seen = Set<Suffix>()
        var pending: [(suffix: Suffix, origin: (Int, Int))] = []
        for i in words.indices {
            for j in words.indices where i != j && words[i].sequence.count <= words[j].sequence.count {
                let a = words[i].sequence[...], b = words[j].sequence[...]
                guard compatible(a, b) else { continue }
                if a.count == b.count { return (alternativeText(group, words[i].alternative, s), alternativeText(group, words[j].alternative, s)) }
                let suffix = Suffix(word: j, offset: a.count)
                if seen.insert(suffix).inserted { pending.append((suffix, (i, j))) }
            }
        }
        while let (suffix, origin) = pending.popLast() {
            let dangling = words[suffix.word].sequence[suffix.offset...]
            for (k, word) in words.enumerated() {
                let c = word.sequence[...]
                guard compatible(c, dangling) else { continue }
                if c.count == dangling.count {
                    return (alternativeText(group, words[origin.0].alternative, s), alternativeText(group, words[origin.1].alternative, s))
                }
                let next =
                    c.count < dangling.count
                    ? Suffix(word: suffix.word, offset: suffix.offset + c.count)
                    : Suffix(word: k, offset: dangling.count)
                if seen.insert(next).inserted { pending.append((next, origin)) }
            }
        }
        return nil
    }

    /// The source text of a group's alternative.
    private static func alternativeText(_ group: Group, _ index: Int, _ s: [Unicode.Scalar]) -> String {
        String(String.UnicodeScalarView(s[group.spans[index]]))
    }

    // MARK: - Parser

    /// Reads the pattern into items; never fails (the pattern compiled already, and anything
    /// unexpected becomes an opaque item).
    struct Parser {
        let s: [Unicode.Scalar]
        var i = 0

        init(_ s: [Unicode.Scalar]) {
            self.s = s
        }

        /// Alternatives up to the `)` that closes the current group (not consumed) or the end.
        mutating func alternatives() -> [[Item]] {
            alternativesWithSpans().alternatives
        }

        /// The alternatives and where each is written.
        mutating func alternativesWithSpans() -> (alternatives: [[Item]], spans: [Range<Int>]) {
            var result: [[Item]] = [[]]
            var spans: [Range<Int>] = []
            var start = i
            while i < s.count, s[i] != ")" {
                if s[i] == "|" {
                    result.append([])
                    spans.append(start..<i)
                    i += 1
                    start = i
                    continue
                }
                guard let node = atom() else { continue }
                var item = Item(node: node, minimum: 1, maximum: 1)
                quantify(&item)
                result[result.count - 1].append(item)
            }
            spans.append(start..<i)
            return (result, spans)
        }

        /// One atom (nil for text that matches nothing, such as a comment).
        mutating func atom() -> Node? {
            let c = s[i]
            switch c {
            case "(":
                return group()
            case "[":
                return .character(bracket())
            case "\\":
                return escape()
            case "^", "$":
                i += 1
                return .zeroWidth
            case ".":
                i += 1
                return .character(.anyButNewline)
            default:
                i += 1
                return .character(.scalar(c))
            }
        }

        /// Groups open around the current place; deeper ones are skipped as opaque, so that
        /// the recursion stays shallow whatever the pattern.
        var depth = 0
        static let maximumDepth = 64

        mutating func group() -> Node? {
            let start = i
            guard depth < Self.maximumDepth else {
                skipGroup()
                return .opaque
            }
            depth += 1
            defer { depth -= 1 }
            i += 1
            var kind: Node? = nil  // nil: a group whose text counts
            if i < s.count, s[i] == "?" {
                i += 1
                let next = i < s.count ? s[i] : ")"
                switch next {
                case "#":
                    while i < s.count, s[i] != ")" { i += 1 }
                    i += 1
                    return nil
                case "=", "!":
                    kind = .zeroWidth
                case ">":
                    kind = .opaque
                case "<" where i + 1 < s.count && (s[i + 1] == "=" || s[i + 1] == "!"):
                    kind = .zeroWidth
                default:
                    // (?:  (?<name>  (?'name'  (?P<name>  (?i:  (?i)
                    while i < s.count, s[i] != ":" && s[i] != ">" && s[i] != "'" && s[i] != ")" { i += 1 }
                    if i < s.count, s[i] == "'" {
                        i += 1
                        while i < s.count, s[i] != "'" { i += 1 }
                    }
                    if i < s.count, s[i] == ")" {
                        i += 1
                        return .zeroWidth  // a flag change
                    }
                }
                if kind != nil {
                    while i < s.count, s[i] == "<" || s[i] == "=" || s[i] == "!" || s[i] == ">" { i += 1 }
                } else {
                    i += 1
                }
            }
            let body = alternativesWithSpans()
            let end = min(i, s.count - 1)
            if i < s.count { i += 1 }  // the `)`
            return kind ?? .group(Group(start: start, end: end, alternatives: body.alternatives, spans: body.spans))
        }

        /// Moves past the group that opens at `i` (escapes and bracket expressions respected).
        mutating func skipGroup() {
            var open = 0
            var inBracket = false
            while i < s.count {
                switch s[i] {
                case "\\": i += 1
                case "[": inBracket = true
                case "]": inBracket = false
                case "(" where !inBracket: open += 1
                case ")" where !inBracket:
                    open -= 1
                    if open == 0 {
                        i += 1
                        return
                    }
                default: break
                }
                i += 1
            }
        }

        mutating func escape() -> Node {
            i += 1
            guard i < s.count else { return .character(.scalar("\\")) }
            let c = s[i]
            i += 1
            if let set = CharacterClass.shorthand(c) { return .character(set) }
            switch c {
            case "b", "B", "A", "z", "Z", "G", "y", "Y", "K":
                return .zeroWidth
            case "p", "P":
                skipBraces()
                return .character(nil)
            case "X", "R", "O", "C":
                return .opaque
            case "1"..."9", "k", "g":
                skipBraces()
                return .opaque
            case "Q":
                // \Q...\E: literal text; read as opaque (rare in form patterns).
                while i < s.count, !(s[i] == "\\" && i + 1 < s.count && s[i + 1] == "E") { i += 1 }
                i = min(s.count, i + 2)
                return .opaque
            default:
                if let scalar = literalEscape(c) { return .character(.scalar(scalar)) }
                return .character(nil)
            }
        }

        /// The scalar of `\n`, `\t`, `\x41`, `\u{1F600}`, `\.` ...; nil if not understood.
        mutating func literalEscape(_ c: Unicode.Scalar) -> Unicode.Scalar? {
            switch c {
            case "n": return "\n"
            case "t": return "\t"
            case "r": return "\r"
            case "f": return "\u{C}"
            case "e": return "\u{1B}"
            case "a": return "\u{7}"
            case "0": return "\0"
            case "x", "u", "U", "o":
                var digits = ""
                let radix = c == "o" ? 8 : 16
                if i < s.count, s[i] == "{" {
                    i += 1
                    while i < s.count, s[i] != "}" { digits.unicodeScalars.append(s[i]); i += 1 }
                    i += 1
                } else {
                    let count = c == "x" ? 2 : c == "u" ? 4 : c == "U" ? 8 : 0
                    while digits.count < count, i < s.count, s[i].properties.isASCIIHexDigit {
                        digits.unicodeScalars.append(s[i])
                        i += 1
                    }
                }
                return UInt32(digits, radix: radix).flatMap(Unicode.Scalar.init)
            default:
                return c.properties.isAlphabetic || c.properties.numericType != nil ? nil : c
            }
        }

        mutating func skipBraces() {
            if i < s.count, s[i] == "{" || s[i] == "<" {
                let close: Unicode.Scalar = s[i] == "{" ? "}" : ">"
                while i < s.count, s[i] != close { i += 1 }
                i += 1
            } else if i < s.count {
                i += 1  // \pL, \1
            }
        }

        /// A bracket expression; nil when it holds what this analysis does not read (properties,
        /// POSIX classes, nested sets, set operations).
        mutating func bracket() -> CharacterClass? {
            i += 1
            var negated = false
            if i < s.count, s[i] == "^" {
                negated = true
                i += 1
            }
            var set = CharacterClass.empty
            var understood = true
            var first = true
            while i < s.count, s[i] != "]" || first {
                first = false
                var low: Unicode.Scalar
                if s[i] == "[" {
                    understood = false
                    // Skip the nested set or POSIX class.
                    var depth = 0
                    repeat {
                        if s[i] == "\\" { i += 1 } else if s[i] == "[" { depth += 1 } else if s[i] == "]" { depth -= 1 }
                        i += 1
                    } while i < s.count && depth > 0
                    continue
                }
                if (s[i] == "&" || s[i] == "-" || s[i] == "~"), i + 1 < s.count, s[i + 1] == s[i], s[i] != "-" || i + 2 < s.count && s[i + 2] != "]" {
                    understood = false
                    i += 2
                    continue
                }
                if s[i] == "\\" {
                    i += 1
                    guard i < s.count else { break }
                    let c = s[i]
                    i += 1
                    if let shorthand = CharacterClass.shorthand(c) {
                        set.formUnion(shorthand)
                        continue
                    }
                    if c == "p" || c == "P" {
                        skipBraces()
                        understood = false
                        continue
                    }
                    guard let scalar = c == "b" ? "\u{8}" : literalEscape(c) else {
                        understood = false
                        continue
                    }
                    low = scalar
                } else {
                    low = s[i]
                    i += 1
                }
                var high = low
                if i + 1 < s.count, s[i] == "-", s[i + 1] != "]" {
                    i += 1
                    if s[i] == "\\" {
                        i += 1
                        guard i < s.count else { break }
                        let c = s[i]
                        i += 1
                        guard let scalar = literalEscape(c) else { understood = false; continue }
                        high = scalar
                    } else {
                        high = s[i]
                        i += 1
                    }
                }
                if low.value <= high.value { set.formUnion(.range(low.value...high.value)) }
            }
            if i < s.count { i += 1 }  // the `]`
            guard understood else { return nil }
            return negated ? set.inverted : set
        }

        /// Reads a quantifier after an item, if there is one.
        mutating func quantify(_ item: inout Item) {
            guard i < s.count else { return }
            switch s[i] {
            case "*": (item.minimum, item.maximum) = (0, nil); i += 1
            case "+": (item.minimum, item.maximum) = (1, nil); i += 1
            case "?": (item.minimum, item.maximum) = (0, 1); i += 1
            case "{":
                var j = i + 1
                var text = ""
                while j < s.count, s[j] != "}" { text.unicodeScalars.append(s[j]); j += 1 }
                guard j < s.count, !text.isEmpty else { return }
                let parts = text.split(separator: ",", omittingEmptySubsequences: false)
                guard parts.count <= 2, parts.allSatisfy({ $0.isEmpty || Int($0) != nil }), !parts[0].isEmpty || parts.count == 2 else { return }
                let low = Int(parts[0]) ?? 0
                let high: Int? = parts.count == 1 ? low : parts[1].isEmpty ? nil : Int(parts[1])
                (item.minimum, item.maximum) = (low, high)
                i = j + 1
            default:
                return
            }
            if i < s.count, s[i] == "?" {
                i += 1  // lazy: still backtracks
            } else if i < s.count, s[i] == "+" {
                item.possessive = true
                i += 1
            }
        }
    }
}

extension PatternAnalysis {
    /// A set of characters: exact over ASCII; beyond it, ranges of scalars and broad kinds
    /// (letters, digits, spaces, the rest) of the shorthand classes.
    struct CharacterClass: Sendable, Hashable {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var ranges: [ClosedRange<UInt32>] = []
        var kinds: UInt8 = 0

        static let letter: UInt8 = 1, digit: UInt8 = 2, space: UInt8 = 4, other: UInt8 = 8
        static let allKinds: UInt8 = 15

        static let empty = CharacterClass()

        static func scalar(_ scalar: Unicode.Scalar) -> CharacterClass { range(scalar.value...scalar.value) }

        static func range(_ range: ClosedRange<UInt32>) -> CharacterClass {
            var set = CharacterClass()
            if range.lowerBound < 128 {
                for value in range.lowerBound...min(range.upperBound, 127) { set.insertASCII(value) }
            }
            if range.upperBound >= 128 { set.ranges = [max(range.lowerBound, 128)...range.upperBound] }
            return set
        }

        static func ascii(_ predicate: (UInt32) -> Bool, kinds: UInt8) -> CharacterClass {
            var set = CharacterClass()
            for value in UInt32(0)..<128 where predicate(value) { set.insertASCII(value) }
            set.kinds = kinds
            return set
        }

        static func isWord(_ v: UInt32) -> Bool { isDigit(v) || (65...90).contains(v) || (97...122).contains(v) || v == 95 }
        static func isDigit(_ v: UInt32) -> Bool { (48...57).contains(v) }
        static func isSpace(_ v: UInt32) -> Bool { v == 32 || (9...13).contains(v) }
        static func isNewline(_ v: UInt32) -> Bool { (10...13).contains(v) }

        static let anyButNewline = ascii({ !isNewline($0) }, kinds: allKinds)

        /// `\d \w \s \h \v \N` and their negations.
        static func shorthand(_ c: Unicode.Scalar) -> CharacterClass? {
            switch c {
            case "d": ascii(isDigit, kinds: digit)
            case "D": ascii({ !isDigit($0) }, kinds: letter | space | other)
            case "w": ascii(isWord, kinds: letter | digit)
            case "W": ascii({ !isWord($0) }, kinds: space | other)
            case "s": ascii(isSpace, kinds: space)
            case "S": ascii({ !isSpace($0) }, kinds: letter | digit | other)
            case "h": ascii({ $0 == 32 || $0 == 9 }, kinds: space)
            case "H": ascii({ $0 != 32 && $0 != 9 }, kinds: allKinds)
            case "v": ascii(isNewline, kinds: space)
            case "V": ascii({ !isNewline($0) }, kinds: allKinds)
            case "N": anyButNewline
            default: nil
            }
        }

        mutating func insertASCII(_ value: UInt32) {
            if value < 64 { low |= 1 << UInt64(value) } else { high |= 1 << UInt64(value - 64) }
        }

        mutating func formUnion(_ other: CharacterClass) {
            low |= other.low
            high |= other.high
            ranges += other.ranges
            kinds |= other.kinds
        }

        /// The complement (beyond ASCII: every kind, which is what a negated class can match).
        var inverted: CharacterClass {
            CharacterClass(low: ~low, high: ~high, ranges: [], kinds: Self.allKinds)
        }

        static func kind(of value: UInt32) -> UInt8 {
            guard let scalar = Unicode.Scalar(value) else { return other }
            let properties = scalar.properties
            if properties.isWhitespace { return space }
            if properties.numericType == .decimal { return digit }
            if properties.isAlphabetic || properties.generalCategory == .nonspacingMark
                || properties.generalCategory == .spacingMark || properties.generalCategory == .connectorPunctuation
            {
                return letter
            }
            return other
        }

        /// Whether some scalar of `range` is of one of `kinds`.
        static func range(_ range: ClosedRange<UInt32>, meets kinds: UInt8) -> Bool {
            guard kinds != 0 else { return false }
            guard range.count <= 512 else { return true }
            return range.contains { kinds & kind(of: $0) != 0 }
        }

        func intersects(_ other: CharacterClass) -> Bool {
            if low & other.low != 0 || high & other.high != 0 || kinds & other.kinds != 0 { return true }
            for a in ranges {
                if other.ranges.contains(where: { $0.overlaps(a) }) || Self.range(a, meets: other.kinds) { return true }
            }
            return other.ranges.contains { Self.range($0, meets: kinds) }
        }
    }
}
