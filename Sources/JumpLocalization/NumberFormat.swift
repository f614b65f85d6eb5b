import JumpDiagnostics

/// How a number is formatted: the settings of an ICU DecimalFormat pattern (`{n, number}`,
/// `percent`, `currency`, `#,##0.00`) or of an ICU number skeleton (`::currency/EUR .00`).
/// `NumberFormat.format` applies them with a locale's CLDR data, as ICU4C does.
struct NumberFormat: Sendable, Hashable {
    enum Notation: Sendable, Hashable {
        case simple
        case compactShort, compactLong
        case scientific, engineering
    }

    enum Unit: Sendable, Hashable {
        case none
        case percent
        case permille
        /// An ISO 4217 code; nil for the locale's currency.
        case currency(String?)
    }

    enum UnitWidth: String, Sendable, Hashable {
        case short, narrow, fullName = "full-name", isoCode = "iso-code", hidden
    }

    enum Precision: Sendable, Hashable {
        /// The default: ICU's for the notation and unit (see `resolvedPrecision`).
        case automatic
        case unlimited
        case fraction(min: Int, max: Int?)
        case significant(min: Int, max: Int?)
        /// Fraction digits with a significant-digit bound (`.##/@@+`, `.00/@##`): ICU's rounding
        /// priority `relaxed` takes the more precise of the two, `strict` the less.
        case fractionSignificant(minFraction: Int, maxFraction: Int, minSignificant: Int, maxSignificant: Int, relaxed: Bool)
        case increment(DecimalNumber)
        case currencyStandard
    }

    enum SignDisplay: String, Sendable, Hashable {
        case auto, always, never, accounting
        case accountingAlways = "accounting-always"
        case exceptZero = "except-zero"
        case accountingExceptZero = "accounting-except-zero"
        case negative
        case accountingNegative = "accounting-negative"

        var isAccounting: Bool { rawValue.hasPrefix("accounting") }
    }

    enum Grouping: Sendable, Hashable {
        /// The pattern's sizes and the locale's minimumGroupingDigits (ICU's `auto`).
        case auto
        case off
        case min2
        /// The pattern's sizes, a group even for one digit (ICU's `on-aligned`).
        case onAligned
        case thousands
    }

    var notation: Notation = .simple
    var unit: Unit = .none
    var unitWidth: UnitWidth = .short
    var precision: Precision = .automatic
    var roundingMode: RoundingMode = .halfEven
    var signDisplay: SignDisplay = .auto
    var grouping: Grouping = .auto
    var minInteger = 1
    /// Integer digits beyond this are dropped (`integer-width/##0`).
    var maxInteger: Int?
    /// Multiplies the value before formatting (`scale/100`, and `%` in a DecimalFormat pattern).
    var multiplier: DecimalNumber?
    var decimalAlwaysShown = false
    /// A DecimalFormat pattern whose affixes and grouping replace the locale's (custom styles).
    var pattern: NumberPattern?
    /// True for DecimalFormat (every `number` style but skeletons): ICU then ignores the
    /// locale's minimumGroupingDigits, and plural selection reads the formatted number.
    var isDecimalFormat = false

    /// A formatted number, and the number as displayed (rounded, with its visible fraction
    /// digits), which ICU's plural rules read.
    struct Result: Sendable {
        var text: String
        var quantity: DecimalNumber
        var negative: Bool
    }

    // MARK: The DecimalFormat styles of MessageFormat

    /// `{n}`, `{n, number}` and `#`: the locale's decimal pattern (`#,##0.###`).
    /// Made once per CLDR id (`LocaleNumberData.decimalFormat`): messages format every plural
    /// value with it.
    static func decimal(_ locale: CLDRLocale) -> NumberFormat {
        LocaleNumberData.forLocale(locale).decimalFormat
    }

    /// `{n, number, integer}`: the decimal pattern without fraction digits.
    static func integer(_ locale: CLDRLocale) -> NumberFormat {
        var format = decimal(locale)
        format.precision = .fraction(min: 0, max: 0)
        format.decimalAlwaysShown = false
        return format
    }

