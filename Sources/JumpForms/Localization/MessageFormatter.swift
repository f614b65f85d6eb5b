// Formats parsed ICU messages with CLDR cardinal plural rules and localized numbers.

/// A value for a message argument.
public enum MessageArgument: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case string(String)
    case int(Int)
    /// A decimal number as text, `-`? digits [`.` digits] [`e` [`+`|`-`] digits]: `"1.50"`,
    /// `"-3"`, `"1.2e3"`. Visible fraction digits count for plural rules (`1.50` has two).
    case decimal(String)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
}

/// A failure to format a well-formed message with the given arguments.
public struct MessageFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong, as an English sentence without a final period.
    public var message: String
    /// The argument concerned, if any.
    public var argument: String?

    public init(message: String, argument: String? = nil) {
        self.message = message
        self.argument = argument
    }

    public var description: String { message }
}

/// Formats `MessagePattern`s for one locale.
///
/// - Simple arguments (`{name}`): strings verbatim; `int` and `decimal` values as localized
///   numbers (as ICU does for numeric values).
/// - `number`: localized with the locale's `NumberSymbols`; style `integer` rounds half-even
///   first; any other style formats as a plain number. A `decimal` keeps its fraction digits
///   (`1.50` shows two). A `string` value that reads as a decimal number is accepted.
/// - `date` and `time`: the argument's text, unformatted (`int` values in plain digits).
/// - `plural`: an `=N` case equal to the value wins; otherwise the case of the CLDR cardinal
///   category of the value minus the offset; otherwise `other`. `#` shows the value minus the
///   offset, localized.
/// - `selectordinal`: ordinal rules are not available, so an `=N` case equal to the value wins
///   and otherwise `other` is used; `#` works as in `plural`.
/// - `select`: the case whose key equals the value's text, otherwise `other`.
///
/// A missing argument, or a non-numeric value where a number is needed, throws. Only the
/// cases chosen are formatted, so an argument used only in another case need not be given.
public struct MessageFormatter: Sendable {
    /// The locale whose plural rules and number symbols are used.
    public let localeTag: String
    public let pluralRules: PluralRules
    public let numberSymbols: NumberSymbols

    /// A formatter using `PluralRules.cardinal(for:)` and `NumberSymbols.forLocale(_:)`.
    public init(localeTag: String) {
        self.localeTag = localeTag
        self.pluralRules = PluralRules.cardinal(for: localeTag)
        self.numberSymbols = NumberSymbols.forLocale(localeTag)
    }

    /// Formats `pattern` with `arguments`.
    public func format(_ pattern: MessagePattern, _ arguments: [String: MessageArgument]) throws(MessageFormatError) -> String {
        var output = ""
        try append(pattern.nodes, arguments, pound: nil, to: &output)
        return output
    }

    /// Throws what `format` would throw, without building the text (locale checks format
    /// every message with many sample values only to find the failures).
    public func validate(_ pattern: MessagePattern, _ arguments: [String: MessageArgument]) throws(MessageFormatError) {
        var output = DiscardedText()
        try append(pattern.nodes, arguments, pound: nil, to: &output)
    }

    /// Parses `source` and formats it; a syntax error becomes a format error.
    public func format(_ source: String, _ arguments: [String: MessageArgument]) throws(MessageFormatError) -> String {
        let pattern: MessagePattern
        do {
            pattern = try MessagePattern(parsing: source)
        } catch {
            throw MessageFormatError(message: "syntax error at offset \(error.offset): \(error.message)")
        }
        return try format(pattern, arguments)
    }

    // MARK: Nodes

    private func append<Output: FormattedText>(_ nodes: [MessageNode], _ arguments: [String: MessageArgument], pound: NumericValue?,
                                               to output: inout Output) throws(MessageFormatError) {
        for node in nodes {
            switch node {
            case .text(let text):
                output.write(text)
            case .pound:
                // The parser creates `#` nodes only inside plural cases, so `pound` is set.
                if let pound { output.write(format(pound)) }
            case .argument(let argument):
                let value = try lookUp(argument.name, arguments)
                switch (argument.kind, value) {
                case (_, .string(let text)):
                    output.write(text)
                case (.simple, _):
                    let number = try numericValue(value, argument.name)
                    output.write(format(number))
                case (_, .int(let number)):
                    output.write(String(number))
                case (_, .decimal(let text)):
                    output.write(text)
                }
            case .number(let argument):
                var value = try numericValue(try lookUp(argument.name, arguments), argument.name)
                if argument.style == .integer { value = value.rounded }
                output.write(format(value))
            case .select(let argument):
                let key: String = switch try lookUp(argument.name, arguments) {
                case .string(let text): text
                case .int(let number): String(number)
                case .decimal(let text): text
                }
                let chosen = argument.cases.first { $0.key == key } ?? argument.cases.first { $0.key == "other" }
                if let chosen { try append(chosen.message, arguments, pound: nil, to: &output) }
            case .plural(let argument):
                let value = try numericValue(try lookUp(argument.name, arguments), argument.name)
                let shifted = value.subtracting(argument.pluralOffset)
                let chosen = try pluralCase(argument, value: value, shifted: shifted)
                try append(chosen.message, arguments, pound: shifted, to: &output)
            }
        }
    }

