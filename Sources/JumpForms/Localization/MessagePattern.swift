// ICU MessageFormat ("MessageFormat 1", as in ICU4J) patterns: the syntax tree and its parser.
//
// The parser reads the message once, scalar by scalar, without regular expressions or
// Foundation. Offsets everywhere count Unicode scalars from the start of the source.
//
// Supported syntax:
//
//     message   = (text | '#' | argument)*                  '#' is special directly in plural cases
//     argument  = '{' name '}'
//               | '{' name ',' ('number'|'date'|'time') [',' style] '}'
//               | '{' name ',' ('plural'|'selectordinal') ',' ['offset:' digits] pcase+ '}'
//               | '{' name ',' 'select' ',' scase+ '}'
//     pcase     = ('=' number | 'zero'|'one'|'two'|'few'|'many'|'other') '{' message '}'
//     scase     = identifier '{' message '}'
//     name      = identifier | number without leading zeros
//
// Apostrophes follow ICU's default mode, DOUBLE_OPTIONAL: `''` is one apostrophe; a single
// `'` starts quoted literal text only when the next character is `{` or `}` (or `#` directly
// inside a plural or selectordinal case), and the quote runs to the next lone `'` or to the
// end of the message; any other `'` is a literal apostrophe, so `l'adresse` needs no escaping.
//
// `|` is not special (there are no `choice` arguments), so `'|'` is three characters of text.
// Argument types and the `integer` style match case-insensitively, as in ICU4J; case keys and
// `offset:` are case-sensitive. Whitespace (Pattern_White_Space) may surround every token
// inside braces, except between `offset` and `:` and between `=` and its number.
//
// Differences from ICU4J, all on the strict side: a `}` outside any argument is an error
// (ICU4J keeps it as text); plural keys must be CLDR categories or `=N` with N an optionally
// negative decimal (`=0`, `=-1`, `=1.5`); `offset:` takes a non-negative integer; duplicate
// case keys (`=1` and `=1.0` count as the same), `choice` and custom argument types, empty
// styles and nesting deeper than 64 plural/select levels are errors. As in ICU4J, a `#` inside
// a `select` nested in a plural is literal text: only the cases of a plural or selectordinal
// replace `#`.
//
// Every argument node records two offsets: `offset`, its opening `{`, and `nameOffset`.

/// A syntax error in an ICU message pattern.
public struct MessageSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, as an English sentence without a final period.
    public var message: String
    /// Where: the offending character, in Unicode scalars from the start of the source.
    public var offset: Int
    /// A "did you mean" for a misspelt keyword (`othr`, `selct`).
    public var hint: String?

    public init(message: String, offset: Int, hint: String? = nil) {
        self.message = message
        self.offset = offset
        self.hint = hint
    }

    public var description: String { "\(message) (at offset \(offset))" }

    /// True when a `plural`, `selectordinal` or `select` argument lacks its `other` case (the
    /// parser's message for it ends with "has no 'other' case").
    public var isMissingOtherCase: Bool { message.hasSuffix("has no 'other' case") }
}

/// A piece of a parsed message.
public enum MessageNode: Sendable, Hashable {
    /// Literal text, with quotes and doubled apostrophes already resolved.
    case text(String)
    /// `{name}`, `{name, date[, style]}` or `{name, time[, style]}`.
    case argument(MessageSimpleArgument)
    /// `{name, number[, style]}`.
    case number(MessageNumberArgument)
    /// `{name, plural, ...}` or `{name, selectordinal, ...}`.
    case plural(MessagePluralArgument)
    /// `{name, select, ...}`.
    case select(MessageSelectArgument)
    /// `#` in a plural or selectordinal case: the number minus the offset, localized.
    case pound(offset: Int)
}

