/// JSON values through `Codable`, so that types holding one (a session's record) can be encoded
/// with any encoder. Objects decode in the order the decoder lists their keys, which
/// `JSONDecoder` does not promise to keep: where the order matters, parse the text with
/// `JSONValue.parse(_:)`, which keeps it.
extension JSONValue: Codable {
    /// A key of an object, any string.
    struct CodingName: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { return nil }
    }

    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: CodingName.self) {
            self = .object(try object.allKeys.map { key in (key: key.stringValue, value: try object.decode(JSONValue.self, forKey: key)) })
            return
        }
        if var list = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !list.isAtEnd { values.append(try list.decode(JSONValue.self)) }
            self = .array(values)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let flag = try? single.decode(Bool.self) {
            self = .bool(flag)
        } else if let integer = try? single.decode(Int.self) {
            self = .number(String(integer))
        } else if let number = try? single.decode(Double.self) {
            self = .number(String(number))
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .bool(let flag):
            var single = encoder.singleValueContainer()
            try single.encode(flag)
        case .number(let text):
            var single = encoder.singleValueContainer()
            if let integer = Int(text) {
                try single.encode(integer)
            } else {
                try single.encode(Double(text) ?? 0)
            }
        case .string(let text):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case .array(let values):
            var list = encoder.unkeyedContainer()
            for value in values { try list.encode(value) }
        case .object(let entries):
            var object = encoder.container(keyedBy: CodingName.self)
            for (key, value) in entries { try object.encode(value, forKey: CodingName(stringValue: key)) }
        }
    }
}