    private func pluralCase(_ argument: MessagePluralArgument, value: NumericValue, shifted: NumericValue) throws(MessageFormatError) -> MessagePluralCase {
        let exact = value.decimal.normalized
        for item in argument.cases {
            if case .exact(let text) = item.key, DecimalNumber(text)?.normalized == exact { return item }
        }
        var category = PluralCategory.other
        if !argument.isOrdinal {
            let operands: PluralOperands? = switch shifted {
            case .int(let number): PluralOperands(number)
            case .decimal(let text, _): PluralOperands(text)
            }
            guard let operands else {
                throw MessageFormatError(message: "plural argument '\(argument.name)' has the value '\(shifted.text)', which the plural rules cannot read", argument: argument.name)
            }
            category = pluralRules.category(for: operands)
        }
        for item in argument.cases where item.key == .category(category) { return item }
        // The parser guarantees an `other` case.
        return argument.cases.first { $0.key == .category(.other) }!
    }

    // MARK: Values

    private func lookUp(_ name: String, _ arguments: [String: MessageArgument]) throws(MessageFormatError) -> MessageArgument {
        guard let value = arguments[name] else {
            throw MessageFormatError(message: "missing argument '\(name)'", argument: name)
        }
        return value
    }

    private func numericValue(_ argument: MessageArgument, _ name: String) throws(MessageFormatError) -> NumericValue {
        switch argument {
        case .int(let number):
            return .int(number)
        case .decimal(let text), .string(let text):
            guard let number = DecimalNumber(text) else {
                throw MessageFormatError(message: "argument '\(name)' must be a number, not '\(text)'", argument: name)
            }
            // Whole numbers written plainly ("42") become Int; anything else keeps its text.
            if number.scale == 0, text.unicodeScalars.allSatisfy({ $0 == "-" || ("0"..."9").contains($0) }), let int = Int(text) {
                return .int(int)
            }
            return .decimal(text, number)
        }
    }

    private func format(_ value: NumericValue) -> String {
        switch value {
        case .int(let number): numberSymbols.format(integer: number)
        case .decimal(let text, _): numberSymbols.format(decimal: text)
        }
    }
}

/// Where `MessageFormatter` writes a message's pieces: the formatted string, or nowhere when
/// only whether the message formats matters. A piece is worked out only when it is kept.
protocol FormattedText {
    mutating func write(_ piece: @autoclosure () -> String)
}

extension String: FormattedText {
    mutating func write(_ piece: @autoclosure () -> String) { self += piece() }
}

/// Drops every piece (and never works one out).
struct DiscardedText: FormattedText {
    func write(_ piece: @autoclosure () -> String) {}
}

/// A numeric argument value: an Int, or decimal text with its parsed form.
enum NumericValue: Sendable, Hashable {
    case int(Int)
    case decimal(String, DecimalNumber)

    var decimal: DecimalNumber {
        switch self {
        case .int(let number): DecimalNumber(number)
        case .decimal(_, let number): number
        }
    }

    var text: String {
        switch self {
        case .int(let number): String(number)
        case .decimal(let text, _): text
        }
    }

    /// The value minus `offset`; decimal text keeps its fraction digits (2.50 - 1 = 1.50).
    func subtracting(_ offset: Int) -> NumericValue {
        guard offset != 0 else { return self }
        if case .int(let number) = self {
            let (difference, overflow) = number.subtractingReportingOverflow(offset)
            if !overflow { return .int(difference) }
        }
        return NumericValue(decimal.adding(DecimalNumber(offset).negated))
    }

    /// Rounded half-even to a whole number.
    var rounded: NumericValue {
        switch self {
        case .int: self
        case .decimal(_, let number): NumericValue(number.roundedHalfEven)
        }
    }

    init(_ number: DecimalNumber) {
        let text = number.plainText
        if number.scale == 0, let int = Int(text) { self = .int(int) } else { self = .decimal(text, number) }
    }
}

