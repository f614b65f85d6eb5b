import JumpDiagnostics

// Formats parsed ICU messages with CLDR cardinal plural rules and localized numbers.

/// A value for a message argument.
public enum MessageArgument: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case string(String)
    case int(Int)
    /// A decimal number as text, `-`? digits [`.` digits] [`e` [`+`|`-`] digits]: `"1.50"`,
    /// `"-3"`, `"1.2e3"` (the exponent is a power of ten: `1.2e3` is 1200).
    case decimal(String)
    /// A calendar date, for `date` arguments (midnight in the formatter's time zone).
    case date(CivilDate)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }

    /// The value as text, as a `select` compares it and a `string` argument prints it.
    public var text: String {
        switch self {
        case .string(let text), .decimal(let text): text
        case .int(let number): String(number)
        case .date(let date): date.description
        }
    }
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

/// Formats `MessagePattern`s for one locale, as ICU4C's MessageFormat does with CLDR 47 data
/// (docs/locales.md lists the differences).
///
/// - Simple arguments (`{name}`): strings verbatim; numbers as `{name, number}` does; dates
///   (`CivilDate`) in the short date and time, as ICU formats a date in `{name}`.
/// - `number`: the locale's decimal pattern (at most three fraction digits, rounded half-even:
///   3.14159 gives 3.142); `integer` (no fraction digits), `percent`, `currency` (the currency of
///   the tag's region or its `-u-cu-` keyword), a DecimalFormat pattern (`#,##0.00`) or an ICU
///   number skeleton (`::currency/EUR`, `::percent .00`, `::compact-short`, `::sign-always`).
///   Values are exact decimals (`decimal` text, `int`, or a `string` that reads as a number);
///   an exponent is a power of ten (`1.5e6` is 1,500,000).
/// - `date` and `time`: `short`, `medium` (the default), `long`, `full`, a pattern
///   (`yyyy-MM-dd`) or a skeleton (`::yMMMd`), from the locale's CLDR Gregorian data. Values are
///   `CivilDate`s, ISO 8601 text (`2024-01-15`, `2024-01-15T10:00:00Z`,
///   `2024-01-15T10:00:00+02:00`; without an offset the time is the formatter's zone's) or
///   milliseconds since 1970 (`int`). They are shown in `timeZone` (UTC unless given).
/// - `plural` and `selectordinal`: an `=N` case equal to the value wins; otherwise the case of
///   the CLDR cardinal (ordinal) category of the value minus the offset as `#` shows it
///   (`1.0` shows `1`, so it is `one` in English, as in ICU); otherwise `other`.
/// - `select`: the case whose key equals the value's text, otherwise `other`.
///
/// A missing argument, or a value of the wrong kind, throws (ICU prints `{name}` for a missing
/// argument; jump-forms refuses it so that a forgotten value never reaches a user). Only the
/// cases chosen are formatted, so an argument used only in another case need not be given.
public struct MessageFormatter: Sendable {
    /// The locale whose plural rules, number and date data are used.
    public let localeTag: String
    public let pluralRules: PluralRules
    /// The ordinal rules (`selectordinal`).
    public let ordinalRules: PluralRules
    public let numberSymbols: NumberSymbols
    /// The zone dates and times are shown in.
    public let timeZone: MessageTimeZone
    let locale: CLDRLocale
    /// The locale's number data and decimal format, found once per formatter: a plural formats
    /// its value to choose a case (locale checks format every plural message many times).
    let numberData: LocaleNumberData

