/// What a YAML 1.1 loader (PyYAML, most CI tools) would have typed an unquoted value as.
/// jump-forms reads it as the string written, but other tools would not: the locale checks
/// flag it and suggest quoting.
public enum ScalarTrap: String, Sendable, Hashable, CaseIterable {
    case boolean, number, date, null
}

/// Maps an offset inside a message (in Unicode scalars) back to its place in the file, even
/// when the YAML scalar was quoted, escaped or written over several lines.
public struct MessageOffsetMap: Sendable, Hashable {
    /// From value offset `offset` on, scalars sit one column apart starting at `line:column`.
    public struct Breakpoint: Sendable, Hashable {
        public var offset: Int
        public var line: Int
        public var column: Int

        public init(offset: Int, line: Int, column: Int) {
            self.offset = offset
            self.line = line
            self.column = column
        }
    }

    public var breakpoints: [Breakpoint]

    public init(breakpoints: [Breakpoint]) {
        self.breakpoints = breakpoints.isEmpty ? [Breakpoint(offset: 0, line: 1, column: 1)] : breakpoints
    }

    /// A value written on one line with no escapes, starting at `line:column`.
    public static func linear(line: Int, column: Int) -> MessageOffsetMap {
        MessageOffsetMap(breakpoints: [Breakpoint(offset: 0, line: line, column: column)])
    }

    /// The file position of value offset `offset`.
    public func location(ofOffset offset: Int, in file: String, length: Int = 1) -> SourceLocation {
        var chosen = breakpoints[0]
        for breakpoint in breakpoints {
            if breakpoint.offset > offset { break }
            chosen = breakpoint
        }
        return SourceLocation(file: file, line: chosen.line, column: chosen.column + max(0, offset - chosen.offset), length: length)
    }
}

/// One message of a locale file.
public struct LocaleMessage: Sendable {
    /// The dotted key (nested keys flattened).
    public var key: String
    /// The ICU MessageFormat source.
    public var text: String
    public var keyLocation: SourceLocation
    public var valueLocation: SourceLocation
    public var offsetMap: MessageOffsetMap
    /// Set when the value was unquoted and a YAML 1.1 loader would not read it as a string.
    public var trap: ScalarTrap?
    /// The parsed message, or the syntax error that stopped the parser.
    public var pattern: Result<MessagePattern, MessageSyntaxError>

    public init(key: String, text: String, keyLocation: SourceLocation, valueLocation: SourceLocation,
                offsetMap: MessageOffsetMap, trap: ScalarTrap? = nil) {
        self.key = key
        self.text = text
        self.keyLocation = keyLocation
        self.valueLocation = valueLocation
        self.offsetMap = offsetMap
        self.trap = trap
        self.pattern = Result { () throws(MessageSyntaxError) -> MessagePattern in try MessagePattern(parsing: text) }
    }

    /// The file position of an offset inside the message.
    public func location(ofOffset offset: Int, length: Int = 1) -> SourceLocation {
        offsetMap.location(ofOffset: offset, in: valueLocation.file, length: length)
    }
}

/// A locale file: its tag and messages in file order.
public struct LocaleCatalog: Sendable {
    public var path: String
    /// `locale:` as declared.
    public var tag: Located<LocaleTag>
    /// Keys in file order.
    public private(set) var keys: [String]
    private var messages: [String: LocaleMessage]

    /// Later duplicates are ignored (the loader reports them).
    public init(path: String, tag: Located<LocaleTag>, messages: [LocaleMessage]) {
        self.path = path
        self.tag = tag
        self.keys = []
        self.messages = [:]
        self.messages.reserveCapacity(messages.count)
        for message in messages where self.messages[message.key] == nil {
            self.messages[message.key] = message
            keys.append(message.key)
        }
    }

    public subscript(key: String) -> LocaleMessage? { messages[key] }

    /// Messages in file order.
    public var allMessages: [LocaleMessage] { keys.compactMap { messages[$0] } }

    public var count: Int { keys.count }
}
