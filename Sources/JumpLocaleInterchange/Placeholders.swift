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

    /// A decimal integer conversion (`d`, `i`, `u`, with or without a length): what a plain
    /// ICU number prints.
    var isDecimalInteger: Bool {
        guard let last = conversion.unicodeScalars.last else { return false }
        return "diu".unicodeScalars.contains(last)
    }

    /// N of `%.Nf`; nil for other conversions.
    var fractionDigits: Int? {
        guard conversion.hasPrefix("."), conversion.hasSuffix("f") else { return nil }
        return Int(conversion.dropFirst().dropLast())
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
/// Export: `{name}` becomes `%N$@` (`%N$s`), `{name, number}` becomes `%N$lld` (`%N$d`) and
/// `{name, number, ::.00}` becomes `%N$.2f`, where N is the name's declared position.
/// Everything else (plural, select, quoting) stays ICU source, so a value is ICU MessageFormat
/// with printf placeholders. A value is a *format string* (what Android's `getString(id, args)`
/// and Apple's `String(format:)` read) when it holds a placeholder, a `%%` or text that reads
/// as one: then every literal `%` is written `%%` (`100%% of %1$s`). A value with none of them
/// is written as it is (`100%`), as both platforms show a string used without arguments.
/// Import reads a value the same way (`%%` is `%` only in a format string), so round trips are
/// exact.
public struct PlaceholderMapping: Sendable {
    public var dialect: PrintfDialect
    public var order: ArgumentOrder

    public init(dialect: PrintfDialect, order: ArgumentOrder) {
        self.dialect = dialect
        self.order = order
    }

    /// A problem with a placeholder on import (an error), or a placeholder whose formatting
    /// ICU cannot say (a warning).
    public struct Problem: Error, Sendable, Hashable {
        public var message: String
        /// Scalar offset in the value.
        public var offset: Int
    }

    // MARK: export

    /// The printer that writes arguments as placeholders for `key`, every literal `%` doubled
    /// (`format`) or kept. In the cases of the plural named `pound` (when given) `#` becomes
    /// `poundText`, and `{pound, number}` stays ICU so that it is not confused with `#`.
    func printer(key: String, pound: (argument: String, text: String)? = nil, format: Bool = true) -> MessagePrinter {
        var printer = MessagePrinter()
        let order = order
        let dialect = dialect
        printer.replaceArgument = { node, context in
            switch node {
            // An argument the order lacks stays ICU (`{name}`), and so comes back as it was.
            case .argument(let argument) where argument.kind == .simple:
                return order.position(of: argument.name, for: key).map { "%\($0)$\(dialect.text)" }
            case .number(let argument):
                let conversion: String
                switch argument.style {
                case .plain: conversion = dialect.number
                case .other(let style):
                    guard let digits = Self.fractionDigits(style) else { return nil }
                    conversion = ".\(digits)f"
                default: return nil
                }
                if let pound, case .pluralCase(let name) = context, name == pound.argument, argument.name == pound.argument { return nil }
                return order.position(of: argument.name, for: key).map { "%\($0)$\(conversion)" }
            default:
                return nil
            }
        }
        if format { printer.transformEscapedText = { text, _ in PlaceholderMapping.doublePercent(text) } }
        if let pound {
            printer.replacePound = { context in
                if case .pluralCase(let name) = context, name == pound.argument { return pound.text }
                return nil
            }
        }
        return printer
    }

    /// A whole message as a printf value: a format string when it needs to be one, else its
    /// text as it is. Messages that do not parse are written as text, so they come back
    /// unchanged.
    public func export(key: String, text: String) -> String {
        guard let pattern = try? MessagePattern(parsing: text) else { return Self.literalOrFormat(text) }
        let literal = printer(key: key, format: false).source(pattern.nodes)
        return Self.readsAsFormat(literal) ? printer(key: key).source(pattern.nodes) : literal
    }

    /// `text` (holding no placeholder) as a value: as it is, or with every `%` doubled when it
    /// would read as a format string.
    static func literalOrFormat(_ text: String) -> String {
        readsAsFormat(text) ? doublePercent(text) : text
    }

    /// Every `%` doubled.
    public static func doublePercent(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return text }
        return text.replacingAll("%", with: "%%")
    }

    /// Whether `value` is a format string: it holds `%%`, a printf specifier or one of `tokens`.
    static func readsAsFormat(_ value: String, tokens: [String] = []) -> Bool {
        guard value.utf8.contains(UInt8(ascii: "%")) else { return false }
        let scalars = Array(value.unicodeScalars)
        let tokenScalars = tokens.map { Array($0.unicodeScalars) }
        for index in scalars.indices where scalars[index] == "%" {
            if index + 1 < scalars.count, scalars[index + 1] == "%" { return true }
            if PrintfSpecifier.read(scalars, at: index) != nil { return true }
            if tokenScalars.contains(where: { index + $0.count <= scalars.count && Array(scalars[index..<index + $0.count]) == $0 }) { return true }
        }
        return false
    }

    /// The digits of an ICU number skeleton `::.00` (exactly N fraction digits), N >= 1.
    static func fractionDigits(_ style: String) -> Int? {
        guard style.hasPrefix("::."), style.count > 3, style.dropFirst(3).allSatisfy({ $0 == "0" }) else { return nil }
        return style.count - 3
    }

    // MARK: import

    /// A printf value back as ICU source: placeholders become `{name}` / `{name, number}` /
    /// `{name, number, ::.00}` for `%.2f` (`#` for `poundPosition`'s numeric placeholder), each
    /// of `tokens` its replacement (`%arg` -> `#`), `%%` becomes `%`; a `%` that starts nothing
    /// stays. A value that is no format string (no specifier, `%%` or token) is text as it is.
    public func importValue(_ value: String, key: String, poundPosition: Int? = nil, tokens: [String: String] = [:]) throws(Problem) -> String {
        var warnings: [Problem] = []
        return try importValue(value, key: key, poundPosition: poundPosition, tokens: tokens, warnings: &warnings)
    }

    /// As `importValue(_:key:poundPosition:tokens:)`, adding to `warnings` each placeholder
    /// whose formatting ICU cannot say (`%x`, `%e`, `%.0f`, ...): it becomes a plain number.
    public func importValue(
        _ value: String, key: String, poundPosition: Int? = nil, tokens: [String: String] = [:],
        warnings: inout [Problem]
    ) throws(Problem) -> String {
        guard Self.readsAsFormat(value, tokens: Array(tokens.keys)) else { return value }
        let scalars = Array(value.unicodeScalars)
        let names = order.names(for: key)
        var out = ""
        var index = 0
        var firstPositional: String?
        var firstBare: String?
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
            let written = String(String.UnicodeScalarView(scalars[index..<index + specifier.length]))
            let position: Int
            if let explicit = specifier.position {
                firstPositional = firstPositional ?? written
                position = explicit
            } else {
                firstBare = firstBare ?? written
                bareCount += 1
                position = bareCount
            }
            if let firstPositional, let firstBare {
                throw Problem(message: "placeholders with and without a position ('\(firstPositional)' and '\(firstBare)') are mixed", offset: index)
            }
            if let poundPosition, position == poundPosition, specifier.isNumber {
                out += "#"
            } else {
                guard position <= names.count else {
                    throw Problem(
                        message:
                            "placeholder '\(written)' is argument \(position), but the argument order of '\(key)' has \(names.count): \(names.joined(separator: ", "))",
                        offset: index)
                }
                let name = names[position - 1]
                if specifier.isNumber {
                    let argument: String
                    if let digits = specifier.fractionDigits, digits > 0 {
                        argument = "{\(name), number, ::.\(String(repeating: "0", count: digits))}"
                    } else {
                        argument = "{\(name), number}"
                        if !specifier.isDecimalInteger {
                            warnings.append(
                                Problem(
                                    message:
                                        """
                                        placeholder '\(written)' becomes \(argument): its formatting ('\(specifier.conversion)') has no ICU \
                                        equivalent and is lost
                                        """,
                                    offset: index))
                        }
                    }
                    out += argument
                } else {
                    out += "{\(name)}"
                }
            }
            index += specifier.length
        }
        return out
    }
}
