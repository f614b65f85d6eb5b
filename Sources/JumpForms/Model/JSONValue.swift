/// A JSON value that keeps object keys in order: records, request bodies, machine output.
public enum JSONValue: Sendable, Hashable, CustomStringConvertible {
    case null
    case bool(Bool)
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    public static func integer(_ value: Int) -> JSONValue { .number(String(value)) }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case let (.bool(a), .bool(b)): return a == b
        case let (.number(a), .number(b)): return a == b || (Double(a) != nil && Double(a) == Double(b))
        case let (.string(a), .string(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && a.allSatisfy { entry in b.contains { $0.key == entry.key && $0.value == entry.value } }
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let value): hasher.combine(value)
        case .number(let value): hasher.combine(Double(value) ?? 0)
        case .string(let value): hasher.combine(value)
        case .array(let values): hasher.combine(values)
        case .object(let entries):
            hasher.combine(entries.count)
            for key in entries.map(\.key).sorted() { hasher.combine(key) }
        }
    }

    /// The value under `key` of an object.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let entries) = self else { return nil }
        return entries.first { $0.key == key }?.value
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var intValue: Int? {
        if case .number(let value) = self { return Int(value) }
        return nil
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let values) = self { return values }
        return nil
    }

    public var objectValue: [(key: String, value: JSONValue)]? {
        if case .object(let entries) = self { return entries }
        return nil
    }

    /// The object with `key` set to `value`: in its place when the key is there, else added
    /// at the end. Any other value becomes an object with `key` alone.
    package func setting(_ key: String, _ value: JSONValue) -> JSONValue {
        guard case .object(var entries) = self else { return [key: value] }
        if let index = entries.firstIndex(where: { $0.key == key }) {
            entries[index].value = value
        } else {
            entries.append((key, value))
        }
        return .object(entries)
    }

    /// The object without `key`; any other value as it is.
    package func removing(_ key: String) -> JSONValue {
        guard case .object(let entries) = self else { return self }
        return .object(entries.filter { $0.key != key })
    }

    /// "an object", "a list", "a string", ... for messages.
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// Compact JSON text.
    public var description: String { serialized() }

    /// JSON text; `pretty` indents by two spaces. Never escapes `/`; escapes control
    /// characters, and U+2028/U+2029 for safety in JavaScript.
    public func serialized(pretty: Bool = false) -> String {
        var out = JSONTextBuffer()
        write(into: &out, pretty: pretty, indent: 0)
        return out.text
    }

    private func write(into out: inout JSONTextBuffer, pretty: Bool, indent: Int) {
        switch self {
        case .null: out.append("null")
        case .bool(let value): out.append(value ? "true" : "false")
        case .number(let value): out.append(value)
        case .string(let value): Self.writeString(value, into: &out)
        case .array(let values):
            if values.isEmpty { out.append("[]"); return }
            out.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { out.newline(indent: indent + 1) }
                value.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { out.newline(indent: indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let entries):
            if entries.isEmpty { out.append("{}"); return }
            out.append(UInt8(ascii: "{"))
            for (index, entry) in entries.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { out.newline(indent: indent + 1) }
                Self.writeString(entry.key, into: &out)
                out.append(pretty ? ": " : ":")
                entry.value.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { out.newline(indent: indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    /// Copies the runs of bytes that need no escape in one piece; only `"`, `\\`, control
    /// characters and U+2028/U+2029 (E2 80 A8/A9 in UTF-8) are written escaped.
    static func writeString(_ value: String, into out: inout JSONTextBuffer) {
        out.append(UInt8(ascii: "\""))
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                let escape: StaticString
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "\n"): escape = "\\n"
                case UInt8(ascii: "\r"): escape = "\\r"
                case UInt8(ascii: "\t"): escape = "\\t"
                case 0x08: escape = "\\b"
                case 0x0C: escape = "\\f"
                case 0x00..<0x20:
                    out.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                    out.unicodeEscape(UInt16(byte))
                    index += 1
                    runStart = index
                    continue
                case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    out.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                    out.unicodeEscape(utf8[index + 2] == 0xA8 ? 0x2028 : 0x2029)
                    index += 3
                    runStart = index
                    continue
                default:
                    index += 1
                    continue
                }
                out.append(UnsafeBufferPointer(rebasing: utf8[runStart..<index]))
                out.append(escape)
                index += 1
                runStart = index
            }
            out.append(UnsafeBufferPointer(rebasing: utf8[runStart..<utf8.count]))
        }
        out.append(UInt8(ascii: "\""))
    }
}

/// The bytes of JSON text being written: appends go to one growing byte array, turned into a
/// `String` once at the end (appending small strings to a `String` costs far more per piece).
struct JSONTextBuffer {
    private var bytes: [UInt8] = []

    init() { bytes.reserveCapacity(256) }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func append(_ text: StaticString) {
        bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
    }

    mutating func append(_ run: UnsafeBufferPointer<UInt8>) {
        if !run.isEmpty { bytes.append(contentsOf: run) }
    }

    mutating func newline(indent: Int) {
        bytes.append(UInt8(ascii: "\n"))
        bytes.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    /// `\\u` and four lowercase hex digits.
    mutating func unicodeEscape(_ value: UInt16) {
        append("\\u")
        let digits: StaticString = "0123456789abcdef"
        for shift in stride(from: 12, through: 0, by: -4) {
            bytes.append(digits.utf8Start[Int((value >> UInt16(shift)) & 0xF)])
        }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements.map { (key: $0.0, value: $0.1) }) }
    public init(nilLiteral: ()) { self = .null }
}
