import JumpForms

/// The printf dialect of a format: what simple and number arguments become.
public enum PrintfDialect: Sendable, Hashable {
    /// `%1$@` for text, `%1$lld` for numbers (String Catalogs, `String(format:)`).
    case apple
    /// `%1$s` for text, `%1$d` for numbers (Android `getString`).
    case android

    var text: String { self == .apple ? "@" : "s" }
    var number: String { self == .apple ? "lld" : "d" }
}

/// A printf conversion read from a value: `%2$@`, `%d`, `%.2f`.
struct PrintfSpecifier: Hashable {
    /// 1-based; nil when the specifier has no `N$`.
    var position: Int?
    /// `@`, `s`, `d`, `lld`, `.2f`, ...
    var conversion: String
    /// How many scalars it takes.
    var length: Int

    var isNumber: Bool {
        guard let last = conversion.unicodeScalars.last else { return false }
        return "diuxXfeEgGc".unicodeScalars.contains(last) && conversion != "c"
    }

    /// Reads a specifier starting at `scalars[index]` (a `%`): `%` [N$] [l|ll|h|hh|z|t|j|q|L]
    /// conversion, or `%.Nf` / `%N$.Nf`. Nil when what follows is no specifier.
    static func read(_ scalars: [Unicode.Scalar], at index: Int) -> PrintfSpecifier? {
        var cursor = index + 1
        var position: Int?
        var digits = ""
        while cursor < scalars.count, ("0"..."9").contains(scalars[cursor]) {
            digits.unicodeScalars.append(scalars[cursor])
            cursor += 1
        }
        if !digits.isEmpty {
            guard cursor < scalars.count, scalars[cursor] == "$", let number = Int(digits), number > 0, !digits.hasPrefix("0") else { return nil }
            position = number
            cursor += 1
        }
        var conversion = ""
        if cursor + 1 < scalars.count, scalars[cursor] == ".", ("0"..."9").contains(scalars[cursor + 1]) {
            conversion = "."
            cursor += 1
            while cursor < scalars.count, ("0"..."9").contains(scalars[cursor]) {
                conversion.unicodeScalars.append(scalars[cursor])
                cursor += 1
            }
        }
        for length in ["ll", "hh", "l", "h", "z", "t", "j", "q", "L"] {
            let prefix = Array(length.unicodeScalars)
            if cursor + prefix.count <= scalars.count, Array(scalars[cursor..<cursor + prefix.count]) == prefix {
                conversion += length
                cursor += prefix.count
                break
            }
        }
        guard cursor < scalars.count, "@sdiuxXfeEgGcS".unicodeScalars.contains(scalars[cursor]) else { return nil }
        conversion.unicodeScalars.append(scalars[cursor])
        // A precision only goes with floating-point conversions.
        if conversion.hasPrefix("."), !"feEgG".unicodeScalars.contains(scalars[cursor]) { return nil }
        return PrintfSpecifier(position: position, conversion: conversion, length: cursor + 1 - index)
    }
}

/// Converts ICU messages to printf-style values and back, through an `ArgumentOrder`.
///
/// Export: `{name}` becomes `%N$@` (`%N$s`), `{name, number}` becomes `%N$lld` (`%N$d`), where
/// N is the name's declared position; a literal `%` that would read as a specifier (or is
/// followed by `%`) is doubled. Everything else (plural, select, quoting) stays ICU source, so a
/// value is ICU MessageFormat with printf placeholders. Import reverses it exactly.
public struct PlaceholderMapping: Sendable {
    public var dialect: PrintfDialect
    public var order: ArgumentOrder

    public init(dialect: PrintfDialect, order: ArgumentOrder) {
        self.dialect = dialect
        self.order = order
    }

    /// A problem with a placeholder on import.
    public struct Problem: Error, Sendable, Hashable {
        public var message: String
        /// Scalar offset in the value.
        public var offset: Int
    }

    // MARK: export