    /// `{n, number, percent}`: the percent pattern, times 100.
    static func percent(_ locale: CLDRLocale) -> NumberFormat {
        fromPattern(locale.number("p.percent") ?? "#,##0%", locale: locale, currencyDigits: false)
    }

    /// `{n, number, currency}`: the currency pattern with the locale's currency and its digits.
    static func currency(_ locale: CLDRLocale) -> NumberFormat {
        fromPattern(locale.number("p.currency") ?? "¤#,##0.00", locale: locale, currencyDigits: true)
    }

    /// A custom style (`#,##0.00`, `00.#%`); nil with the pattern's error.
    static func custom(_ text: String, locale: CLDRLocale) throws(NumberPattern.SyntaxError) -> NumberFormat {
        let pattern = try NumberPattern(parsing: text)
        return fromPattern(pattern, currencyDigits: false)
    }

    private static func fromPattern(_ text: String, locale: CLDRLocale, currencyDigits: Bool) -> NumberFormat {
        // CLDR's patterns always parse; a broken one would be a generator bug.
        let pattern = (try? NumberPattern(parsing: text)) ?? (try! NumberPattern(parsing: "#,##0.###"))
        return fromPattern(pattern, currencyDigits: currencyDigits)
    }

    fileprivate static func fromPattern(_ pattern: NumberPattern, currencyDigits: Bool) -> NumberFormat {
        var format = NumberFormat()
        format.pattern = pattern
        format.isDecimalFormat = true
        format.minInteger = pattern.minInteger
        format.decimalAlwaysShown = pattern.decimalAlwaysShown
        if pattern.exponentDigits > 0 { format.notation = .scientific }
        if let sign = pattern.currencySign {
            format.unit = .currency(nil)
            format.unitWidth = sign == 2 ? .isoCode : .short
        } else if pattern.hasPercent {
            format.unit = .percent
            format.multiplier = DecimalNumber(100)
        } else if pattern.hasPermille {
            format.unit = .permille
            format.multiplier = DecimalNumber(1000)
        }
        if currencyDigits {
            format.precision = .currencyStandard
        } else if pattern.maxSignificant > 0 {
            format.precision = .significant(min: pattern.minSignificant, max: pattern.maxSignificant)
        } else if let increment = pattern.increment {
            format.precision = .increment(increment)
        } else {
            format.precision = .fraction(min: pattern.minFraction, max: pattern.maxFraction)
        }
        return format
    }

    // MARK: Formatting

    /// Formats `value` (negative zero when `negative` and zero) for `locale`.
    func format(_ value: DecimalNumber, negative: Bool? = nil, locale: CLDRLocale) -> Result {
        format(value, negative: negative, data: LocaleNumberData.forLocale(locale), locale: locale)
    }

    /// `format(_:negative:locale:)` with the locale's number data at hand (`data` is
    /// `LocaleNumberData.forLocale(locale)`).
    func format(_ value: DecimalNumber, negative: Bool? = nil, data: LocaleNumberData, locale: CLDRLocale) -> Result {
        let isNegative = negative ?? value.negative
        var quantity = value.absolute
        if let multiplier { quantity = quantity.multiplied(by: multiplier.absolute) }
        if let multiplier, multiplier.negative {
            return formatSigned(quantity, negative: !isNegative, data: data, locale: locale)
        }
        return formatSigned(quantity, negative: isNegative, data: data, locale: locale)
    }

    private var currencyCode: String? {
        guard case .currency(let code) = unit else { return nil }
        return code
    }

    private func resolvedCurrency(_ locale: CLDRLocale) -> String {
        currencyCode ?? locale.defaultCurrency ?? "XXX"
    }

    /// ICU's default precision: two significant digits at most in compact notation, the
    /// currency's digits, else up to six fraction digits.
    private func resolvedPrecision(_ locale: CLDRLocale) -> Precision {
        switch precision {
        case .automatic:
            if notation == .compactShort || notation == .compactLong {
                return .fractionSignificant(minFraction: 0, maxFraction: 0, minSignificant: 1, maxSignificant: 2, relaxed: true)
            }
            if case .currency = unit { return currencyPrecision(locale) }
            return .fraction(min: 0, max: 6)
        case .currencyStandard:
            return currencyPrecision(locale)
        default:
            return precision
        }
    }