/// `{name}`, `{name, date[, style]}` or `{name, time[, style]}`.
public struct MessageSimpleArgument: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case simple, date, time
    }

    public var name: String
    public var kind: Kind
    /// The style text after the second comma, trimmed (`short`, `yyyy-MM-dd`, ...), if any.
    public var style: String?
    /// The offset of the argument's opening `{`.
    public var offset: Int
    /// The offset of the argument name.
    public var nameOffset: Int

    public init(name: String, kind: Kind, style: String? = nil, offset: Int, nameOffset: Int) {
        self.name = name
        self.kind = kind
        self.style = style
        self.offset = offset
        self.nameOffset = nameOffset
    }
}

/// The style of a `number` argument.
public enum MessageNumberStyle: Sendable, Hashable {
    /// `{n, number}`.
    case plain
    /// `{n, number, integer}`: rounded half-even to a whole number.
    case integer
    /// Any other style (`percent`, `currency`, `#,##0.00`, `::skeleton`, ...): kept verbatim
    /// (trimmed) and formatted as a plain number.
    case other(String)
}

/// `{name, number[, style]}`.
public struct MessageNumberArgument: Sendable, Hashable {
    public var name: String
    public var style: MessageNumberStyle
    /// The offset of the argument's opening `{`.
    public var offset: Int
    /// The offset of the argument name.
    public var nameOffset: Int

    public init(name: String, style: MessageNumberStyle, offset: Int, nameOffset: Int) {
        self.name = name
        self.style = style
        self.offset = offset
        self.nameOffset = nameOffset
    }
}

/// The key of a plural or selectordinal case.
public enum MessagePluralKey: Sendable, Hashable, CustomStringConvertible {
    /// `=N`: matches when the argument equals N (before the offset is subtracted). The
    /// associated text is the number as written, without the `=`.
    case exact(String)
    /// A CLDR plural category.
    case category(PluralCategory)

    /// The key as written: `=0`, `one`.
    public var description: String {
        switch self {
        case .exact(let number): "=" + number
        case .category(let category): category.rawValue
        }
    }
}

/// One `key {message}` case of a plural or selectordinal argument.
public struct MessagePluralCase: Sendable, Hashable {
    public var key: MessagePluralKey
    /// The offset of the key (of the `=` for exact matches).
    public var keyOffset: Int
    public var message: [MessageNode]

    public init(key: MessagePluralKey, keyOffset: Int, message: [MessageNode]) {
        self.key = key
        self.keyOffset = keyOffset
        self.message = message
    }
}

/// `{name, plural, ...}` or `{name, selectordinal, ...}`.
public struct MessagePluralArgument: Sendable, Hashable {
    public var name: String
    /// True for `selectordinal`.
    public var isOrdinal: Bool
    /// The `offset:` value; 0 when absent.
    public var pluralOffset: Int
    /// The cases in source order; exactly one has the key `other`.
    public var cases: [MessagePluralCase]
    /// The offset of the argument's opening `{`.
    public var offset: Int
    /// The offset of the argument name.
    public var nameOffset: Int

    public init(name: String, isOrdinal: Bool, pluralOffset: Int, cases: [MessagePluralCase], offset: Int, nameOffset: Int) {
        self.name = name
        self.isOrdinal = isOrdinal
        self.pluralOffset = pluralOffset
        self.cases = cases
        self.offset = offset
        self.nameOffset = nameOffset
    }
}

/// One `key {message}` case of a select argument.
public struct MessageSelectCase: Sendable, Hashable {
    public var key: String
    /// The offset of the key.
    public var keyOffset: Int
    public var message: [MessageNode]

    public init(key: String, keyOffset: Int, message: [MessageNode]) {
        self.key = key
        self.keyOffset = keyOffset
        self.message = message
    }
}

/// `{name, select, ...}`.
public struct MessageSelectArgument: Sendable, Hashable {
    public var name: String
    /// The cases in source order; exactly one has the key `other`.
    public var cases: [MessageSelectCase]
    /// The offset of the argument's opening `{`.
    public var offset: Int
    /// The offset of the argument name.
    public var nameOffset: Int

    public init(name: String, cases: [MessageSelectCase], offset: Int, nameOffset: Int) {
        self.name = name
        self.cases = cases
        self.offset = offset
        self.nameOffset = nameOffset
    }
}