    /// The printer that writes arguments as placeholders for `key`. In the cases of the plural
    /// named `pound` (when given) `#` becomes `poundText`, and `{pound, number}` stays ICU so
    /// that it is not confused with `#`.
    func printer(key: String, pound: (argument: String, text: String)? = nil) -> MessagePrinter {
        var printer = MessagePrinter()
        let order = order
        let dialect = dialect
        printer.replaceArgument = { node, context in
            switch node {
            // An argument the order lacks stays ICU (`{name}`), and so comes back as it was.
            case .argument(let argument) where argument.kind == .simple:
                return order.position(of: argument.name, for: key).map { "%\($0)$\(dialect.text)" }
            case .number(let argument) where argument.style == .plain:
                if let pound, case .pluralCase(let name) = context, name == pound.argument, argument.name == pound.argument { return nil }
                return order.position(of: argument.name, for: key).map { "%\($0)$\(dialect.number)" }
            default:
                return nil
            }
        }
        printer.transformEscapedText = { text, _ in PlaceholderMapping.escapePercent(text) }
        if let pound {
            printer.replacePound = { context in
                if case .pluralCase(let name) = context, name == pound.argument { return pound.text }
                return nil
            }
        }
        return printer
    }

    /// A whole message as a printf value. Messages that do not parse are written as they are
    /// (with `%` escaped), so they come back unchanged.
    public func export(key: String, text: String) -> String {
        guard let pattern = try? MessagePattern(parsing: text) else { return Self.escapePercent(text) }
        return printer(key: key).source(pattern.nodes)
    }

    /// Doubles every `%` that is followed by something (`50%` and `50% off` stay as they are).
    public static func escapePercent(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        for (index, scalar) in scalars.enumerated() {
            out.append(scalar)
            if scalar == "%", index + 1 < scalars.count, !scalars[index + 1].properties.isWhitespace {
                out.append("%")
            }
        }
        return String(out)
    }

    // MARK: import

    /// A printf value back as ICU source: placeholders become `{name}` / `{name, number}`
    /// (`#` for `poundPosition`'s numeric placeholder), each of `tokens` its replacement (`%arg`
    /// -> `#`), `%%` becomes `%`; a `%` that starts nothing stays.
    public func importValue(_ value: String, key: String, poundPosition: Int? = nil, tokens: [String: String] = [:]) throws(Problem) -> String {
        guard value.utf8.contains(UInt8(ascii: "%")) else { return value }
        let scalars = Array(value.unicodeScalars)
        let names = order.names(for: key)
        var out = ""
        var index = 0
        var sawPositional = false
        var sawBare = false
        var bareCount = 0
        while index < scalars.count {
            let scalar = scalars[index]
            guard scalar == "%" else {
                out.unicodeScalars.append(scalar)
                index += 1
                continue
            }
            if index + 1 < scalars.count, scalars[index + 1] == "%" {
                out += "%"
                index += 2
                continue
            }
            // Tokens of the format (`%arg`, `%#@name@`) before printf specifiers.
            if let (token, replacement) = tokens.first(where: { token, _ in
                let tokenScalars = Array(token.unicodeScalars)
                return index + tokenScalars.count <= scalars.count && Array(scalars[index..<index + tokenScalars.count]) == tokenScalars
            }) {
                out += replacement
                index += token.unicodeScalars.count
                continue
            }
            guard let specifier = PrintfSpecifier.read(scalars, at: index) else {
                out += "%"
                index += 1
                continue
            }
            let position: Int
            if let explicit = specifier.position {
                sawPositional = true
                position = explicit
            } else {
                sawBare = true
                bareCount += 1
                position = bareCount
            }
            if sawPositional && sawBare {
                throw Problem(message: "placeholders with and without a position ('%1$s' and '%s') are mixed", offset: index)
            }
            if let poundPosition, position == poundPosition, specifier.isNumber {
                out += "#"
            } else {
                guard position <= names.count else {
                    throw Problem(message: "placeholder '%\(specifier.position.map { "\($0)$" } ?? "")\(specifier.conversion)' is argument \(position), but the argument order of '\(key)' has \(names.count): \(names.joined(separator: ", "))", offset: index)
                }
                let name = names[position - 1]
                out += specifier.isNumber ? "{\(name), number}" : "{\(name)}"
            }
            index += specifier.length
        }
        return out
    }
}