    private func currencyPrecision(_ locale: CLDRLocale) -> Precision {
        let digits = CLDRFormatData.currencyDigits[resolvedCurrency(locale)] ?? 2
        return .fraction(min: digits, max: digits)
    }

    /// Rounds `value` (non-negative) and returns it with its display fraction digits.
    private func round(_ value: DecimalNumber, _ precision: Precision) -> DecimalNumber {
        var value = value
        var minFraction = 0
        switch precision {
        case .automatic, .currencyStandard, .unlimited:
            break
        case .fraction(let min, let max):
            if let max { value = value.rounded(toPower: -max, roundingMode) }
            minFraction = min
        case .significant(let min, let max):
            if let max { value = value.rounded(toPower: value.magnitude - max + 1, roundingMode) }
            minFraction = Swift.max(0, -(value.magnitude - min + 1))
        case .fractionSignificant(let minF, let maxF, let minS, let maxS, let relaxed):
            let byFraction = -maxF
            let bySignificant = value.magnitude - maxS + 1
            let power = relaxed ? Swift.min(byFraction, bySignificant) : Swift.max(byFraction, bySignificant)
            value = value.rounded(toPower: power, roundingMode)
            let displayFraction = minF == 0 ? Int.max : -minF
            let displaySignificant = value.magnitude - minS + 1
            minFraction = Swift.max(0, -Swift.min(displayFraction, displaySignificant))
        case .increment(let increment):
            value = Self.round(value, toIncrement: increment, roundingMode)
            minFraction = increment.scale
        }
        return value.normalized.withMinimumFraction(minFraction)
    }

    /// Rounded to a multiple of `increment` (`0.05`, `25`).
    static func round(_ value: DecimalNumber, toIncrement increment: DecimalNumber, _ mode: RoundingMode) -> DecimalNumber {
        // value / increment, rounded to an integer, times increment; with increment = m × 10^-s,
        // value × 10^s / m in long division by the small integer m.
        let normalizedIncrement = increment.normalized
        guard let mantissa = Int(normalizedIncrement.digits.map(String.init).joined()), mantissa > 0 else { return value }
        let shifted = value.shifted(by: normalizedIncrement.scale)
        var quotient: [UInt8] = []
        var remainder = 0
        for digit in shifted.digits {
            let current = remainder * 10 + Int(digit)
            quotient.append(UInt8(current / mantissa))
            remainder = current % mantissa
        }
        // The quotient has shifted.scale fraction digits; the remainder decides the rest.
        var exact = DecimalNumber(negative: value.negative, digits: quotient, scale: shifted.scale)
        if remainder != 0 {
            // Append enough digits of remainder / mantissa to round correctly.
            var extra: [UInt8] = []
            var r = remainder
            for _ in 0..<(String(mantissa).count + 2) {
                r *= 10
                extra.append(UInt8(r / mantissa))
                r %= mantissa
            }
            if r != 0 { extra.append(1) }
            exact = DecimalNumber(negative: value.negative, digits: quotient + extra, scale: shifted.scale + extra.count)
        }
        let rounded = exact.rounded(toPower: 0, mode)
        return rounded.multiplied(by: normalizedIncrement)
    }