/// One use of an argument in a message.
public struct MessageArgumentUse: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case simple, number, date, time, plural, select, selectordinal
    }

    public var name: String
    public var kind: Kind
    /// The offset of the argument's opening `{`.
    public var offset: Int
    /// The offset of the argument name.
    public var nameOffset: Int

    public init(name: String, kind: Kind, offset: Int, nameOffset: Int) {
        self.name = name
        self.kind = kind
        self.offset = offset
        self.nameOffset = nameOffset
    }
}

/// A plural, selectordinal or select argument with its case keys, for locale checks
/// (missing or unused plural categories, and so on).
public struct MessageSelectorUse: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case plural, select, selectordinal
    }

    /// One case key.
    public struct Key: Sendable, Hashable {
        /// The key as written: `one`, `=0`, `female`.
        public var text: String
        /// The offset of the key.
        public var offset: Int
        /// The CLDR category of a plural or selectordinal key; nil for `=N` and select keys.
        public var category: PluralCategory?

        public init(text: String, offset: Int, category: PluralCategory?) {
            self.text = text
            self.offset = offset
            self.category = category
        }

        /// True for `=N` keys.
        public var isExactMatch: Bool { text.unicodeScalars.first == "=" }
    }

    public var name: String
    public var kind: Kind
    /// The offset of the argument's opening `{`.
    public var offset: Int
    /// The offset of the argument name.
    public var nameOffset: Int
    /// The `offset:` value of a plural or selectordinal; 0 otherwise.
    public var pluralOffset: Int
    /// The keys in source order.
    public var keys: [Key]

    public init(name: String, kind: Kind, offset: Int, nameOffset: Int, pluralOffset: Int, keys: [Key]) {
        self.name = name
        self.kind = kind
        self.offset = offset
        self.nameOffset = nameOffset
        self.pluralOffset = pluralOffset
        self.keys = keys
    }

    /// Whether an `other` case exists (always true for a parsed pattern).
    public var hasOther: Bool { keys.contains { $0.text == "other" } }

    /// The CLDR categories the cases name, in source order.
    public var categories: [PluralCategory] { keys.compactMap(\.category) }
}

/// A parsed ICU MessageFormat pattern.
public struct MessagePattern: Sendable, Hashable {
    /// The deepest nesting of plural, selectordinal and select arguments the parser accepts.
    public static let maximumNestingDepth = 64

    /// The message as written.
    public let source: String
    /// The top-level message.
    public let nodes: [MessageNode]

