#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#elseif canImport(Android)
    import Android
#endif

// Today's date for the rules that count years (`minYears`, `maxYears`): from an instant and a
// time zone, both injectable, so a test or an app with its own clock decides what "today" is.

extension CivilDate {
    /// The date at an instant (seconds since 1970-01-01T00:00:00Z) in a fixed-offset time zone;
    /// nil outside the years 1-9999.
    public init?(epochSeconds: Int, timeZone: MessageTimeZone) {
        let (seconds, overflow) = epochSeconds.addingReportingOverflow(timeZone.offsetSeconds)
        guard !overflow else { return nil }
        let (year, month, day) = DateTimeValue.civil(fromDays: DateTimeValue.floorDivide(seconds, 86_400).0)
        self.init(year: year, month: month, day: day)
    }

    /// The date at an instant in the system's local time zone (`TZ`, else the system's setting;
    /// on Apple platforms the device's), as the C library's `localtime_r` reads the time zone
    /// database; nil outside the years 1-9999.
    public static func local(epochSeconds: Int) -> CivilDate? {
        var instant = time_t(epochSeconds)
        var parts = tm()
        guard localtime_r(&instant, &parts) != nil else { return nil }
        return CivilDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
    }

    /// Seconds since 1970-01-01T00:00:00Z by the system's clock: the default clock of `today`.
    public static func systemEpochSeconds() -> Int {
        Int(time(nil))
    }

    /// Today in the system's local time zone, by the system's clock.
    public static var today: CivilDate {
        today(clock: systemEpochSeconds, timeZone: nil)
    }

    /// Today as `clock` tells the instant (seconds since 1970), in `timeZone`, or with nil in
    /// the system's local time zone. A clock outside the years 1-9999 gives 1970-01-01 (the
    /// epoch's date) rather than a crash.
    public static func today(clock: () -> Int = CivilDate.systemEpochSeconds, timeZone: MessageTimeZone?) -> CivilDate {
        let now = clock()
        let date = timeZone.map { CivilDate(epochSeconds: now, timeZone: $0) } ?? local(epochSeconds: now)
        return date ?? CivilDate(year: 1970, month: 1, day: 1)!
    }
}