    private func formatSigned(_ quantity: DecimalNumber, negative: Bool, data: LocaleNumberData, locale: CLDRLocale) -> Result {
        let precision = resolvedPrecision(locale)
        var value = quantity
        var exponent = 0
        var compactPattern: NumberPattern?

        switch notation {
        case .simple:
            value = round(value, precision)
        case .compactShort, .compactLong:
            let table = compactTable(data: data)
            if value.isZero {
                value = round(value, precision)
            } else {
                let magnitude = value.magnitude
                var multiplier = table.multiplier(magnitude)
                value = round(quantity.shifted(by: multiplier), precision)
                if !value.isZero, value.magnitude != magnitude + multiplier {
                    let next = table.multiplier(magnitude + 1)
                    if next != multiplier {
                        value = round(quantity.shifted(by: next), precision)
                        multiplier = next
                    }
                }
                exponent = -multiplier
            }
            let magnitude = (value.isZero ? 0 : value.magnitude) + exponent
            if let literal = table.literal(magnitude: magnitude, value: value, rules: data.pluralRules) {
                // A pattern without digits ("mille" for one thousand in French) is the whole text.
                let signType = Self.signType(signDisplay, negative: negative, zero: false)
                let sign = signType == .negative ? data.symbol("minusSign") : signType == .positiveSign ? data.symbol("plusSign") : ""
                return Result(text: sign + literal, quantity: value, negative: signType == .negative)
            }
            compactPattern = table.pattern(magnitude: magnitude, value: value, rules: data.pluralRules)
            if compactPattern == nil, exponent != 0 {
                // No compact form at this magnitude: the value as a plain number.
                value = value.shifted(by: exponent)
                exponent = 0
            }
        case .scientific, .engineering:
            var power = value.isZero ? 0 : value.magnitude
            if notation == .engineering { power = Int((Double(power) / 3).rounded(.down)) * 3 }
            value = round(quantity.shifted(by: -power), precision)
            if !value.isZero, value.magnitude >= (notation == .engineering ? 3 : 1) {
                power += notation == .engineering ? 3 : 1
                value = round(quantity.shifted(by: -power), precision)
            }
            exponent = power
        }

        let isZero = value.isZero
        let signType = Self.signType(signDisplay, negative: negative, zero: isZero)
        var digits = integerAndFraction(value, data: data)
        if notation == .scientific || notation == .engineering {
            let exponentText = digitsText(String(abs(exponent)), data: data)
            let minDigits = pattern?.exponentDigits ?? 1
            let padded = String(repeating: data.digit(0), count: Swift.max(0, minDigits - String(abs(exponent)).count)) + exponentText
            digits +=
                data.symbol("exponential")
                + (exponent < 0 ? data.symbol("minusSign") : (pattern?.exponentShowsPlus == true ? data.symbol("plusSign") : "")) + padded
        }

        // Affixes: the compact pattern's, else the custom pattern's, else the locale's.
        let affixPattern: NumberPattern = compactPattern ?? pattern ?? localePattern(data: data)
        let currency = resolvedCurrency(locale)
        let symbol = currencySymbol(currency, width: unitWidth, data: data)
        let (prefix, suffix) = affixes(affixPattern, signType: signType, data: data, currencySymbol: symbol)
        var text = prefix.text
        if prefix.currencyAtEnd, let last = prefix.text.unicodeScalars.last, let first = digits.unicodeScalars.first,
            Self.currencySpacingApplies(currencyScalar: last, digitScalar: first)
        {
            text += "\u{00A0}"
        }
        text += digits
        if suffix.currencyAtStart, let first = suffix.text.unicodeScalars.first, let last = digits.unicodeScalars.last,
            Self.currencySpacingApplies(currencyScalar: first, digitScalar: last)
        {
            text += "\u{00A0}"
        }
        text += suffix.text
        return Result(text: text, quantity: value, negative: signType == .negative)
    }

    // MARK: Digits

    private func integerAndFraction(_ value: DecimalNumber, data: LocaleNumberData) -> String {
        let integerCount = value.integerDigitCount
        var integerDigits = Array(value.digits.prefix(integerCount))
        if integerDigits.count == 1, integerDigits[0] == 0 { integerDigits = [] }
        if integerDigits.count < minInteger {
            integerDigits.insert(contentsOf: repeatElement(0, count: minInteger - integerDigits.count), at: 0)
        }
        if let maxInteger, integerDigits.count > maxInteger {
            integerDigits = Array(integerDigits.suffix(maxInteger))
        }
        let (primary, secondary, minGrouping) = groupingSizes(data: data)
        var integerText = ""
        let count = integerDigits.count
        for (index, digit) in integerDigits.enumerated() {
            let position = count - 1 - index  // the power of ten of this digit
            integerText += data.digit(digit)
            if position > 0, primary > 0 {
                let afterPrimary = position - primary
                if afterPrimary >= 0, afterPrimary % secondary == 0, count - primary >= minGrouping {
                    integerText += data.symbol(isCurrency ? "currencyGroup" : "group")
                }
            }
        }
        let fraction = value.digits.suffix(value.scale)
        if fraction.isEmpty {
            return decimalAlwaysShown ? integerText + data.symbol(isCurrency ? "currencyDecimal" : "decimal") : integerText
        }
        return integerText + data.symbol(isCurrency ? "currencyDecimal" : "decimal") + fraction.map { data.digit($0) }.joined()
    }