    /// Parses `source`; throws the first syntax error.
    public init(parsing source: String) throws(MessageSyntaxError) {
        self.source = source
        // Most messages are plain text: without `{`, `}` and `'` nothing is special (`#` is
        // special only inside plural cases), so the message is one text node, as the parser
        // would make it. Checking the UTF-8 bytes is much cheaper than parsing.
        if !source.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") || $0 == UInt8(ascii: "'") }) {
            self.nodes = source.isEmpty ? [] : [.text(source)]
            return
        }
        var parser = MessageParser(source)
        self.nodes = try parser.parseMessage(depth: 0, inPlural: false, open: nil)
    }

    /// Every argument the message uses, one entry per name, in order of first use: the kind
    /// and offsets are those of the first use (`{n, plural, one {# item} other {{n, number}
    /// items}}` gives `n` once, as plural). `argumentUses` lists every occurrence.
    public var arguments: [MessageArgumentUse] {
        var seen: Set<String> = []
        return argumentUses.filter { seen.insert($0.name).inserted }
    }

    /// Every occurrence of an argument, in source order (an outer argument before those
    /// nested in its cases).
    public var argumentUses: [MessageArgumentUse] {
        var uses: [MessageArgumentUse] = []
        walk { node in
            switch node {
            case .argument(let argument):
                let kind: MessageArgumentUse.Kind = switch argument.kind {
                case .simple: .simple
                case .date: .date
                case .time: .time
                }
                uses.append(MessageArgumentUse(name: argument.name, kind: kind, offset: argument.offset, nameOffset: argument.nameOffset))
            case .number(let argument):
                uses.append(MessageArgumentUse(name: argument.name, kind: .number, offset: argument.offset, nameOffset: argument.nameOffset))
            case .plural(let argument):
                uses.append(MessageArgumentUse(name: argument.name, kind: argument.isOrdinal ? .selectordinal : .plural,
                                               offset: argument.offset, nameOffset: argument.nameOffset))
            case .select(let argument):
                uses.append(MessageArgumentUse(name: argument.name, kind: .select, offset: argument.offset, nameOffset: argument.nameOffset))
            case .text, .pound:
                break
            }
        }
        return uses
    }

    /// The distinct argument names, in order of first use.
    public var argumentNames: [String] { arguments.map(\.name) }

    /// Every plural, selectordinal and select argument, in source order (an outer argument
    /// before the ones nested in its cases).
    public var selectors: [MessageSelectorUse] {
        var uses: [MessageSelectorUse] = []
        walk { node in
            switch node {
            case .plural(let argument):
                let keys = argument.cases.map { item -> MessageSelectorUse.Key in
                    let category: PluralCategory? = if case .category(let category) = item.key { category } else { nil }
                    return .init(text: item.key.description, offset: item.keyOffset, category: category)
                }
                uses.append(MessageSelectorUse(name: argument.name, kind: argument.isOrdinal ? .selectordinal : .plural,
                                               offset: argument.offset, nameOffset: argument.nameOffset, pluralOffset: argument.pluralOffset, keys: keys))
            case .select(let argument):
                let keys = argument.cases.map { MessageSelectorUse.Key(text: $0.key, offset: $0.keyOffset, category: nil) }
                uses.append(MessageSelectorUse(name: argument.name, kind: .select, offset: argument.offset, nameOffset: argument.nameOffset, pluralOffset: 0, keys: keys))
            default:
                break
            }
        }
        return uses
    }

    /// Calls `visit` for every node, depth first, in source order.
    public func walk(_ visit: (MessageNode) -> Void) {
        // Explicit stack: nesting is bounded by the parser, but the walk needs no recursion at all.
        var stack: [ArraySlice<MessageNode>] = [nodes[...]]
        while !stack.isEmpty {
            guard let node = stack[stack.count - 1].popFirst() else {
                stack.removeLast()
                continue
            }
            visit(node)
            switch node {
            case .plural(let argument):
                for item in argument.cases.reversed() { stack.append(item.message[...]) }
            case .select(let argument):
                for item in argument.cases.reversed() { stack.append(item.message[...]) }
            default:
                break
            }
        }
    }

    // The tree is a function of the source, so the source alone decides equality.
    public static func == (lhs: MessagePattern, rhs: MessagePattern) -> Bool { lhs.source == rhs.source }
    public func hash(into hasher: inout Hasher) { hasher.combine(source) }
}

// MARK: - Parser

struct MessageParser {
    private let scalars: [Unicode.Scalar]
    private var index = 0
    /// The apostrophe of a quote that ran to the end of the message, if any.
    private var unclosedQuote: Int?

    init(_ source: String) {
        scalars = Array(source.unicodeScalars)
    }

