import JumpForms
import JumpSchema

/// What a schema attribute takes, as Capture checks a written value: the JSON type of its
/// attribute type (341 `invalid_json_type`), the format of numbers, UUIDs and addresses (340
/// `invalid_data_format`), dates and instants (342 `invalid_date_time`), `length` (363
/// `length_violation`), the character constraints (360 `constraint_violation`), and
/// `required` (362 `missing_required_attribute`, for `null`). `unique` and `locally-unique`
/// need the other records and elements: the callers check them.
enum SchemaValueRules {
    static func problem(_ value: JSONValue, of attribute: AttributeDefinition, at path: RecordPath) -> RecordEditError? {
        let name = path.attribute
        let type = attribute.type.value
        if value == .null {
            return attribute.isRequired ? .required("\(name) is required: it cannot be null") : nil
        }
        func wrongType(_ expected: String) -> RecordEditError {
            .wrongShape("\(name) is of type \(type.name): it takes \(expected), not \(value.kindDescription)")
        }
        switch type {
        case .boolean:
            return value.boolValue != nil ? nil : wrongType("true or false")
        case .integer:
            guard case .number(let text) = value else { return wrongType("a whole number") }
            return Int(text) != nil ? nil : .dataFormat("\(name) is of type integer: \(text) is not a whole number")
        case .decimal:
            guard case .number = value else { return wrongType("a number") }
            return nil
        case .string, .ipAddress, .uuid, .date, .dateTime:
            guard let text = value.stringValue else { return wrongType("a string") }
            return textProblem(text, of: attribute, name: name)
        case .id, .json, .object, .plural, .password:
            // Not values: the role of the attribute keeps them from here.
            return nil
        }
    }

    static func textProblem(_ text: String, of attribute: AttributeDefinition, name: String) -> RecordEditError? {
        switch attribute.type.value {
        case .date where CivilDate(iso: text) == nil:
            return .dateTime("\(name) is of type date: '\(text)' is not a day written yyyy-MM-dd")
        case .dateTime where !isDateTime(text):
            return .dateTime("\(name) is of type dateTime: '\(text)' is not an instant (yyyy-MM-dd HH:mm:ss[.SSSSSS] [+0000], or ISO 8601)")
        case .uuid where !isUUID(text):
            return .dataFormat("\(name) is of type uuid: '\(text)' is not a UUID")
        case .ipAddress where !isIPv4(text) && !isIPv6(text):
            return .dataFormat("\(name) is of type ipAddress: '\(text)' is not an IPv4 or IPv6 address")
        default: break
        }
        if let length = attribute.length, text.count > length {
            return .length("\(name) holds at most \(length) characters, got \(text.count)")
        }
        for constraint in attribute.constraints {
            if let problem = constraintProblem(constraint, text) {
                return .constraint("\(name) is \(constraint.rawValue): \(problem)")
            }
        }
        return nil
    }

    /// Why a text breaks a character constraint, or nil (`required`, `unique` and
    /// `locally-unique` are checked elsewhere).
    static func constraintProblem(_ constraint: AttributeConstraint, _ text: String) -> String? {
        switch constraint {
        case .required, .unique, .locallyUnique:
            return nil
        case .alphabetic:
            return text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) } ? nil : "letters A-Z and a-z only"
        case .alphanumeric:
            return text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) }
                ? nil : "ASCII letters and digits only"
        case .unicodeLetters:
            return text.unicodeScalars.allSatisfy(\.properties.isAlphabetic) ? nil : "letters only"
        case .unicodePrintable:
            return text.unicodeScalars.contains { $0.properties.generalCategory == .control } ? "no control characters" : nil
        case .emailAddress:
            return Format.email.matches(text) ? nil : "not an email address"
        }
    }

    /// `yyyy-MM-dd HH:mm:ss`, with optional fractional seconds and ` +0000`-style offset (as
    /// Capture writes instants), or the same with `T` and `Z`/`±hh:mm` (ISO 8601).
    static func isDateTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 19, CivilDate(iso: String(decoding: bytes[0..<10], as: UTF8.self)) != nil,
            bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T")
        else { return false }
        func digits(_ range: Range<Int>, max: Int) -> Bool {
            guard range.upperBound <= bytes.count, bytes[range].allSatisfy({ (48...57).contains($0) }) else { return false }
            return Int(String(decoding: bytes[range], as: UTF8.self))! <= max
        }
        guard digits(11..<13, max: 23), bytes[13] == UInt8(ascii: ":"), digits(14..<16, max: 59), bytes[16] == UInt8(ascii: ":"),
            digits(17..<19, max: 60)
        else { return false }
        var index = 19
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            let start = index
            while index < bytes.count, (48...57).contains(bytes[index]) { index += 1 }
            if index == start { return false }
        }
        let rest = String(decoding: bytes[index...], as: UTF8.self)
        if rest.isEmpty || rest == "Z" { return true }
        let offset = rest.hasPrefix(" ") ? String(rest.dropFirst()) : rest
        let sign = offset.first
        let body = offset.dropFirst().filter { $0 != ":" }
        return (sign == "+" || sign == "-") && body.count == 4 && body.allSatisfy(\.isASCII) && body.allSatisfy(\.isNumber)
    }

    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }

    static func isIPv4(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy { $0.isASCII && $0.isNumber } && Int(part)! <= 255
            }
    }

    static func isIPv6(_ text: String) -> Bool {
        guard text.contains(":"), text.count <= 45 else { return false }
        var body = Substring(text)
        var groupsNeeded = 8
        // An IPv4 tail (::ffff:192.0.2.1) counts as two groups.
        if let lastColon = body.lastIndex(of: ":"), body[body.index(after: lastColon)...].contains(".") {
            guard isIPv4(String(body[body.index(after: lastColon)...])) else { return false }
            body = body[...lastColon]
            if body.hasSuffix(":"), !body.hasSuffix("::") { body = body.dropLast() }
            groupsNeeded = 6
        }
        var halves = [String(body)]
        if let gap = body.firstRange(of: "::") {
            halves = [String(body[..<gap.lowerBound]), String(body[gap.upperBound...])]
            guard !halves[1].contains("::") else { return false }
        }
        func groups(_ half: String) -> [Substring]? {
            if half.isEmpty { return [] }
            let parts = half.split(separator: ":", omittingEmptySubsequences: false)
            return parts.allSatisfy({ (1...4).contains($0.count) && $0.allSatisfy(\.isHexDigit) }) ? parts : nil
        }
        guard let first = groups(halves[0]) else { return false }
        if halves.count == 1 { return first.count == groupsNeeded }
        guard let second = groups(halves[1]) else { return false }
        return first.count + second.count < groupsNeeded
    }
}