    private var isCurrency: Bool {
        if case .currency = unit { return true }
        return false
    }

    private func digitsText(_ ascii: String, data: LocaleNumberData) -> String {
        ascii.unicodeScalars.map { data.digit(UInt8($0.value - 0x30)) }.joined()
    }

    /// The primary and secondary group sizes and the minimum grouping digits.
    private func groupingSizes(data: LocaleNumberData) -> (Int, Int, Int) {
        let source = pattern ?? localePattern(data: data)
        var primary = source.primaryGrouping
        var secondary = source.secondaryGrouping > 0 ? source.secondaryGrouping : primary
        if notation == .compactShort || notation == .compactLong {
            // Compact patterns have no grouping of their own: the decimal pattern's applies.
            let decimal = data.pattern("p.decimal")
            primary = decimal.primaryGrouping
            secondary = decimal.secondaryGrouping > 0 ? decimal.secondaryGrouping : primary
        }
        switch grouping {
        case .off:
            return (0, 0, 1)
        case .thousands:
            return (3, 3, 1)
        case .onAligned:
            return (primary, secondary, 1)
        case .min2:
            return (primary, secondary, Swift.max(2, data.minimumGrouping))
        case .auto:
            if isDecimalFormat { return (primary, secondary, 1) }
            if notation == .compactShort || notation == .compactLong { return (primary, secondary, Swift.max(2, data.minimumGrouping)) }
            return (primary, secondary, data.minimumGrouping)
        }
    }

    // MARK: Affixes

    /// The locale's pattern for the unit: currency (accounting with an accounting sign),
    /// percent, else decimal.
    private func localePattern(data: LocaleNumberData) -> NumberPattern {
        switch unit {
        case .currency:
            return data.pattern(signDisplay.isAccounting ? "p.accounting" : "p.currency")
        case .percent, .permille:
            return data.pattern("p.percent")
        case .none:
            return data.pattern("p.decimal")
        }
    }

    enum SignType { case negative, positive, positiveSign }

    /// ICU's PatternStringUtils::resolveSignDisplay.
    static func signType(_ display: SignDisplay, negative: Bool, zero: Bool) -> SignType {
        switch display {
        case .auto, .accounting:
            return negative ? .negative : .positive
        case .always, .accountingAlways:
            return negative ? .negative : .positiveSign
        case .exceptZero, .accountingExceptZero:
            if zero { return .positive }
            return negative ? .negative : .positiveSign
        case .negative, .accountingNegative:
            return negative && !zero ? .negative : .positive
        case .never:
            return .positive
        }
    }

    struct Affix {
        var text: String
        var currencyAtStart = false
        var currencyAtEnd = false
    }