    /// Parses message text up to the `}` closing the case opened at `open`, or to the end
    /// when `open` is nil.
    mutating func parseMessage(depth: Int, inPlural: Bool, open: Int?) throws(MessageSyntaxError) -> [MessageNode] {
        var nodes: [MessageNode] = []
        var text = String.UnicodeScalarView()
        let count = scalars.count
        while index < count {
            let c = scalars[index]
            switch c {
            case "'":
                let next = index + 1
                guard next < count else {
                    text.append(c)
                    index = next
                    continue
                }
                let following = scalars[next]
                if following == "'" {
                    text.append("'")
                    index = next + 1
                } else if following == "{" || following == "}" || (inPlural && following == "#") {
                    // Quoted literal text, up to the next lone apostrophe or the end.
                    let quote = index
                    text.append(following)
                    index = next + 1
                    while true {
                        guard index < count else {
                            unclosedQuote = quote
                            break
                        }
                        let q = scalars[index]
                        if q == "'" {
                            if index + 1 < count && scalars[index + 1] == "'" {
                                text.append("'")
                                index += 2
                            } else {
                                index += 1
                                break
                            }
                        } else {
                            text.append(q)
                            index += 1
                        }
                    }
                } else {
                    text.append(c)
                    index = next
                }
            case "{":
                Self.flush(&text, into: &nodes)
                nodes.append(try parseArgument(depth: depth))
            case "}":
                guard open != nil else {
                    throw error("unmatched '}'; quote it as '}' for a literal brace", at: index)
                }
                index += 1
                Self.flush(&text, into: &nodes)
                return nodes
            case "#" where inPlural:
                Self.flush(&text, into: &nodes)
                nodes.append(.pound(offset: index))
                index += 1
            default:
                text.append(c)
                index += 1
            }
        }
        if let open { throw unmatched(open) }
        Self.flush(&text, into: &nodes)
        return nodes
    }

    private static func flush(_ text: inout String.UnicodeScalarView, into nodes: inout [MessageNode]) {
        guard !text.isEmpty else { return }
        nodes.append(.text(String(text)))
        text = String.UnicodeScalarView()
    }

    /// Parses the argument whose `{` is at `index`.
    private mutating func parseArgument(depth: Int) throws(MessageSyntaxError) -> MessageNode {
        let open = index
        index += 1
        skipWhiteSpace()
        guard index < scalars.count else { throw unmatched(open) }
        let nameOffset = index
        let first = scalars[index]
        if first == "}" || first == "," { throw error("empty argument name", at: index) }
        let name = scanIdentifier()
        if name.isEmpty { throw error("expected an argument name after '{' but found '\(first)'", at: index) }
        try validateArgumentName(name, at: nameOffset)

        skipWhiteSpace()
        guard index < scalars.count else { throw unmatched(open) }
        if scalars[index] == "}" {
            index += 1
            return .argument(MessageSimpleArgument(name: name, kind: .simple, offset: open, nameOffset: nameOffset))
        }
        guard scalars[index] == "," else { throw error("expected ',' or '}' after argument name", at: index) }
        index += 1

        skipWhiteSpace()
        guard index < scalars.count else { throw unmatched(open) }
        let typeOffset = index
        let typeName = scanIdentifier()
        if typeName.isEmpty { throw error("expected an argument type after ','", at: index) }

        switch typeName.lowercased() {
        case "number", "date", "time":
            let type = typeName.lowercased()
            let style = try parseSimpleStyle(type: type, open: open)
            switch type {
            case "number":
                let numberStyle: MessageNumberStyle = switch style {
                case nil: .plain
                case let text? where text.lowercased() == "integer": .integer
                case let text?: .other(text)
                }
                return .number(MessageNumberArgument(name: name, style: numberStyle, offset: open, nameOffset: nameOffset))
            case "date":
                return .argument(MessageSimpleArgument(name: name, kind: .date, style: style, offset: open, nameOffset: nameOffset))
            default:
                return .argument(MessageSimpleArgument(name: name, kind: .time, style: style, offset: open, nameOffset: nameOffset))
            }
        case "plural":
            return .plural(try parsePlural(name: name, nameOffset: nameOffset, ordinal: false, open: open, depth: depth))
        case "selectordinal":
            return .plural(try parsePlural(name: name, nameOffset: nameOffset, ordinal: true, open: open, depth: depth))
        case "select":
            return .select(try parseSelect(name: name, nameOffset: nameOffset, open: open, depth: depth))
        case "choice":
            throw error("the 'choice' argument type is not supported; use plural or select", at: typeOffset)
        default:
            throw error("unknown argument type '\(typeName)'; expected number, date, time, plural, select or selectordinal", at: typeOffset,
                        hint: Suggestion.hint(for: typeName, among: ["number", "date", "time", "plural", "select", "selectordinal"]))
        }
    }

