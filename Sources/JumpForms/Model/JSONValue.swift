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
        var out = ""
        write(into: &out, pretty: pretty, indent: 0)
        return out
    }

    private func write(into out: inout String, pretty: Bool, indent: Int) {
        switch self {
        case .null: out += "null"
        case .bool(let value): out += value ? "true" : "false"
        case .number(let value): out += value
        case .string(let value): Self.writeString(value, into: &out)
        case .array(let values):
            if values.isEmpty { out += "[]"; return }
            out += "["
            for (index, value) in values.enumerated() {
                if index > 0 { out += "," }
                if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                value.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "]"
        case .object(let entries):
            if entries.isEmpty { out += "{}"; return }
            out += "{"
            for (index, entry) in entries.enumerated() {
                if index > 0 { out += "," }
                if pretty { out += "\n" + String(repeating: "  ", count: indent + 1) }
                Self.writeString(entry.key, into: &out)
                out += pretty ? ": " : ":"
                entry.value.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { out += "\n" + String(repeating: "  ", count: indent) }
            out += "}"
        }
    }

    /// Copies the runs of bytes that need no escape in one piece; only `"`, `\\`, control
    /// characters and U+2028/U+2029 (E2 80 A8/A9 in UTF-8) are written escaped.
    static func writeString(_ value: String, into out: inout String) {
        out += "\""
        var value = value
        value.withUTF8 { utf8 in
            var runStart = 0
            var index = 0
            func flush(upTo end: Int) {
                if end > runStart {
                    out += String(decoding: UnsafeBufferPointer(rebasing: utf8[runStart..<end]), as: UTF8.self)
                }
            }
            while index < utf8.count {
                let byte = utf8[index]
                let escape: String?
                var width = 1
                switch byte {
                case UInt8(ascii: "\""): escape = "\\\""
                case UInt8(ascii: "\\"): escape = "\\\\"
                case UInt8(ascii: "\n"): escape = "\\n"
                case UInt8(ascii: "\r"): escape = "\\r"
                case UInt8(ascii: "\t"): escape = "\\t"
                case 0x08: escape = "\\b"
                case 0x0C: escape = "\\f"
                case 0x00..<0x20: escape = Self.unicodeEscape(UInt32(byte))
                case 0xE2 where index + 2 < utf8.count && utf8[index + 1] == 0x80 && (utf8[index + 2] == 0xA8 || utf8[index + 2] == 0xA9):
                    escape = Self.unicodeEscape(utf8[index + 2] == 0xA8 ? 0x2028 : 0x2029)
                    width = 3
                default: escape = nil
                }
                guard let escape else { index += 1; continue }
                flush(upTo: index)
                out += escape
                index += width
                runStart = index
            }
            flush(upTo: utf8.count)
        }
        out += "\""
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .number(String(value)) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(elements.map { (key: $0.0, value: $0.1) }) }
    public init(nilLiteral: ()) { self = .null }
}
