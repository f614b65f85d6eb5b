/// A JSON value with the place each part was written: for JSON files whose *meaning* is
/// checked (Capture schemas, access schemas), so that a missing key or a wrong value is
/// reported at its line and column, not only a syntax error.
///
/// Unlike `JSONValue`, an object keeps every member, duplicates included, so that a checker
/// can report them.
public struct JSONNode: Sendable, Hashable {
    public enum Value: Sendable, Hashable {
        case null
        case bool(Bool)
        /// The number as written.
        case number(String)
        case string(String)
        case array([JSONNode])
        case object([Member])
    }

    /// A member of an object: its key, where the key is written, and its value.
    public struct Member: Sendable, Hashable {
        public var key: Located<String>
        public var value: JSONNode

        public init(key: Located<String>, value: JSONNode) {
            self.key = key
            self.value = value
        }
    }

    public var value: Value
    /// Where the value starts; a scalar's location spans its text (a string with its quotes).
    public var location: SourceLocation

    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }

    /// Parses JSON text as `JSONValue.parse` does (same grammar, limits and errors), keeping
    /// places. `file` names the file in the locations.
    public static func parse(_ bytes: [UInt8], file: String) throws(JSONParseError) -> JSONNode {
        var parser = JSONParser(bytes: bytes, builder: LocatedJSONBuilder(bytes: bytes, file: file))
        return try parser.parseDocument()
    }

    /// The value without places. Duplicate keys keep the last value at the first's position,
    /// as `JSONValue.parse` does.
    public var plain: JSONValue {
        switch value {
        case .null: return .null
        case .bool(let value): return .bool(value)
        case .number(let text): return .number(text)
        case .string(let text): return .string(text)
        case .array(let items): return .array(items.map(\.plain))
        case .object(let members):
            let builder = PlainJSONBuilder()
            var entries = builder.emptyMembers()
            for member in members {
                builder.add(key: member.key.value, at: (), end: 0, value: member.value.plain, to: &entries)
            }
            return .object(entries)
        }
    }

    /// "an object", "a list", "a string", ... for messages.
    public var kindDescription: String { plain.kindDescription }

    public var stringValue: String? {
        if case .string(let text) = value { return text }
        return nil
    }

    public var isNull: Bool { value == .null }
}

/// Builds `JSONNode`s, turning byte offsets into lines and columns as the parser advances.
struct LocatedJSONBuilder: JSONTreeBuilder {
    struct Mark {
        var offset: Int
        var line: Int
        var column: Int
    }

    let bytes: [UInt8]
    let file: String
    /// The place of `offset`: lines and columns (Unicode scalars) counted incrementally.
    private var offset = 0
    private var line = 1
    private var column = 1

    init(bytes: [UInt8], file: String) {
        self.bytes = bytes
        self.file = file
    }

    mutating func mark(at target: Int) -> Mark {
        while offset < target {
            let byte = bytes[offset]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
            offset += 1
        }
        return Mark(offset: target, line: line, column: column)
    }

    /// The place of `mark`, underlining up to `end` (one line at most).
    private func location(_ mark: Mark, end: Int? = nil) -> SourceLocation {
        var length = 1
        if let end, end > mark.offset {
            length = 0
            for byte in bytes[mark.offset..<min(end, bytes.count)] {
                if byte == UInt8(ascii: "\n") { length = 1; break }
                if byte & 0xC0 != 0x80 { length += 1 }
            }
        }
        return SourceLocation(file: file, line: mark.line, column: mark.column, length: length)
    }

    func scalar(_ value: JSONValue, at mark: Mark, end: Int) -> JSONNode {
        let node: JSONNode.Value
        switch value {
        case .bool(let flag): node = .bool(flag)
        case .number(let text): node = .number(text)
        case .string(let text): node = .string(text)
        default: node = .null
        }
        return JSONNode(node, at: location(mark, end: end))
    }

    func array(_ items: [JSONNode], at mark: Mark) -> JSONNode {
        JSONNode(.array(items), at: location(mark))
    }

    func emptyMembers() -> [JSONNode.Member] { [] }

    func add(key: String, at mark: Mark, end: Int, value: JSONNode, to members: inout [JSONNode.Member]) {
        members.append(JSONNode.Member(key: Located(key, at: location(mark, end: end)), value: value))
    }

    func object(_ members: [JSONNode.Member], at mark: Mark) -> JSONNode {
        JSONNode(.object(members), at: location(mark))
    }
}
