import JumpDiagnostics

/// A calendar date without time or time zone (a `dateselect` value).
public struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    public let year: Int
    public let month: Int
    public let day: Int

    /// A valid proleptic Gregorian date, or nil (`2023-02-29` is nil).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...9999).contains(year), (1...12).contains(month),
            (1...CivilDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `yyyy-MM-dd` exactly (four-digit year, two-digit month and day).
    public init?(iso text: String) {
        guard case .date(let date) = Self.reading(iso: text) else { return nil }
        self = date
    }

    /// What text holds as a date: a date, a day and month in a date's shape that name no day
    /// of the calendar (`31.02.1990`, `2020-02-30`, `2023-04-31`), or no date at all (a month
    /// over 12 or a day over 31 is read as a date typed in another order).
    public enum Reading: Sendable, Hashable {
        case date(CivilDate)
        case doesNotExist
        case unreadable
    }

    /// Reads `yyyy-MM-dd` exactly (four-digit year, two-digit month and day): `2020-02-30` is
    /// `.doesNotExist`, `2020-2-3` `.unreadable`.
    public static func reading(iso text: String) -> Reading {
        guard let (year, month, day) = isoNumbers(text) else { return .unreadable }
        return reading(year: year, month: month, day: day)
    }

    /// A date, or why numbers are none: `.doesNotExist` for a day the month lacks (30 February).
    static func reading(year: Int, month: Int, day: Int) -> Reading {
        if let date = CivilDate(year: year, month: month, day: day) { return .date(date) }
        return (1...9999).contains(year) && (1...12).contains(month) && (1...31).contains(day) ? .doesNotExist : .unreadable
    }

    /// The numbers of `yyyy-MM-dd`, whether or not they make a date.
    private static func isoNumbers(_ text: String) -> (Int, Int, Int)? {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for byte in bytes[range] {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        return (year, month, day)
    }

    public static func isLeap(_ year: Int) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Completed years from `self` (a birthday) to `date`. A 29 February birthday is reached
    /// on 1 March in common years.
    public func age(on date: CivilDate) -> Int {
        var years = date.year - year
        if (date.month, date.day) < (month, day) { years -= 1 }
        return years
    }

    /// `yyyy-MM-dd`
    public var description: String {
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))"
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let date = CivilDate(iso: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a yyyy-MM-dd date: \(text)"))
        }
        self = date
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
