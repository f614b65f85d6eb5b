import JumpForms

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The time a `CaptureClient` reads: now, in seconds since 1970 (when an access token
/// expires, the refresh signature's date), and today (the date the form's rules count ages
/// from). Tests and previews give their own.
public struct ClientClock: Sendable {
    public var now: @Sendable () -> Int
    public var today: @Sendable () -> CivilDate

    /// - Parameter today: by default the date of `now()` in the local time zone.
    public init(now: @escaping @Sendable () -> Int, today: (@Sendable () -> CivilDate)? = nil) {
        self.now = now
        self.today = today ?? { ClientClock.localDate(epochSeconds: now()) }
    }

    /// The system's clock and the local date.
    public static var system: ClientClock { ClientClock(now: { RefreshSignature.now }) }
}

extension ClientClock {
    /// The date at `epochSeconds` in the local time zone.
    public static func localDate(epochSeconds: Int) -> CivilDate {
        var seconds = time_t(epochSeconds)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return CivilDate(year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday))
            ?? CivilDate(year: 2000, month: 1, day: 1)!
    }
}
