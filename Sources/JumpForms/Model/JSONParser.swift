/// Why a text is not JSON, and where.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    public var message: String
    /// Byte offset of the problem.
    public var offset: Int
    public var line: Int
    public var column: Int

    public var description: String { "\(message) at line \(line), column \(column)" }
}

extension JSONValue {
    /// Parses JSON text (RFC 8259), keeping object keys in order. Nesting is limited to 512
    /// levels; duplicate keys keep the last value, as most parsers do.
    public static func parse(_ bytes: [UInt8]) throws(JSONParseError) -> JSONValue {
        var parser = JSONParser(bytes: bytes, builder: PlainJSONBuilder())
        return try parser.parseDocument()
    }

    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Array(text.utf8))
    }
}

/// What the parser makes of the values it reads: plain `JSONValue`s, or located `JSONNode`s.
/// One grammar, one set of error messages, two trees.
protocol JSONTreeBuilder {
    associatedtype Node
    /// Where a value or key starts, taken when the parser reaches it (offsets only grow).
    associatedtype Mark
    /// The members of an object being read.
    associatedtype Members

    mutating func mark(at offset: Int) -> Mark
    /// `null`, `true`/`false`, a number or a string, which ends before byte `end`.
    mutating func scalar(_ value: JSONValue, at mark: Mark, end: Int) -> Node
    mutating func array(_ items: [Node], at mark: Mark) -> Node
    func emptyMembers() -> Members
    mutating func add(key: String, at mark: Mark, end: Int, value: Node, to members: inout Members)
    mutating func object(_ members: Members, at mark: Mark) -> Node
}

/// Builds `JSONValue`s: no places, duplicate keys keep the last value at the first's position.
struct PlainJSONBuilder: JSONTreeBuilder {
    func mark(at offset: Int) {}
    func scalar(_ value: JSONValue, at mark: Void, end: Int) -> JSONValue { value }
    func array(_ items: [JSONValue], at mark: Void) -> JSONValue { .array(items) }
    func emptyMembers() -> [(key: String, value: JSONValue)] { [] }

    func add(key: String, at mark: Void, end: Int, value: JSONValue, to members: inout [(key: String, value: JSONValue)]) {
        if let existing = members.firstIndex(where: { $0.key == key }) {
            members[existing].value = value
        } else {
            members.append((key, value))
        }
    }

    func object(_ members: [(key: String, value: JSONValue)], at mark: Void) -> JSONValue { .object(members) }
}

struct JSONParser<Builder: JSONTreeBuilder> {
    let bytes: [UInt8]
    var builder: Builder
    var index = 0
    var depth = 0
    static var maximumDepth: Int { 512 }

    init(bytes: [UInt8], builder: Builder) {
        self.bytes = bytes
        self.builder = builder
    }

    func error(_ message: String, at offset: Int? = nil) -> JSONParseError {
        let position = min(offset ?? index, bytes.count)
        var line = 1
        var column = 1
        for byte in bytes[..<position] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
        return JSONParseError(message: message, offset: position, line: line, column: column)
    }

    mutating func parseDocument() throws(JSONParseError) -> Builder.Node {
        // A UTF-8 byte order mark (editors on Windows write one) is skipped, as RFC 8259 allows.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        guard index < bytes.count else { throw error("empty input: expected a JSON value") }
        let value = try parseValue()
        skipWhitespace()
        if index < bytes.count { throw error("unexpected text after the JSON value") }
        return value
    }

