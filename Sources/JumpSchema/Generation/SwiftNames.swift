/// How schema names become Swift names. Deterministic, so regenerating gives the same code:
///
/// - Words are the runs of ASCII letters and digits; every other character separates words
///   (`remote_key`, `first-name` -> `remote`, `key` / `first`, `name`).
/// - Properties are lowerCamel (`remoteKey`, `url` for `URL`, `urlValue` for `URLValue`);
///   types are UpperCamel (`PrimaryAddress`). A name with no word is `attribute` / `Attribute`;
///   a property starting with a digit gets a leading `_` (`_2fa`), a type `Attribute` (`Attribute2fa`).
/// - Swift keywords are written in backticks (`` `default` ``, `` `class` ``); `self`, which no
///   backticks make usable as a member, becomes `selfValue`.
/// - Type names that would hide a type the generated code uses (`String`, `Decimal`, the
///   support types, `CodingKeys`, `Type`, `Self`, ...) get the suffix `Object`.
/// - Siblings that end up with the same name: the one whose schema name already is the
///   Swift name keeps it, the others (in schema order) get `2`, `3`, ...
public enum SwiftNames {
    /// Words that are keywords somewhere in Swift: written in backticks as names.
    public static let keywords: Set<String> = [
        "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate", "func", "import",
        "init", "inout", "internal", "let", "nonisolated", "open", "operator", "precedencegroup", "private", "protocol",
        "public", "rethrows", "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue",
        "default", "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
        "Type", "Protocol", "some", "any", "macro", "package", "each", "discard", "copy", "consume"
    ]

    /// Property names no backticks make usable (`x.self` is `x` itself): renamed.
    static let renamedProperties: [String: String] = ["self": "selfValue"]

    /// Type names the generated code uses without qualification; a nested type of that name
    /// would hide them.
    /// Foundation's value and coding types are in the list too: a `User.Date` or `User.URL`
    /// would hide them from code written inside the model's types.
    static let standardTypes: Set<String> = [
        "Any", "AnyObject", "Array", "Bool", "Character", "Codable", "CodingKey", "CodingKeys", "Comparable", "Data", "Date",
        "Decimal", "Decodable", "Decoder", "DecodingError", "Dictionary", "Double", "Encodable", "Encoder", "EncodingError",
        "Equatable", "Error", "Foundation", "FoundationEssentials", "Hashable", "Int", "Int64", "JSONDecoder", "JSONEncoder",
        "KeyedDecodingContainer", "KeyedEncodingContainer", "LosslessStringConvertible", "Never", "Optional", "Protocol",
        "Self", "Sendable", "Set", "String", "Swift", "Type", "URL", "UUID", "Unicode", "Void"
    ]

    /// The words of a name: runs of ASCII letters and digits.
    static func words(_ name: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in name {
            if character.isASCII, character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `remote_key` -> `remoteKey`, `URLValue` -> `urlValue`, `Type` -> `type`.
    public static func lowerCamel(_ name: String) -> String {
        let parts = words(name)
        guard let first = parts.first else { return "attribute" }
        var result = lowerLeading(first) + parts.dropFirst().map(upperFirst).joined()
        if result.first?.isNumber == true { result = "_" + result }
        return renamedProperties[result] ?? result
    }

    /// `primaryAddress` -> `PrimaryAddress`, `remote_key` -> `RemoteKey`.
    public static func upperCamel(_ name: String) -> String {
        let parts = words(name)
        guard !parts.isEmpty else { return "Attribute" }
        let result = parts.map(upperFirst).joined()
        return result.first?.isNumber == true ? "Attribute" + result : result
    }

    /// The name as it is written in code: in backticks when it is a keyword.
    public static func code(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    static func upperFirst(_ word: String) -> String {
        guard let first = word.first else { return word }
        return first.uppercased() + word.dropFirst()
    }

    /// Lowers the leading capitals: `URL` -> `url`, `URLValue` -> `urlValue`, `Name` -> `name`.
    static func lowerLeading(_ word: String) -> String {
        let characters = Array(word)
        var upper = 0
        while upper < characters.count, characters[upper].isUppercase { upper += 1 }
        if upper == 0 { return word }
        // In `URLValue` the `V` starts the next word: keep it.
        let lowered = upper == characters.count || upper == 1 ? upper : upper - 1
        return characters[..<lowered].map { $0.lowercased() }.joined() + String(characters[lowered...])
    }

    /// Unique names for siblings, in order: `preferred[i]` is the mangled name of the i-th
    /// sibling and `exact[i]` whether its schema name already is that name. Names in `taken`
    /// are never given.
    static func unique(_ preferred: [String], exact: [Bool], taken: Set<String> = []) -> [String] {
        var used = taken
        var result = [String?](repeating: nil, count: preferred.count)
        // First the siblings whose schema name is the Swift name, then the rest, in order.
        let order = preferred.indices.filter { exact[$0] } + preferred.indices.filter { !exact[$0] }
        for index in order {
            var name = preferred[index]
            var number = 2
            while used.contains(name) {
                name = preferred[index] + String(number)
                number += 1
            }
            used.insert(name)
            result[index] = name
        }
        return result.map { $0! }
    }
}
