/// A filter of the Entity API (`/entity.find`, `/entity.count`), in Capture's grammar:
///
///     filter     = or
///     or         = and ("or" and)*
///     and        = primary ("and" primary)*
///     primary    = "(" or ")" | comparison
///     comparison = path ("=" | "!=" | ">" | ">=" | "<" | "<=") value
///                | path "is" ["not"] "null"
///     path       = name ("." name)*
///     value      = 'text' | number | YYYY-MM-DD | true | false
///
/// Keywords are case-insensitive; a string is single-quoted, a quote in it written `\'` or
/// `''` and a backslash `\\`. `EntityFilter.parse` reads one; `EntityQuery` turns it into SQL.
indirect enum EntityFilter: Sendable, Hashable {
    case comparison(path: [String], EntityComparison, EntityFilterValue)
    /// `path is null` (`negated`: `is not null`).
    case isNull(path: [String], negated: Bool)
    case and(EntityFilter, EntityFilter)
    case or(EntityFilter, EntityFilter)

    /// `self and other`.
    func and(_ other: EntityFilter) -> EntityFilter { .and(self, other) }

    /// Every attribute path the filter names.
    var paths: [[String]] {
        switch self {
        case .comparison(let path, _, _), .isNull(let path, _): [path]
        case .and(let left, let right), .or(let left, let right): left.paths + right.paths
        }
    }

    /// Reads `text`; the error names the character (from 1) where reading stopped.
    static func parse(_ text: String) throws(EntityFilterError) -> EntityFilter {
        var parser = EntityFilterParser(tokens: try EntityFilterLexer.tokens(text), end: text.count + 1)
        let filter = try parser.or()
        if let extra = parser.peek {
            throw EntityFilterError(position: extra.position, message: "unexpected \(extra.kind.described) after a complete filter")
        }
        return filter
    }
}

enum EntityComparison: String, Sendable, Hashable, CaseIterable {
    case equal = "="
    case notEqual = "!="
    case greater = ">"
    case greaterOrEqual = ">="
    case less = "<"
    case lessOrEqual = "<="
}

/// A value a filter compares with.
enum EntityFilterValue: Sendable, Hashable {
    case text(String)
    /// The number as written (`12`, `-3.5`).
    case number(String)
    /// `YYYY-MM-DD`, unquoted: compared as text with the record's dates and timestamps.
    case date(String)
    case bool(Bool)
}

/// Why a filter cannot be read: where (character position, from 1) and what.
struct EntityFilterError: Error, Sendable, Hashable, CustomStringConvertible {
    var position: Int
    var message: String

    var description: String { "at character \(position): \(message)" }
}

/// One word of a filter.
struct EntityFilterToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case name(String)
        case text(String)
        case number(String)
        case date(String)
        case comparison(EntityComparison)
        case open, close, dot

        var described: String {
            switch self {
            case .name(let name): "'\(name)'"
            case .text: "a string"
            case .number(let number): "the number \(number)"
            case .date(let date): "the date \(date)"
            case .comparison(let comparison): "'\(comparison.rawValue)'"
            case .open: "'('"
            case .close: "')'"
            case .dot: "'.'"
            }
        }
    }

    var kind: Kind
    /// The character (from 1) the token starts at.
    var position: Int
}

/// Splits a filter into tokens.
enum EntityFilterLexer {
    static func tokens(_ text: String) throws(EntityFilterError) -> [EntityFilterToken] {
        let characters = Array(text)
        var tokens: [EntityFilterToken] = []
        var index = 0
        func isNameStart(_ c: Character) -> Bool { c == "_" || (c.isASCII && c.isLetter) }
        func isNamePart(_ c: Character) -> Bool { isNameStart(c) || (c.isASCII && c.isNumber) }
        func isDigit(_ c: Character) -> Bool { c.isASCII && c.isNumber }
        while index < characters.count {
            let c = characters[index]
            let position = index + 1
            if c == " " || c == "\t" || c == "\n" || c == "\r" {
                index += 1
            } else if c == "(" || c == ")" || c == "." {
                tokens.append(EntityFilterToken(kind: c == "(" ? .open : c == ")" ? .close : .dot, position: position))
                index += 1
            } else if c == "=" {
                tokens.append(EntityFilterToken(kind: .comparison(.equal), position: position))
                index += 1
            } else if c == "!" || c == "<" || c == ">" {
                let next = index + 1 < characters.count ? characters[index + 1] : nil
                if c == "!" && next != "=" { throw EntityFilterError(position: position, message: "'!' must be followed by '=' (write !=)") }
                if c == "<" && next == ">" { throw EntityFilterError(position: position, message: "'<>' is not a comparison: write !=") }
                let withEqual = next == "="
                let comparison: EntityComparison =
                    switch c {
                    case "!": .notEqual
                    case "<": withEqual ? .lessOrEqual : .less
                    default: withEqual ? .greaterOrEqual : .greater
                    }
                tokens.append(EntityFilterToken(kind: .comparison(comparison), position: position))
                index += withEqual ? 2 : 1
            } else if c == "'" {
                var value = ""
                index += 1
                var closed = false
                while index < characters.count {
                    let d = characters[index]
                    if d == "\\" {
                        guard index + 1 < characters.count, characters[index + 1] == "'" || characters[index + 1] == "\\" else {
                            throw EntityFilterError(position: index + 1, message: "a backslash in a string escapes ' or \\ only")
                        }
                        value.append(characters[index + 1])
                        index += 2
                    } else if d == "'" {
                        if index + 1 < characters.count, characters[index + 1] == "'" {
                            value.append("'")
                            index += 2
                        } else {
                            index += 1
                            closed = true
                            break
                        }
                    } else {
                        value.append(d)
                        index += 1
                    }
                }
                if !closed { throw EntityFilterError(position: position, message: "the string that starts here is not closed with '") }
                tokens.append(EntityFilterToken(kind: .text(value), position: position))
            } else if isDigit(c) || (c == "-" && index + 1 < characters.count && isDigit(characters[index + 1])) {
                var end = index + 1
                while end < characters.count,
                    isDigit(characters[end]) || characters[end] == "." || characters[end] == "-" || isNamePart(characters[end])
                {
                    end += 1
                }
                let word = String(characters[index..<end])
                if isDate(word) {
                    tokens.append(EntityFilterToken(kind: .date(word), position: position))
                } else if isNumber(word) {
                    tokens.append(EntityFilterToken(kind: .number(word), position: position))
                } else {
                    throw EntityFilterError(position: position, message: "'\(word)' is neither a number nor a date (YYYY-MM-DD)")
                }
                index = end
            } else if isNameStart(c) {
                var end = index + 1
                while end < characters.count, isNamePart(characters[end]) { end += 1 }
                tokens.append(EntityFilterToken(kind: .name(String(characters[index..<end])), position: position))
                index = end
            } else {
                throw EntityFilterError(position: position, message: "unexpected character '\(c)'")
            }
        }
        return tokens
    }