    mutating func skipWhitespace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
            index += 1
        }
    }

    mutating func parseValue() throws(JSONParseError) -> Builder.Node {
        guard index < bytes.count else { throw error("unexpected end of input: the JSON is truncated") }
        let start = builder.mark(at: index)
        let value: JSONValue
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(at: start)
        case UInt8(ascii: "["): return try parseArray(at: start)
        case UInt8(ascii: "\""): value = .string(try parseString())
        case UInt8(ascii: "t"): try literal("true"); value = .bool(true)
        case UInt8(ascii: "f"): try literal("false"); value = .bool(false)
        case UInt8(ascii: "n"): try literal("null"); value = .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): value = try parseNumber()
        case UInt8(ascii: "<"): throw error("expected JSON, found markup (an HTML error page?)")
        default: throw error("unexpected character \(characterName(at: index))")
        }
        return builder.scalar(value, at: start, end: index)
    }

    /// The character starting at byte `offset`, for messages: `'x'`, or with its code point
    /// when it is not printable ASCII (`U+FEFF`), or the byte when it is not UTF-8.
    func characterName(at offset: Int) -> String {
        let byte = bytes[offset]
        if byte >= 0x20, byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        let length = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 0
        if length > 0, offset + length <= bytes.count,
            let text = String(validating: bytes[offset..<(offset + length)], as: UTF8.self), let scalar = text.unicodeScalars.first
        {
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            let printable =
                !scalar.properties.isWhitespace && scalar.properties.generalCategory != .control
                && scalar.properties.generalCategory != .format
            return printable ? "'\(text)' (\(code))" : code
        }
        return "byte 0x" + String(byte, radix: 16, uppercase: true) + " (not UTF-8)"
    }

    mutating func literal(_ word: String) throws(JSONParseError) {
        let expected = Array(word.utf8)
        guard bytes.count - index >= expected.count, Array(bytes[index..<(index + expected.count)]) == expected else {
            if bytes.count - index < expected.count, Array(bytes[index...]) == Array(expected.prefix(bytes.count - index)) {
                throw error("unexpected end of input: the JSON is truncated")
            }
            throw error("invalid literal: expected '\(word)'")
        }
        index += expected.count
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > Self.maximumDepth { throw error("nesting deeper than \(Self.maximumDepth) levels") }
    }

    mutating func parseObject(at start: Builder.Mark) throws(JSONParseError) -> Builder.Node {
        try enter()
        defer { depth -= 1 }
        index += 1
        var members = builder.emptyMembers()
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return builder.object(members, at: start)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input: the JSON is truncated") }
            guard bytes[index] == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let keyStart = builder.mark(at: index)
            let key = try parseString()
            let keyEnd = index
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input: the JSON is truncated") }
            guard bytes[index] == UInt8(ascii: ":") else { throw error("expected ':' after an object key") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            builder.add(key: key, at: keyStart, end: keyEnd, value: value, to: &members)
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input: the JSON is truncated") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "}") { index += 1; return builder.object(members, at: start) }
            throw error("expected ',' or '}' in an object")
        }
    }

    mutating func parseArray(at start: Builder.Mark) throws(JSONParseError) -> Builder.Node {
        try enter()
        defer { depth -= 1 }
        index += 1
        var values: [Builder.Node] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return builder.array(values, at: start)
        }
        while true {
            skipWhitespace()
            values.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw error("unexpected end of input: the JSON is truncated") }
            if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
            if bytes[index] == UInt8(ascii: "]") { index += 1; return builder.array(values, at: start) }
            throw error("expected ',' or ']' in an array")
        }
    }

    mutating func parseNumber() throws(JSONParseError) -> JSONValue {
        let start = index
        func digits() -> Int {
            let begin = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - begin
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count else { throw error("unexpected end of input: the JSON is truncated") }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else if digits() == 0 {
            throw error("invalid number")
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { throw error("invalid number: digits expected after '.'") }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { throw error("invalid number: digits expected in the exponent") }
        }
        return .number(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    /// A string's value. The bytes between escapes are copied as they are; the whole is
    /// checked as UTF-8 once, at the end.
    mutating func parseString() throws(JSONParseError) -> String {
        let start = index
        index += 1
        var decoded: [UInt8] = []
        var runStart = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text: String?
                if decoded.isEmpty {
                    // No escape (each one adds bytes): the value is the bytes between the quotes.
                    text = ValidUTF8.string(bytes[runStart..<index])
                } else {
                    decoded.append(contentsOf: bytes[runStart..<index])
                    text = ValidUTF8.string(decoded[...])
                }
                guard let text else { throw error("invalid UTF-8 in a string", at: start) }
                index += 1
                return text
            }
            if byte < 0x20 { throw error("control character in a string (escape it)") }
            if byte == UInt8(ascii: "\\") {
                decoded.append(contentsOf: bytes[runStart..<index])
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                case UInt8(ascii: "b"): decoded.append(0x08)
                case UInt8(ascii: "f"): decoded.append(0x0C)
                case UInt8(ascii: "n"): decoded.append(0x0A)
                case UInt8(ascii: "r"): decoded.append(0x0D)
                case UInt8(ascii: "t"): decoded.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in a \\u escape")
                        }
                        index += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("unpaired surrogate in a \\u escape") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("invalid \\u escape") }
                    decoded.append(contentsOf: UTF8.encode(scalar)!)
                default:
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(escape)))'")
                }
                runStart = index
                continue
            }
            index += 1
        }
        throw error("unexpected end of input: unterminated string", at: start)
    }

    mutating func hex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("unexpected end of input: the JSON is truncated") }
        var value: UInt32 = 0
        for byte in bytes[index..<(index + 4)] {
            value <<= 4
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value |= UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value |= UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): value |= UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid \\u escape")
            }
        }
        index += 4
        return value
    }
}
