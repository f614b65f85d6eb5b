import JumpForms
import Testing

/// Dates as people of each locale type them, and today's date from an injected clock.
@Suite struct CivilDateInputTests {
    static func tag(_ text: String) -> LocaleTag { LocaleTag(text)! }

    @Test(arguments: [
        ("en-US", "M/d/y"), ("fr-FR", "dd/MM/y"), ("de-DE", "d.M.y"), ("ja-JP", "y/M/d"), ("pl-PL", "d.MM.y"),
        ("xx-YY", "y-MM-dd")
    ])
    func inputPatternIsTheLocalesNumericDate(_ locale: String, _ pattern: String) {
        #expect(CivilDate.inputPattern(for: Self.tag(locale)) == pattern)
    }

    /// (locale, typed, the date read or nil)
    static let typed: [(String, String, String?)] = [
        ("en-US", "1/15/1990", "1990-01-15"), ("en-US", "01/15/1990", "1990-01-15"), ("en-US", " 1/5/1990 ", "1990-01-05"),
        ("en-US", "1990-01-15", "1990-01-15"), ("en-US", "15/1/1990", nil), ("en-US", "1/15/90", nil), ("en-US", "2/29/2023", nil),
        ("en-US", "2/29/2024", "2024-02-29"), ("en-US", "January 15, 1990", nil), ("en-US", "1151990", nil),
        ("fr-FR", "15/01/1990", "1990-01-15"), ("fr-FR", "15/1/1990", "1990-01-15"), ("fr-FR", "15-01-1990", "1990-01-15"),
        ("fr-FR", "1990-01-15", "1990-01-15"), ("fr-FR", "31/02/1990", nil), ("fr-FR", "1/15/1990", nil), ("fr-FR", "15/01/1990/2", nil),
        ("de-DE", "15.01.1990", "1990-01-15"), ("de-DE", "15.1.1990", "1990-01-15"), ("de-DE", "15. 1. 1990", "1990-01-15"),
        ("de-DE", "1990-01-15", "1990-01-15"), ("de-DE", "32.01.1990", nil), ("de-DE", "15.13.1990", nil),
        ("ja-JP", "1990/01/15", "1990-01-15"), ("ja-JP", "1990/1/15", "1990-01-15"), ("ja-JP", "1990年1月15日", "1990-01-15"),
        ("ja-JP", "１９９０／０１／１５", "1990-01-15"), ("ja-JP", "15/01/1990", nil), ("ja-JP", "1990年1月15x", nil),
        ("pl-PL", "15.01.1990", "1990-01-15"), ("pl-PL", "5.1.1990", "1990-01-05"), ("pl-PL", "1990-01-15", "1990-01-15"),
        ("pl-PL", "15.01.90", nil), ("pl-PL", "", nil)
    ]

    @Test(arguments: typed)
    func typedDatesFollowTheLocale(_ locale: String, _ text: String, _ expected: String?) {
        #expect(CivilDate(typed: text, locale: Self.tag(locale))?.description == expected, "\(locale): \(text)")
    }

    @Test(arguments: [
        ("en-US", "1/5/1990"), ("fr-FR", "05/01/1990"), ("de-DE", "5.1.1990"), ("ja-JP", "1990/1/5"), ("pl-PL", "5.01.1990")
    ])
    func typedTextIsReadBack(_ locale: String, _ text: String) throws {
        let date = try #require(CivilDate(iso: "1990-01-05"))
        #expect(date.typedText(for: Self.tag(locale)) == text)
        #expect(CivilDate(typed: text, locale: Self.tag(locale)) == date)
    }