    /// `-12`, `3.25`.
    static func isNumber(_ word: String) -> Bool {
        var digits = word.hasPrefix("-") ? word.dropFirst() : Substring(word)
        if let dot = digits.firstIndex(of: ".") {
            let fraction = digits[digits.index(after: dot)...]
            guard !fraction.isEmpty, fraction.allSatisfy({ $0.isASCII && $0.isNumber }) else { return false }
            digits = digits[..<dot]
        }
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// `YYYY-MM-DD` with a month 1...12 and a day 1...31.
    static func isDate(_ word: String) -> Bool {
        let parts = word.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            let month = Int(parts[1]), let day = Int(parts[2]), (1...12).contains(month), (1...31).contains(day)
        else { return false }
        return true
    }
}

/// Recursive descent over the tokens.
struct EntityFilterParser {
    let tokens: [EntityFilterToken]
    /// The position just past the filter (errors at its end name it).
    let end: Int
    var index = 0

    init(tokens: [EntityFilterToken], end: Int) {
        self.tokens = tokens
        self.end = end
    }

    var peek: EntityFilterToken? { index < tokens.count ? tokens[index] : nil }

    mutating func next() -> EntityFilterToken? {
        defer { index += 1 }
        return peek
    }

    func isKeyword(_ token: EntityFilterToken?, _ keyword: String) -> Bool {
        if case .name(let name)? = token?.kind { return name.lowercased() == keyword }
        return false
    }

    func found(_ token: EntityFilterToken?) -> String { token.map(\.kind.described) ?? "the end of the filter" }

    mutating func or() throws(EntityFilterError) -> EntityFilter {
        var filter = try and()
        while isKeyword(peek, "or") {
            index += 1
            filter = .or(filter, try and())
        }
        return filter
    }

    mutating func and() throws(EntityFilterError) -> EntityFilter {
        var filter = try primary()
        while isKeyword(peek, "and") {
            index += 1
            filter = .and(filter, try primary())
        }
        return filter
    }

    mutating func primary() throws(EntityFilterError) -> EntityFilter {
        guard let token = peek else { throw EntityFilterError(position: end, message: "expected an attribute or '(', found the end of the filter") }
        if token.kind == .open {
            index += 1
            let inner = try or()
            let close = next()
            guard close?.kind == .close else {
                throw EntityFilterError(
                    position: close?.position ?? end, message: "expected ')' to close the '(' at character \(token.position), found \(found(close))")
            }
            return inner
        }
        let path = try self.path()
        let operatorToken = next()
        if isKeyword(operatorToken, "is") {
            var negated = false
            if isKeyword(peek, "not") {
                negated = true
                index += 1
            }
            let null = next()
            guard isKeyword(null, "null") else {
                throw EntityFilterError(
                    position: null?.position ?? end, message: "expected null after 'is\(negated ? " not" : "")', found \(found(null))")
            }
            return .isNull(path: path, negated: negated)
        }
        guard let operatorToken, case .comparison(let comparison) = operatorToken.kind else {
            throw EntityFilterError(
                position: operatorToken?.position ?? end,
                message: "expected a comparison (= != > >= < <=) or 'is' after \(path.joined(separator: ".")), found \(found(operatorToken))")
        }
        let valueToken = next()
        let value: EntityFilterValue
        switch valueToken?.kind {
        case .text(let text)?: value = .text(text)
        case .number(let number)?: value = .number(number)
        case .date(let date)?: value = .date(date)
        case .name(let name)? where name.lowercased() == "true": value = .bool(true)
        case .name(let name)? where name.lowercased() == "false": value = .bool(false)
        case .name(let name)? where name.lowercased() == "null":
            throw EntityFilterError(position: valueToken!.position, message: "compare with null as 'is null' or 'is not null'")
        default:
            throw EntityFilterError(
                position: valueToken?.position ?? end,
                message: "expected a value ('text', a number, a date, true or false) after '\(comparison.rawValue)', found \(found(valueToken))")
        }
        return .comparison(path: path, comparison, value)
    }

    mutating func path() throws(EntityFilterError) -> [String] {
        var names: [String] = []
        repeat {
            let token = next()
            guard case .name(let name)? = token?.kind, !["and", "or", "is", "not", "null"].contains(name.lowercased()) else {
                throw EntityFilterError(
                    position: token?.position ?? end,
                    message: "expected an attribute\(names.isEmpty ? " or '('" : " after '.'"), found \(found(token))")
            }
            names.append(name)
            guard peek?.kind == .dot else { break }
            index += 1
        } while true
        return names
    }
}