    /// ICU's rule: a name starting with a digit is an argument number, with no leading zeros.
    private func validateArgumentName(_ name: String, at offset: Int) throws(MessageSyntaxError) {
        guard let first = name.unicodeScalars.first, ("0"..."9").contains(first) else { return }
        guard name.unicodeScalars.allSatisfy({ ("0"..."9").contains($0) }) else {
            throw error("invalid argument name '\(name)'; a name that starts with a digit must be a number", at: offset)
        }
        if first == "0" && name.unicodeScalars.count > 1 {
            throw error("invalid argument number '\(name)'; it must not have leading zeros", at: offset)
        }
    }

    /// After `{name, number|date|time`: `}` or `, style }`. Returns the trimmed style.
    private mutating func parseSimpleStyle(type: String, open: Int) throws(MessageSyntaxError) -> String? {
        skipWhiteSpace()
        guard index < scalars.count else { throw unmatched(open) }
        if scalars[index] == "}" {
            index += 1
            return nil
        }
        guard scalars[index] == "," else { throw error("expected ',' or '}' after '\(type)'", at: index) }
        index += 1
        let start = index
        var nested = 0
        while true {
            guard index < scalars.count else { throw unmatched(open) }
            let c = scalars[index]
            if c == "'" {
                // As in ICU: quoted text inside a style is kept, apostrophes included.
                let quote = index
                index += 1
                while index < scalars.count && scalars[index] != "'" { index += 1 }
                guard index < scalars.count else {
                    throw error("the quote in this \(type) style is never closed", at: quote)
                }
            } else if c == "{" {
                nested += 1
            } else if c == "}" {
                if nested == 0 { break }
                nested -= 1
            }
            index += 1
        }
        var end = index
        var begin = start
        while begin < end && Self.isPatternWhiteSpace(scalars[begin]) { begin += 1 }
        while end > begin && Self.isPatternWhiteSpace(scalars[end - 1]) { end -= 1 }
        guard begin < end else { throw error("expected a \(type) style after ','", at: index) }
        index += 1
        var style = String.UnicodeScalarView()
        style.append(contentsOf: scalars[begin..<end])
        return String(style)
    }

    private mutating func parsePlural(name: String, nameOffset: Int, ordinal: Bool, open: Int, depth: Int) throws(MessageSyntaxError) -> MessagePluralArgument {
        let type = ordinal ? "selectordinal" : "plural"
        try expectCasesComma(type: type, open: open, depth: depth)
        var cases: [MessagePluralCase] = []
        var categories: Set<PluralCategory> = []
        var exactValues: Set<String> = []
        var pluralOffset: Int?
        while true {
            skipWhiteSpace()
            guard index < scalars.count else { throw unmatched(open) }
            let keyOffset = index
            let c = scalars[index]
            if c == "}" {
                guard categories.contains(.other) else {
                    throw error("\(type) argument '\(name)' has no 'other' case", at: index)
                }
                index += 1
                return MessagePluralArgument(name: name, isOrdinal: ordinal, pluralOffset: pluralOffset ?? 0, cases: cases, offset: open, nameOffset: nameOffset)
            }
            if atOffsetKeyword() {
                if pluralOffset != nil {
                    throw error("\(type) argument '\(name)' has more than one 'offset:'", at: keyOffset)
                }
                if !cases.isEmpty { throw error("'offset:' must come before the first case", at: keyOffset) }
                index += 7
                skipWhiteSpace()
                guard index < scalars.count else { throw unmatched(open) }
                pluralOffset = try scanOffsetValue()
                continue
            }
            let key: MessagePluralKey
            if c == "=" {
                index += 1
                let number = try scanExactNumber()
                let normalized = DecimalNumber(number)?.normalized.plainText ?? number
                guard exactValues.insert(normalized).inserted else {
                    throw error("\(type) argument '\(name)' has the case '=\(number)' twice", at: keyOffset)
                }
                key = .exact(number)
            } else {
                let word = scanIdentifier()
                if word.isEmpty {
                    throw error("expected a case key or '}' in \(type) argument '\(name)' but found '\(c)'", at: index)
                }
                guard let category = PluralCategory(rawValue: word) else {
                    throw error("unknown plural category '\(word)'; expected zero, one, two, few, many, other or an exact match such as =0", at: keyOffset,
                                hint: Suggestion.hint(for: word, among: PluralCategory.allCases.map(\.rawValue)))
                }
                guard categories.insert(category).inserted else {
                    throw error("\(type) argument '\(name)' has the case '\(word)' twice", at: keyOffset)
                }
                key = .category(category)
            }
            let message = try parseCaseMessage(key: key.description, open: open, depth: depth, inPlural: true)
            cases.append(MessagePluralCase(key: key, keyOffset: keyOffset, message: message))
        }
    }