    /// A formatter for `localeTag` (BCP 47: `de-CH`, `en-US-u-cu-eur`), showing times in
    /// `timeZone`.
    public init(localeTag: String, timeZone: MessageTimeZone = .utc) {
        self.localeTag = localeTag
        self.pluralRules = PluralRules.cardinal(for: localeTag)
        self.ordinalRules = PluralRules.ordinal(for: localeTag)
        self.numberSymbols = NumberSymbols.forLocale(localeTag)
        self.timeZone = timeZone
        self.locale = CLDRLocale.resolve(localeTag)
        self.numberData = LocaleNumberData.forLocale(locale)
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

    /// Whether `text` is a number a `decimal` argument accepts (`12`, `-3.5`, `1e3`).
    public static func readsAsNumber(_ text: String) -> Bool { DecimalNumber(text) != nil }

    /// Why a `number` style cannot be used (a bad skeleton or pattern), or nil.
    public static func numberStyleError(_ style: MessageNumberStyle) -> String? {
        guard case .other(let text) = style else { return nil }
        do {
            _ = try numberFormat(text, locale: CLDRLocale.resolve("root"))
            return nil
        } catch {
            return error.message
        }
    }

    /// Why a `date` or `time` style cannot be used, or nil.
    public static func dateStyleError(_ style: String?) -> String? {
        guard let style else { return nil }
        do {
            _ = try DatePattern.forStyle(style, kind: .date, locale: CLDRLocale.resolve("root"))
            return nil
        } catch {
            return error.message
        }
    }

    // MARK: Nodes

    private func append<Output: FormattedText>(
        _ nodes: [MessageNode], _ arguments: [String: MessageArgument], pound: PoundValue?,
        to output: inout Output
    ) throws(MessageFormatError) {
        for node in nodes {
            switch node {
            case .text(let text):
                output.write(text)
            case .pound:
                // The parser creates `#` nodes only inside plural cases, so `pound` is set.
                if let pound { output.write(pound.text) }
            case .argument(let argument):
                let value = try lookUp(argument.name, arguments)
                switch (argument.kind, value) {
                case (.simple, .string(let text)):
                    output.write(text)
                case (.simple, .date(let date)):
                    let pattern = try datePattern("short", kind: .dateTime, argument.name)
                    output.write(pattern.format(DateTimeValue(date), locale: locale))
                case (.simple, _):
                    let number = try numericValue(value, argument.name)
                    output.write(numberData.decimalFormat.format(number, data: numberData, locale: locale).text)
                case (.date, _), (.time, _):
                    let moment = try dateValue(value, argument.name)
                    let pattern = try datePattern(argument.style, kind: argument.kind == .date ? .date : .time, argument.name)
                    output.write(pattern.format(moment, locale: locale))
                }
            case .number(let argument):
                let value = try numericValue(try lookUp(argument.name, arguments), argument.name)
                let format = try numberFormat(argument.style, argument.name)
                output.write(format.format(value, data: numberData, locale: locale).text)
            case .select(let argument):
                let key = try lookUp(argument.name, arguments).text
                let chosen = argument.cases.first { $0.key == key } ?? argument.cases.first { $0.key == "other" }
                if let chosen { try append(chosen.message, arguments, pound: nil, to: &output) }
            case .plural(let argument):
                let value = try numericValue(try lookUp(argument.name, arguments), argument.name)
                let shifted = argument.pluralOffset == 0 ? value : value.adding(DecimalNumber(argument.pluralOffset).negated)
                let formatted = numberData.decimalFormat.format(shifted, data: numberData, locale: locale)
                let chosen = pluralCase(argument, value: value, shown: formatted.quantity)
                try append(chosen.message, arguments, pound: PoundValue(text: formatted.text), to: &output)
            }
        }
    }

    private func pluralCase(_ argument: MessagePluralArgument, value: DecimalNumber, shown: DecimalNumber) -> MessagePluralCase {
        let exact = value.normalized
        for item in argument.cases {
            if case .exact(let text) = item.key, DecimalNumber(text)?.normalized == exact { return item }
        }
        let rules = argument.isOrdinal ? ordinalRules : pluralRules
        let category = PluralOperands(shown.plainText).map { rules.category(for: $0) } ?? .other
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

    private func numericValue(_ argument: MessageArgument, _ name: String) throws(MessageFormatError) -> DecimalNumber {
        switch argument {
        case .int(let number):
            return DecimalNumber(number)
        case .decimal(let text), .string(let text):
            guard let number = DecimalNumber(text) else {
                throw MessageFormatError(message: "argument '\(name)' must be a number, not '\(text)'", argument: name)
            }
            return number
        case .date(let date):
            throw MessageFormatError(message: "argument '\(name)' must be a number, not the date \(date)", argument: name)
        }
    }

    private func dateValue(_ argument: MessageArgument, _ name: String) throws(MessageFormatError) -> DateTimeValue {
        switch argument {
        case .date(let date):
            return DateTimeValue(date)
        case .int(let milliseconds):
            return DateTimeValue(epochMilliseconds: milliseconds, timeZone: timeZone)
        case .decimal(let text), .string(let text):
            if let value = DateTimeValue(iso: text, timeZone: timeZone) { return value }
            if let number = DecimalNumber(text), let milliseconds = Int(number.rounded(toPower: 0, .floor).plainText) {
                return DateTimeValue(epochMilliseconds: milliseconds, timeZone: timeZone)
            }
            throw MessageFormatError(
                message: "argument '\(name)' must be a date (ISO 8601, as in 2024-01-15 or 2024-01-15T10:00:00Z), not '\(text)'", argument: name)
        }
    }

    private func numberFormat(_ style: MessageNumberStyle, _ name: String) throws(MessageFormatError) -> NumberFormat {
        switch style {
        case .plain: return numberData.decimalFormat
        case .integer: return NumberFormat.integer(locale)
        case .other(let text):
            do {
                return try Self.numberFormat(text, locale: locale)
            } catch {
                throw MessageFormatError(message: "argument '\(name)': \(error.message)", argument: name)
            }
        }
    }

    struct StyleError: Error { var message: String }

    static func numberFormat(_ text: String, locale: CLDRLocale) throws(StyleError) -> NumberFormat {
        switch text.lowercased() {
        case "percent": return NumberFormat.percent(locale)
        case "currency": return NumberFormat.currency(locale)
        case "integer": return NumberFormat.integer(locale)
        default: break
        }
        if text.hasPrefix("::") {
            do {
                return try NumberSkeleton.parse(String(text.dropFirst(2)))
            } catch {
                throw StyleError(message: "number skeleton '\(text)': \(error.message)")
            }
        }
        do {
            return try NumberFormat.custom(text, locale: locale)
        } catch {
            throw StyleError(message: "number pattern '\(text)': \(error.message)")
        }
    }

    private func datePattern(_ style: String?, kind: DatePattern.Kind, _ name: String) throws(MessageFormatError) -> DatePattern {
        do {
            return try DatePattern.forStyle(style ?? "medium", kind: kind, locale: locale)
        } catch {
            throw MessageFormatError(message: "argument '\(name)': \(error.message)", argument: name)
        }
    }
}

/// What `#` shows in a plural case.
struct PoundValue {
    var text: String
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
