import JumpDiagnostics

// ICU MessageFormat ("MessageFormat 1", as in ICU4J) patterns: the syntax tree (its parser is in MessageParser.swift).
//
// The parser reads the message's UTF-8 bytes once, without regular expressions or Foundation.
// Offsets everywhere count Unicode scalars from the start of the source.
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
//     name      = identifier | number 0-32767 without leading zeros (`1a` is a name, as in ICU)
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
    public var nodes: [MessageNode] { parsed?.nodes ?? (source.isEmpty ? [] : [.text(source)]) }
    /// Every occurrence of an argument, in source order (an outer argument before those
    /// nested in its cases). The parser collects them, so reading this costs nothing.
    public var argumentUses: [MessageArgumentUse] { parsed?.argumentUses ?? [] }
    /// Every plural, selectordinal and select argument, in source order (an outer argument
    /// before the ones nested in its cases). The parser collects them too.
    public var selectors: [MessageSelectorUse] { parsed?.selectors ?? [] }

    /// What the parser made, in one object; nil for plain text (no `{`, `}` or `'`), which
    /// is one text node and uses no argument. Most messages keep no array of their own, and
    /// a pattern (copied with its message by every check) holds two references, not four.
    private let parsed: Parsed?

    private final class Parsed: Sendable {
        let nodes: [MessageNode]
        let argumentUses: [MessageArgumentUse]
        let selectors: [MessageSelectorUse]

        init(_ output: MessageParser.Output) {
            nodes = output.nodes
            argumentUses = output.argumentUses
            selectors = output.selectors
        }
    }

    /// The parsed `source`, or its first syntax error.
    public static func parse(_ source: String) -> Result<MessagePattern, MessageSyntaxError> {
        Result { () throws(MessageSyntaxError) -> MessagePattern in try MessagePattern(parsing: source) }
    }

    /// Parses `source`; throws the first syntax error.
    public init(parsing source: String) throws(MessageSyntaxError) {
        self.source = source
        var contiguous = source
        let result = contiguous.withUTF8 { bytes -> Result<MessageParser.Output, MessageSyntaxError>? in
            // Most messages are plain text: without `{`, `}` and `'` nothing is special (`#`
            // is special only inside plural cases), so the message is one text node, as the
            // parser would make it.
            guard MessageParser.containsBraceOrApostrophe(bytes) else { return nil }
            var parser = MessageParser(bytes, source: source)
            return Result { () throws(MessageSyntaxError) in try parser.parse() }
        }
        guard let result else {
            parsed = nil
            return
        }
        parsed = Parsed(try result.get())
    }

    /// The argument uses (`argumentUses`) of the message whose UTF-8 text is `utf8`, or its
    /// first syntax error (the same as `parse` finds), without building the tree or a string:
    /// what lint needs of a message.
    package static func argumentUses(ofUTF8 utf8: UnsafeBufferPointer<UInt8>) -> Result<[MessageArgumentUse], MessageSyntaxError> {
        guard MessageParser.containsBraceOrApostrophe(utf8) else { return .success([]) }
        var parser = MessageParser(utf8, source: nil)
        return Result { () throws(MessageSyntaxError) in try parser.parse().argumentUses }
    }

    /// Every argument the message uses, one entry per name, in order of first use: the kind
    /// and offsets are those of the first use (`{n, plural, one {# item} other {{n, number}
    /// items}}` gives `n` once, as plural). `argumentUses` lists every occurrence.
    public var arguments: [MessageArgumentUse] {
        // A message has few arguments: searching the list beats hashing each name.
        var result: [MessageArgumentUse] = []
        for use in argumentUses where !result.contains(where: { $0.name == use.name }) { result.append(use) }
        return result
    }

    /// The distinct argument names, in order of first use.
    public var argumentNames: [String] { arguments.map(\.name) }

    /// Calls `visit` for every node, depth first, in source order.
    public func walk(_ visit: (MessageNode) -> Void) {
        guard let parsedNodes = parsed?.nodes else {
            if !source.isEmpty { visit(.text(source)) }
            return
        }
        // Explicit stack: nesting is bounded by the parser, but the walk needs no recursion at all.
        var stack: [ArraySlice<MessageNode>] = [parsedNodes[...]]
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
