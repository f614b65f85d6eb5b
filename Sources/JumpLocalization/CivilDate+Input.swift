// Dates as people type them: `yyyy-MM-dd`, or the numeric date of their locale (CLDR's `yMd`
// skeleton: `15/01/1990` in fr-FR, `1/15/1990` in en-US, `15.1.1990` in de-DE, `1990/1/15` in
// ja-JP), whatever its digits and separators.

extension CivilDate {
    /// The numeric date pattern people of `locale` write, in CLDR's letters: `M/d/y` (en-US),
    /// `dd/MM/y` (fr-FR), `d.M.y` (de-DE), `y/M/d` (ja-JP), `d.MM.y` (pl-PL). It is CLDR's `yMd`
    /// skeleton (the short date where a locale has none), and `y-MM-dd` for a locale CLDR does
    /// not know. A front end shows it as a hint or uses it to lay out day, month and year.
    public static func inputPattern(for locale: LocaleTag) -> String {
        let cldr = CLDRLocale.resolve(locale.identifier)
        for key in ["k.yMd", "d.short"] {
            if let pattern = cldr.date(key), fieldOrder(pattern) != nil { return pattern }
        }
        return "y-MM-dd"
    }

    /// Reads a date as a person of `locale` types it: `yyyy-MM-dd`, or day, month and year in
    /// the order of the locale's `inputPattern` (`15/01/1990` or `15/1/1990` in fr-FR,
    /// `1/15/1990` in en-US, `15.01.1990` in de-DE and pl-PL, `1990/01/15` in ja-JP).
    ///
    /// The year has four digits (a two-digit year is ambiguous for a birth date); day and month
    /// one or two. Any decimal digits count (`１９９０`, `١٩٩٠`); between the numbers any
    /// punctuation or spaces, or the words of the locale's date patterns (`1990年1月15日`). Nil for anything
    /// else, and for dates that do not exist (`31/02/1990`: `reading(typed:locale:)` tells the two apart).
    public init?(typed text: String, locale: LocaleTag) {
        guard case .date(let date) = Self.reading(typed: text, locale: locale) else { return nil }
        self = date
    }

    /// Reads typed text as `init(typed:locale:)` does, and says why it is no date: numbers in
    /// the shape of the locale's date (or of `yyyy-MM-dd`) whose day the month lacks
    /// (`31.02.1990` in de-DE, `2020-02-30`) are `.doesNotExist`; anything else (`15.13.1990`)
    /// `.unreadable`.
    public static func reading(typed text: String, locale: LocaleTag) -> Reading {
        let trimmed = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        let iso = reading(iso: trimmed)
        if iso != .unreadable { return iso }
        let pattern = Self.inputPattern(for: locale)
        guard let order = Self.fieldOrder(pattern) else { return .unreadable }
        // Words the locale's date patterns write (`年`, `г`) may stand between or after the numbers.
        let cldr = CLDRLocale.resolve(locale.identifier)
        let patterns = [pattern] + ["d.short", "d.medium", "d.long", "k.yMMMd"].compactMap { cldr.date($0) }
        let patternLetters = Set(patterns.flatMap { Self.literalText($0).filter(\.isLetter) })
        var numbers: [(value: Int, digits: Int)] = []
        var inNumber = false
        for character in trimmed {
            if let digit = Self.decimalDigit(character) {
                if inNumber {
                    numbers[numbers.count - 1].value = numbers[numbers.count - 1].value * 10 + digit
                    numbers[numbers.count - 1].digits += 1
                } else {
                    numbers.append((digit, 1))
                    inNumber = true
                }
                guard numbers[numbers.count - 1].digits <= 4 else { return .unreadable }
            } else {
                if character.isLetter && !patternLetters.contains(character) { return .unreadable }
                if character.isNumber { return .unreadable }  // `½`, `Ⅻ`: numbers that are no digits
                // Two numbers need something between them: `15011990` is no date.
                inNumber = false
            }
        }
        guard numbers.count == 3 else { return .unreadable }
        var year = 0, month = 0, day = 0
        for (letter, number) in zip(order, numbers) {
            switch letter {
            case "y":
                guard number.digits == 4 else { return .unreadable }
                year = number.value
            case "M":
                guard number.digits <= 2 else { return .unreadable }
                month = number.value
            default:
                guard number.digits <= 2 else { return .unreadable }
                day = number.value
            }
        }
        return reading(year: year, month: month, day: day)
    }

    /// A part of a date, as a date field lays them out.
    public enum Part: String, Sendable, Hashable, CaseIterable {
        case year, month, day
    }

    /// The order day, month and year stand in the locale's numeric date (`inputPattern`): day,
    /// month, year in de-DE and fr-FR; month, day, year in en-US; year, month, day in ja-JP.
    public static func partOrder(for locale: LocaleTag) -> [Part] {
        let order = fieldOrder(inputPattern(for: locale)) ?? ["y", "M", "d"]
        return order.map { $0 == "y" ? .year : $0 == "M" ? .month : .day }
    }

    /// The twelve month names of `locale` as a list of months shows them (CLDR's stand-alone
    /// wide names: `Januar` in de-DE, `styczeń` in pl-PL, `1月` in ja-JP), January first.
    public static func monthNames(for locale: LocaleTag) -> [String] {
        let names = CLDRLocale.resolve(locale.identifier).date("M.sw").map(CLDRLocale.items) ?? []
        return names.count == 12 && !names.contains(where: \.isEmpty) ? names : (1...12).map(String.init)
    }

    /// The date as `inputPattern` writes it for `locale` (`15/01/1990` in fr-FR, `1/15/1990` in
    /// en-US), in the locale's digits: what a front end shows in a date field.
    public func typedText(for locale: LocaleTag) -> String {
        let cldr = CLDRLocale.resolve(locale.identifier)
        guard var pattern = try? DatePattern(parsing: Self.inputPattern(for: locale)) else { return description }
        // A short date's `yy` is written with four digits, as it is read.
        pattern.elements = pattern.elements.map { element in
            if case .field(let letter, let count) = element, "yYu".contains(letter), count == 2 { return .field(letter, 1) }
            return element
        }
        return pattern.format(DateTimeValue(self), locale: cldr)
    }

    /// `y`, `M` and `d` in the order a pattern has them, or nil when it has other fields (an
    /// era, a month name) or lacks one.
    static func fieldOrder(_ pattern: String) -> [Character]? {
        guard !pattern.isEmpty, let parsed = try? DatePattern(parsing: pattern) else { return nil }
        var order: [Character] = []
        for element in parsed.elements {
            guard case .field(let letter, let count) = element else { continue }
            let kind: Character
            switch letter {
            case "y", "Y", "u": kind = "y"
            case "M", "L":
                guard count <= 2 else { return nil }
                kind = "M"
            case "d": kind = "d"
            default: return nil
            }
            guard !order.contains(kind) else { return nil }
            order.append(kind)
        }
        return order.count == 3 ? order : nil
    }

    /// The literal text of a pattern (its separators and words).
    static func literalText(_ pattern: String) -> String {
        guard let parsed = try? DatePattern(parsing: pattern) else { return "" }
        return parsed.elements.map { element in
            if case .literal(let text) = element { text } else { "" }
        }.joined()
    }

    /// The value of a decimal digit in any script (`7`, `７`, `٧`), or nil.
    static func decimalDigit(_ character: Character) -> Int? {
        guard character.unicodeScalars.count == 1, let scalar = character.unicodeScalars.first,
            scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue
        else { return nil }
        return Int(value)
    }
}