    private mutating func parseSelect(name: String, nameOffset: Int, open: Int, depth: Int) throws(MessageSyntaxError) -> MessageSelectArgument {
        try expectCasesComma(type: "select", open: open, depth: depth)
        var cases: [MessageSelectCase] = []
        var keys: Set<String> = []
        while true {
            skipWhiteSpace()
            guard index < scalars.count else { throw unmatched(open) }
            let keyOffset = index
            let c = scalars[index]
            if c == "}" {
                guard keys.contains("other") else {
                    throw error("select argument '\(name)' has no 'other' case", at: index)
                }
                index += 1
                return MessageSelectArgument(name: name, cases: cases, offset: open, nameOffset: nameOffset)
            }
            if c == "=" {
                throw error("'=' cases are only allowed in plural and selectordinal arguments", at: index)
            }
            let key = scanIdentifier()
            if key.isEmpty {
                throw error("expected a case key or '}' in select argument '\(name)' but found '\(c)'", at: index)
            }
            if key == "offset" && index < scalars.count && scalars[index] == ":" {
                throw error("'offset:' is only allowed in plural and selectordinal arguments", at: keyOffset)
            }
            guard keys.insert(key).inserted else {
                throw error("select argument '\(name)' has the case '\(key)' twice", at: keyOffset)
            }
            let message = try parseCaseMessage(key: key, open: open, depth: depth, inPlural: false)
            cases.append(MessageSelectCase(key: key, keyOffset: keyOffset, message: message))
        }
    }

    /// After the type of a plural, selectordinal or select: the `,` that starts the cases.
    private mutating func expectCasesComma(type: String, open: Int, depth: Int) throws(MessageSyntaxError) {
        if depth >= MessagePattern.maximumNestingDepth {
            throw error("plural and select arguments are nested more than \(MessagePattern.maximumNestingDepth) levels deep", at: open)
        }
        skipWhiteSpace()
        guard index < scalars.count else { throw unmatched(open) }
        guard scalars[index] == "," else { throw error("expected ',' and the cases after '\(type)'", at: index) }
        index += 1
    }

    /// After a case key: `{ message }`.
    private mutating func parseCaseMessage(key: String, open: Int, depth: Int, inPlural: Bool) throws(MessageSyntaxError) -> [MessageNode] {
        skipWhiteSpace()
        guard index < scalars.count else { throw unmatched(open) }
        guard scalars[index] == "{" else { throw error("expected '{' after case '\(key)'", at: index) }
        let caseOpen = index
        index += 1
        return try parseMessage(depth: depth + 1, inPlural: inPlural, open: caseOpen)
    }

    /// The value after `offset:`: a non-negative integer.
    private mutating func scanOffsetValue() throws(MessageSyntaxError) -> Int {
        let start = index
        var value = 0
        var overflow = false
        while index < scalars.count, let digit = Self.asciiDigit(scalars[index]) {
            if !overflow {
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(digit)
                overflow = o1 || o2
                value = sum
            }
            index += 1
        }
        if index == start || (index < scalars.count && (Self.isIdentifierScalar(scalars[index]) || scalars[index] == ".")) {
            throw error("expected a non-negative integer after 'offset:'", at: start)
        }
        if overflow { throw error("the value after 'offset:' is too large", at: start) }
        return value
    }

