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