    /// The prefix and suffix for a sign, as ICU's PatternStringUtils::patternInfoToStringBuilder
    /// builds them: the negative subpattern's affixes when there is one, else `-` (or `+`)
    /// before the positive prefix.
    private func affixes(_ pattern: NumberPattern, signType: SignType, data: LocaleNumberData, currencySymbol: String) -> (Affix, Affix) {
        let positiveHasPlus = (pattern.positivePrefix + pattern.positiveSuffix).contains(.plus)
        let negativeHasMinus = ((pattern.negativePrefix ?? []) + (pattern.negativeSuffix ?? [])).contains(.minus)
        let plusReplacesMinus = signType == .positiveSign && !positiveHasPlus
        let useNegative = pattern.negativePrefix != nil && (signType == .negative || (negativeHasMinus && plusReplacesMinus))
        func build(_ parts: [NumberPattern.AffixPart], prependSign: Bool) -> Affix {
            var text = ""
            var affix = Affix(text: "")
            let all: [NumberPattern.AffixPart] = (prependSign ? [.minus] : []) + parts
            for (index, part) in all.enumerated() {
                switch part {
                case .literal(let literal): text += literal
                case .minus: text += plusReplacesMinus ? data.symbol("plusSign") : data.symbol("minusSign")
                case .plus: text += data.symbol("plusSign")
                case .percent: text += data.symbol("percentSign")
                case .permille: text += data.symbol("perMille")
                case .currency:
                    if index == 0 { affix.currencyAtStart = true }
                    if index == all.count - 1 { affix.currencyAtEnd = true }
                    text += currencySymbol
                }
            }
            affix.text = text
            if currencySymbol.isEmpty { affix.currencyAtStart = false; affix.currencyAtEnd = false }
            return affix
        }
        if useNegative {
            return (build(pattern.negativePrefix ?? [], prependSign: false), build(pattern.negativeSuffix ?? [], prependSign: false))
        }
        let prepend = signType == .negative || plusReplacesMinus
        return (build(pattern.positivePrefix, prependSign: prepend), build(pattern.positiveSuffix, prependSign: false))
    }

    /// CLDR's currencySpacing (root's, the same in every locale): a no-break space between a
    /// currency symbol that does not end in a symbol or space and a digit.
    static func currencySpacingApplies(currencyScalar: Unicode.Scalar, digitScalar: Unicode.Scalar) -> Bool {
        let category = currencyScalar.properties.generalCategory
        switch category {
        case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol, .spaceSeparator, .lineSeparator, .paragraphSeparator:
            return false
        default:
            return digitScalar.properties.generalCategory == .decimalNumber
        }
    }

    private func currencySymbol(_ code: String, width: UnitWidth, data: LocaleNumberData) -> String {
        guard case .currency = unit else { return "" }
        switch width {
        case .isoCode: return code
        case .hidden: return ""
        case .short, .narrow, .fullName: return data.currencySymbol(code)
        }
    }

    // MARK: Compact and units

    private func compactTable(data: LocaleNumberData) -> CompactTable {
        if case .currency = unit { return data.compact("cc") }
        return notation == .compactLong ? data.compact("cl") : data.compact("cs")
    }
}

/// The compact patterns of one style (`cs` short, `cl` long, `cc` currency short) of a locale.
struct CompactTable: Sendable {
    /// Per magnitude (power of ten): the patterns of `=0`-less plural forms zero...other.
    var patterns: [Int: [String]] = [:]

    var largestMagnitude: Int { patterns.keys.max() ?? 0 }

    /// ICU's CompactData::getMultiplier: the power of ten the value is scaled by.
    func multiplier(_ magnitude: Int) -> Int {
        guard magnitude >= 0, !patterns.isEmpty else { return 0 }
        let clamped = Swift.min(magnitude, largestMagnitude)
        guard let forms = patterns[clamped] else { return 0 }
        for form in forms.reversed() where !form.isEmpty && form != "0" {
            let zeros = Self.countZeros(form)
            if zeros > 0 { return zeros - clamped - 1 }
        }
        return 0
    }

    static func countZeros(_ pattern: String) -> Int {
        var count = 0
        for scalar in pattern.unicodeScalars {
            if scalar == "0" { count += 1 } else if count > 0 { break }
        }
        return count
    }

    /// The text of a pattern without digits for this value, if it is one.
    func literal(magnitude: Int, value: DecimalNumber, rules: PluralRules) -> String? {
        guard magnitude >= 0, !patterns.isEmpty, let forms = patterns[Swift.min(magnitude, largestMagnitude)] else { return nil }
        let category = rules.category(for: PluralOperands(value.plainText) ?? PluralOperands(0))
        let index = PluralCategory.allCases.firstIndex(of: category)!
        var text = forms.indices.contains(index) ? forms[index] : ""
        if text.isEmpty { text = forms.last ?? "" }
        guard !text.isEmpty, !text.contains("0") else { return nil }
        return text.replacingAll("'", with: "")
    }