    /// The number after `=` in an exact-match key: `-?digits(.digits)?`.
    private mutating func scanExactNumber() throws(MessageSyntaxError) -> String {
        let start = index
        if index < scalars.count && scalars[index] == "-" { index += 1 }
        let digitsStart = index
        while index < scalars.count && Self.asciiDigit(scalars[index]) != nil { index += 1 }
        guard index > digitsStart else {
            throw error("expected a number after '=', as in '=0'", at: digitsStart)
        }
        if index + 1 < scalars.count && scalars[index] == "." && Self.asciiDigit(scalars[index + 1]) != nil {
            index += 1
            while index < scalars.count && Self.asciiDigit(scalars[index]) != nil { index += 1 }
        }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[start..<index])
        return String(text)
    }

    // MARK: Scanning

    private mutating func skipWhiteSpace() {
        while index < scalars.count && Self.isPatternWhiteSpace(scalars[index]) { index += 1 }
    }

    /// Scans an ICU "pattern identifier": scalars that are neither Pattern_White_Space nor
    /// Pattern_Syntax. Returns "" without moving when there is none.
    private mutating func scanIdentifier() -> String {
        let start = index
        while index < scalars.count && Self.isIdentifierScalar(scalars[index]) { index += 1 }
        var text = String.UnicodeScalarView()
        text.append(contentsOf: scalars[start..<index])
        return String(text)
    }

    private static let offsetKeyword = Array("offset:".unicodeScalars)

    /// Whether `offset:` starts at `index`.
    private func atOffsetKeyword() -> Bool {
        let keyword = Self.offsetKeyword
        guard scalars.count - index >= keyword.count else { return false }
        for (position, scalar) in keyword.enumerated() where scalars[index + position] != scalar { return false }
        return true
    }

    private func error(_ message: String, at offset: Int, hint: String? = nil) -> MessageSyntaxError {
        MessageSyntaxError(message: message, offset: offset, hint: hint)
    }

    /// The error for an argument or case whose `{` at `open` never closes.
    private func unmatched(_ open: Int) -> MessageSyntaxError {
        if let quote = unclosedQuote {
            return error("this apostrophe starts quoted text that is never closed, so a '{' before the end is unmatched; write '' for a literal apostrophe", at: quote)
        }
        return error("unmatched '{'", at: open)
    }

    private static func asciiDigit(_ scalar: Unicode.Scalar) -> Int? {
        let value = scalar.value
        return value >= 0x30 && value <= 0x39 ? Int(value - 0x30) : nil
    }

    static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        !isPatternWhiteSpace(scalar) && !isPatternSyntax(scalar)
    }

    /// Unicode Pattern_White_Space.
    static func isPatternWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0x200E, 0x200F, 0x2028, 0x2029: true
        default: false
        }
    }

    /// Unicode Pattern_Syntax (stable since Unicode 4.1).
    static func isPatternSyntax(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x80 {
            switch v {
            case 0x21...0x2F, 0x3A...0x40, 0x5B...0x5E, 0x60, 0x7B...0x7E: return true
            default: return false
            }
        }
        switch v {
        case 0xA1...0xA7, 0xA9, 0xAB, 0xAC, 0xAE, 0xB0, 0xB1, 0xB6, 0xBB, 0xBF, 0xD7, 0xF7,
             0x2010...0x2027, 0x2030...0x203E, 0x2041...0x2053, 0x2055...0x205E,
             0x2190...0x245F, 0x2500...0x2775, 0x2794...0x2BFF, 0x2E00...0x2E7F,
             0x3001...0x3003, 0x3008...0x3020, 0x3030, 0xFD3E, 0xFD3F, 0xFE45, 0xFE46:
            return true
        default:
            return false
        }
    }
}