    /// (locale, typed, what it reads as): a day the month lacks does not exist; other
    /// numbers are no date (a month over 12 is read as a date in another order).
    static let readings: [(String, String, CivilDate.Reading)] = [
        ("de-DE", "31.02.1990", .doesNotExist), ("de-DE", "29.2.2023", .doesNotExist), ("de-DE", "31.04.1990", .doesNotExist),
        ("de-DE", "15.13.1990", .unreadable), ("de-DE", "32.01.1990", .unreadable), ("de-DE", "31.02.90", .unreadable),
        ("de-DE", "2020-02-30", .doesNotExist), ("en-US", "2/30/2020", .doesNotExist), ("en-US", "2020-02-30", .doesNotExist),
        ("fr-FR", "31/02/1990", .doesNotExist), ("ja-JP", "1990/2/31", .doesNotExist), ("ja-JP", "1990年2月30日", .doesNotExist),
        ("pl-PL", "31.06.1990", .doesNotExist), ("en-US", "2020-13-01", .unreadable), ("en-US", "2020-2-3", .unreadable),
        ("en-US", "", .unreadable), ("de-DE", "29.02.2024", .date(CivilDate(year: 2024, month: 2, day: 29)!))
    ]

    @Test(arguments: readings)
    func aDayTheMonthLacksDoesNotExist(_ locale: String, _ text: String, _ expected: CivilDate.Reading) {
        #expect(CivilDate.reading(typed: text, locale: Self.tag(locale)) == expected, "\(locale): \(text)")
    }

    @Test func isoReadingsTellANonexistentDateFromAMalformedOne() {
        #expect(CivilDate.reading(iso: "2020-02-30") == .doesNotExist)
        #expect(CivilDate.reading(iso: "2023-02-29") == .doesNotExist)
        #expect(CivilDate.reading(iso: "2024-02-29") == .date(CivilDate(year: 2024, month: 2, day: 29)!))
        #expect(CivilDate.reading(iso: "2020-00-10") == .unreadable)
        #expect(CivilDate.reading(iso: "2020-2-30") == .unreadable)
        #expect(CivilDate(iso: "2020-02-30") == nil)
    }

    @Test(arguments: [
        ("de-DE", [CivilDate.Part.day, .month, .year]), ("fr-FR", [.day, .month, .year]), ("pl-PL", [.day, .month, .year]),
        ("en-US", [.month, .day, .year]), ("ja-JP", [.year, .month, .day]), ("xx-YY", [.year, .month, .day])
    ])
    func datePartsFollowTheLocalesOrder(_ locale: String, _ order: [CivilDate.Part]) {
        #expect(CivilDate.partOrder(for: Self.tag(locale)) == order)
    }

    @Test func monthNamesComeFromCLDR() {
        let german = CivilDate.monthNames(for: Self.tag("de-DE"))
        #expect(german.count == 12 && german.first == "Januar" && german[2] == "März" && german.last == "Dezember")
        #expect(CivilDate.monthNames(for: Self.tag("en-US")).first == "January")
        // Stand-alone names: the nominative, as a list shows them.
        #expect(CivilDate.monthNames(for: Self.tag("pl-PL")).first == "styczeń")
        #expect(CivilDate.monthNames(for: Self.tag("fr-FR"))[7] == "août")
        #expect(CivilDate.monthNames(for: Self.tag("ja-JP")).first == "1月")
    }

    @Test func todayComesFromTheInjectedClockAndTimeZone() throws {
        let instant = 1_749_983_400  // 2025-06-15T10:30:00Z
        #expect(CivilDate.today(clock: { instant }, timeZone: .utc).description == "2025-06-15")
        #expect(CivilDate.today(clock: { instant }, timeZone: MessageTimeZone(offsetSeconds: 14 * 3600)!).description == "2025-06-16")
        #expect(CivilDate.today(clock: { instant }, timeZone: MessageTimeZone(offsetSeconds: -11 * 3600)!).description == "2025-06-14")
        #expect(CivilDate(epochSeconds: 951_782_400, timeZone: .utc)?.description == "2000-02-29")
        #expect(CivilDate(epochSeconds: 951_782_399, timeZone: .utc)?.description == "2000-02-28")
        #expect(CivilDate(epochSeconds: -1, timeZone: .utc)?.description == "1969-12-31")
        #expect(CivilDate(epochSeconds: 0, timeZone: .utc)?.description == "1970-01-01")
        #expect(CivilDate(epochSeconds: Int.max, timeZone: .utc) == nil)
        // The system's zone is somewhere from UTC-12 to UTC+14: the local date is within a day.
        let local = try #require(CivilDate.local(epochSeconds: instant))
        #expect(["2025-06-14", "2025-06-15", "2025-06-16"].contains(local.description))
    }
}