    /// The pattern for a value (already scaled) of `magnitude`, by its plural form, with
    /// `other` as fallback; nil when the locale uses no compact form there ("0").
    func pattern(magnitude: Int, value: DecimalNumber, rules: PluralRules) -> NumberPattern? {
        guard magnitude >= 0, !patterns.isEmpty else { return nil }
        let clamped = Swift.min(magnitude, largestMagnitude)
        guard let forms = patterns[clamped] else { return nil }
        let category = rules.category(for: PluralOperands(value.plainText) ?? PluralOperands(0))
        let index = PluralCategory.allCases.firstIndex(of: category)!
        var text = forms.indices.contains(index) ? forms[index] : ""
        if text.isEmpty { text = forms.last ?? "" }
        guard !text.isEmpty, text != "0" else { return nil }
        return try? NumberPattern(parsing: text)
    }
}

/// A locale's number data: symbols, patterns, compact patterns, currency symbols, unit
/// patterns, resolved once per CLDR id.
final class LocaleNumberData: Sendable {
    let locale: CLDRLocale
    let digits: [String]
    let symbols: [String: String]
    let minimumGrouping: Int
    let pluralRules: PluralRules
    /// `NumberFormat.decimal`: the locale's decimal pattern (`#,##0.###` when it has none).
    let decimalFormat: NumberFormat
    private let patterns: [String: NumberPattern]
    private let compactTables: [String: CompactTable]

    private static let cache = Mutex<[String: LocaleNumberData]>([:])

    static func forLocale(_ locale: CLDRLocale) -> LocaleNumberData {
        if let known = cache.withLock({ $0[locale.id] }) { return known }
        let data = LocaleNumberData(locale)
        cache.withLock { $0[locale.id] = data }
        return data
    }

    private init(_ locale: CLDRLocale) {
        self.locale = locale
        if let native = locale.number("nu") {
            digits = native.map(String.init)
        } else {
            digits = (0...9).map(String.init)
        }
        var symbols: [String: String] = [:]
        for name in ["decimal", "group", "minusSign", "plusSign", "percentSign", "perMille", "exponential", "infinity", "nan"] {
            symbols[name] = locale.number("s." + name)
        }
        symbols["currencyDecimal"] = symbols["decimal"]
        symbols["currencyGroup"] = symbols["group"]
        self.symbols = symbols
        minimumGrouping = Int(locale.number("mg") ?? "1") ?? 1
        pluralRules = PluralRules.cardinal(for: locale.id)
        var patterns: [String: NumberPattern] = [:]
        for key in ["p.decimal", "p.percent", "p.currency", "p.accounting", "p.scientific"] {
            if let text = locale.number(key), let pattern = try? NumberPattern(parsing: text) { patterns[key] = pattern }
        }
        self.patterns = patterns
        decimalFormat = NumberFormat.fromPattern(
            patterns["p.decimal"] ?? (try! NumberPattern(parsing: "#,##0.###")), currencyDigits: false)
        var tables: [String: CompactTable] = [:]
        for prefix in ["cs", "cl", "cc"] {
            var table = CompactTable()
            for (key, value) in CLDRFormatData.numbers.values(prefix: prefix + ".", chain: locale.chain) {
                if let magnitude = Int(key.dropFirst(prefix.count + 1)) { table.patterns[magnitude] = CLDRLocale.items(value) }
            }
            tables[prefix] = table
        }
        if tables["cl"]?.patterns.isEmpty ?? true { tables["cl"] = tables["cs"] }
        compactTables = tables
    }

    func digit(_ value: UInt8) -> String { digits[Int(value)] }

    func symbol(_ name: String) -> String { symbols[name] ?? "" }

    func pattern(_ key: String) -> NumberPattern {
        patterns[key] ?? patterns["p.decimal"] ?? (try! NumberPattern(parsing: "#,##0.###"))
    }

    func compact(_ prefix: String) -> CompactTable { compactTables[prefix] ?? CompactTable() }

    /// The symbol of a currency; ICU shows the unknown currency `XXX` by its code.
    func currencySymbol(_ code: String) -> String { code == "XXX" ? code : locale.number("$." + code) ?? code }
}

import Synchronization
