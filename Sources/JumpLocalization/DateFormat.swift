import JumpDiagnostics

// Date and time arguments: ISO 8601 values, time zones given as offsets, CLDR patterns and
// skeletons, formatted from the locale's Gregorian calendar data as ICU4C's SimpleDateFormat.

/// The time zone `date` and `time` arguments are shown in: UTC or a fixed offset.
///
/// Named zones (`Europe/Paris`) need a time zone database, which jump-forms does not carry:
/// give the offset in effect instead (`+01:00`).
public struct MessageTimeZone: Sendable, Hashable, CustomStringConvertible {
    /// Seconds east of UTC.
    public let offsetSeconds: Int
    /// True for UTC itself (named `UTC` in patterns), false for an offset zone.
    public let isUTC: Bool

    public static let utc = MessageTimeZone(offsetSeconds: 0, isUTC: true)

    init(offsetSeconds: Int, isUTC: Bool) {
        self.offsetSeconds = offsetSeconds
        self.isUTC = isUTC
    }

    /// A fixed offset, -18:00 to +18:00.
    public init?(offsetSeconds: Int) {
        guard abs(offsetSeconds) <= 18 * 3600 else { return nil }
        self.init(offsetSeconds: offsetSeconds, isUTC: false)
    }

    /// `UTC`, `GMT`, `Z`, `+02:00`, `-0530`, `+5`, `UTC+2`, `GMT-03:30`.
    public init?(_ text: String) {
        var rest = Substring(text)
        for prefix in ["UTC", "GMT", "Etc/UTC", "Etc/GMT"] where rest.uppercased().hasPrefix(prefix.uppercased()) {
            rest = rest.dropFirst(prefix.count)
            break
        }
        if rest.isEmpty || rest == "Z" || rest == "z" {
            guard text.count <= 7 else { return nil }
            self = .utc
            return
        }
        guard let seconds = Self.parseOffset(rest) else { return nil }
        self.init(offsetSeconds: seconds)
    }

    /// `+HH:MM`, `+HHMM`, `+HH`, `+H`.
    static func parseOffset(_ text: Substring) -> Int? {
        guard let sign = text.first, sign == "+" || sign == "-" || sign == "\u{2212}" else { return nil }
        let body = text.dropFirst()
        var hours: Int?, minutes = 0
        if let colon = body.firstIndex(of: ":") {
            hours = Int(body[..<colon])
            guard let m = Int(body[body.index(after: colon)...]), body[body.index(after: colon)...].count == 2 else { return nil }
            minutes = m
        } else if body.count == 4 {
            hours = Int(body.prefix(2))
            guard let m = Int(body.suffix(2)) else { return nil }
            minutes = m
        } else if (1...2).contains(body.count) {
            hours = Int(body)
        }
        guard let hours, body.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ":") }), hours <= 18, minutes < 60 else { return nil }
        let total = hours * 3600 + minutes * 60
        return sign == "+" ? total : -total
    }

    public var description: String {
        if isUTC { return "UTC" }
        let sign = offsetSeconds < 0 ? "-" : "+"
        let hours = abs(offsetSeconds) / 3600, minutes = abs(offsetSeconds) % 3600 / 60
        return sign + (hours < 10 ? "0" : "") + String(hours) + ":" + (minutes < 10 ? "0" : "") + String(minutes)
    }
}

/// A moment as the fields a pattern shows, in a time zone.
struct DateTimeValue: Sendable, Hashable {
    var year: Int
    var month: Int
    var day: Int
    var hour = 0
    var minute = 0
    var second = 0
    /// Nanoseconds within the second.
    var nanosecond = 0
    var timeZone: MessageTimeZone = .utc

    init(_ date: CivilDate, timeZone: MessageTimeZone = .utc) {
        year = date.year
        month = date.month
        day = date.day
        self.timeZone = timeZone
    }

    init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, nanosecond: Int, timeZone: MessageTimeZone) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
        self.second = second
        self.nanosecond = nanosecond
        self.timeZone = timeZone
    }

    /// The moment `milliseconds` after 1970-01-01T00:00:00Z, in `timeZone`.
    init(epochMilliseconds milliseconds: Int, timeZone: MessageTimeZone) {
        let (seconds, millis) = Self.floorDivide(milliseconds, 1000)
        self.init(epochSeconds: seconds + timeZone.offsetSeconds, nanosecond: millis * 1_000_000, timeZone: timeZone)
    }

    private init(epochSeconds local: Int, nanosecond: Int, timeZone: MessageTimeZone) {
        let (days, secondOfDay) = Self.floorDivide(local, 86_400)
        let (y, m, d) = Self.civil(fromDays: days)
        self.init(
            year: y, month: m, day: d, hour: secondOfDay / 3600, minute: secondOfDay % 3600 / 60, second: secondOfDay % 60,
            nanosecond: nanosecond, timeZone: timeZone)
    }

    /// ISO 8601: `2024-01-15`, `2024-01-15T10:00`, `2024-01-15T10:00:00.250Z`,
    /// `2024-01-15 10:00:00+02:00`. A value with an offset is converted to `timeZone`; a value
    /// without one is a time in `timeZone`.
    init?(iso text: String, timeZone: MessageTimeZone) {
        let scalars = Array(text.unicodeScalars)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= scalars.count else { return nil }
            var value = 0
            for scalar in scalars[range] {
                guard ("0"..."9").contains(scalar) else { return nil }
                value = value * 10 + Int(scalar.value - 0x30)
            }
            return value
        }
        guard scalars.count >= 10, scalars[4] == "-", scalars[7] == "-", let year = number(0..<4), let month = number(5..<7),
            let day = number(8..<10), let date = CivilDate(year: year, month: month, day: day)
        else { return nil }
        if scalars.count == 10 {
            self.init(date, timeZone: timeZone)
            return
        }
        guard scalars.count >= 16, scalars[10] == "T" || scalars[10] == "t" || scalars[10] == " ", scalars[13] == ":",
            let hour = number(11..<13), let minute = number(14..<16), hour < 24, minute < 60
        else { return nil }
        var index = 16
        var second = 0, nanosecond = 0
        if index < scalars.count, scalars[index] == ":" {
            guard let s = number(index + 1..<index + 3), s < 60 else { return nil }
            second = s
            index += 3
            if index < scalars.count, scalars[index] == "." || scalars[index] == "," {
                index += 1
                var digits = 0
                while index < scalars.count, ("0"..."9").contains(scalars[index]) {
                    if digits < 9 { nanosecond = nanosecond * 10 + Int(scalars[index].value - 0x30) }
                    digits += 1
                    index += 1
                }
                guard digits > 0 else { return nil }
                for _ in min(digits, 9)..<9 { nanosecond *= 10 }
            }
        }
        let days = Self.days(fromCivil: year, month, day)
        var local = days * 86_400 + hour * 3600 + minute * 60 + second
        if index < scalars.count {
            let designator = String(String.UnicodeScalarView(scalars[index...]))
            let offset: Int
            if designator == "Z" || designator == "z" {
                offset = 0
            } else if let parsed = MessageTimeZone.parseOffset(Substring(designator)), designator.count >= 3 {
                offset = parsed
            } else {
                return nil
            }
            local += timeZone.offsetSeconds - offset
        }
        self.init(epochSeconds: local, nanosecond: nanosecond, timeZone: timeZone)
    }

    /// 0 = Sunday.
    var weekday: Int {
        let days = Self.days(fromCivil: year, month, day)
        return Self.floorDivide(days + 4, 7).1
    }

    var dayOfYear: Int {
        Self.days(fromCivil: year, month, day) - Self.days(fromCivil: year, 1, 1) + 1
    }

    static func floorDivide(_ a: Int, _ b: Int) -> (Int, Int) {
        let q = a >= 0 ? a / b : -((-a + b - 1) / b)
        return (q, a - q * b)
    }

    /// Days since 1970-01-01 (proleptic Gregorian).
    static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400).0
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097).0
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}

/// A CLDR date pattern (`MMM d, y`, `h:mm a`), parsed into fields and literal text.
struct DatePattern: Sendable, Hashable {
    enum Kind: Sendable { case date, time, dateTime }

    enum Element: Sendable, Hashable {
        case literal(String)
        case field(Character, Int)
    }

    struct StyleError: Error, Sendable { var message: String }

    var elements: [Element]

    /// The letters jump-forms formats; others (`Q`, `w`, `W`, `F`, `g`, `U`, `r`) are refused.
    static let supportedLetters: Set<Character> = Set("GyYuMLdDEecabBhHkKmsSAzZOvVXx")

    init(parsing text: String) throws(StyleError) {
        var elements: [Element] = []
        var literal = ""
        let characters = Array(text)
        var index = 0
        func flush() {
            if !literal.isEmpty { elements.append(.literal(literal)) }
            literal = ""
        }
        while index < characters.count {
            let c = characters[index]
            if c == "'" {
                if index + 1 < characters.count, characters[index + 1] == "'" {
                    literal.append("'")
                    index += 2
                    continue
                }
                index += 1
                while index < characters.count {
                    if characters[index] == "'" {
                        if index + 1 < characters.count, characters[index + 1] == "'" {
                            literal.append("'")
                            index += 2
                            continue
                        }
                        break
                    }
                    literal.append(characters[index])
                    index += 1
                }
                index += 1
            } else if c.isASCII, c.isLetter {
                var count = 1
                while index + count < characters.count, characters[index + count] == c { count += 1 }
                guard Self.supportedLetters.contains(c) else {
                    throw StyleError(message: "the date field letter '\(c)' is not supported (docs/locales.md lists the letters jump-forms formats)")
                }
                flush()
                elements.append(.field(c, count))
                index += count
            } else {
                literal.append(c)
                index += 1
            }
        }
        flush()
        self.elements = elements
    }

    /// The pattern of a MessageFormat style: `short`, `medium`, `long`, `full`, a skeleton
    /// (`::yMMMd`) or a pattern (`yyyy-MM-dd`).
    static func forStyle(_ style: String, kind: Kind, locale: CLDRLocale) throws(StyleError) -> DatePattern {
        let data = LocaleDateData.forLocale(locale)
        let trimmed = style.lowercased()
        if ["short", "medium", "long", "full"].contains(trimmed) {
            switch kind {
            case .date: return try DatePattern(parsing: data.value("d." + trimmed))
            case .time: return try DatePattern(parsing: data.value("t." + trimmed))
            case .dateTime:
                let combined = data.value("dk." + trimmed)
                    .replacingAll("{1}", with: "\u{0}1").replacingAll("{0}", with: "\u{0}0")
                var elements: [Element] = []
                for element in try DatePattern(parsing: combined).elements {
                    guard case .literal(let text) = element, text.contains("\u{0}") else {
                        elements.append(element)
                        continue
                    }
                    var rest = Substring(text)
                    while let marker = rest.firstIndex(of: "\u{0}") {
                        if marker > rest.startIndex { elements.append(.literal(String(rest[..<marker]))) }
                        let which = rest[rest.index(after: marker)]
                        elements += try DatePattern(parsing: data.value((which == "1" ? "d." : "t.") + trimmed)).elements
                        rest = rest[rest.index(marker, offsetBy: 2)...]
                    }
                    if !rest.isEmpty { elements.append(.literal(String(rest))) }
                }
                return DatePattern(elements: elements)
            }
        }
        if style.hasPrefix("::") {
            return try DateSkeleton.bestPattern(String(style.dropFirst(2)), data: data)
        }
        return try DatePattern(parsing: style)
    }

    init(elements: [Element]) { self.elements = elements }

    /// The text of `value` for `locale`.
    func format(_ value: DateTimeValue, locale: CLDRLocale) -> String {
        let data = LocaleDateData.forLocale(locale)
        let hasMinute = elements.contains { if case .field("m", _) = $0 { true } else { false } }
        var text = ""
        for element in elements {
            switch element {
            case .literal(let literal): text += literal
            case .field(let letter, let count): text += data.field(letter, count, value, hasMinute: hasMinute)
            }
        }
        return text
    }
}

/// A locale's Gregorian calendar data, resolved once per CLDR id.
final class LocaleDateData: Sendable {
    let locale: CLDRLocale
    let digits: [String]
    let hourLetter: Character
    /// Day-period rules: name, start minute, end minute (exclusive); `at` rules have equal ends.
    let periodRules: [(String, Int, Int)]

    private static let cache = Mutex<[String: LocaleDateData]>([:])

    static func forLocale(_ locale: CLDRLocale) -> LocaleDateData {
        if let known = cache.withLock({ $0[locale.id] }) { return known }
        let data = LocaleDateData(locale)
        cache.withLock { $0[locale.id] = data }
        return data
    }

    private init(_ locale: CLDRLocale) {
        self.locale = locale
        digits = LocaleNumberData.forLocale(locale).digits
        hourLetter = locale.date("hj")?.first ?? "H"
        var rules: [(String, Int, Int)] = []
        for (key, value) in CLDRFormatData.dates.values(prefix: "R.", chain: locale.chain) {
            let name = String(key.dropFirst(2))
            for part in value.split(separator: ",") {
                if part.first == "@", let at = Int(part.dropFirst()) {
                    rules.append((name, at, at))
                } else {
                    let bounds = part.split(separator: "-").compactMap { Int($0) }
                    if bounds.count == 2 { rules.append((name, bounds[0], bounds[1])) }
                }
            }
        }
        periodRules = rules.sorted { ($0.1, $0.0) < ($1.1, $1.0) }
    }

    func value(_ key: String) -> String { locale.date(key) ?? "" }

    func items(_ key: String) -> [String] { locale.date(key).map(CLDRLocale.items) ?? [] }

    func number(_ value: Int, minimumDigits: Int) -> String {
        let ascii = String(value)
        let padded = String(repeating: "0", count: max(0, minimumDigits - ascii.count)) + ascii
        return padded.unicodeScalars.map { ("0"..."9").contains($0) ? digits[Int($0.value - 0x30)] : String($0) }.joined()
    }

    private func name(_ key: String, _ index: Int) -> String {
        let names = items(key)
        return names.indices.contains(index) ? names[index] : ""
    }

    private static func width(_ count: Int) -> String {
        switch count {
        case 4: "w"
        case 5: "n"
        case 6: "s"
        default: "a"
        }
    }

    func field(_ letter: Character, _ count: Int, _ value: DateTimeValue, hasMinute: Bool) -> String {
        switch letter {
        case "G":
            return name("E." + (count == 4 ? "w" : count == 5 ? "n" : "a"), value.year > 0 ? 1 : 0)
        case "y", "Y", "u":
            let year = value.year > 0 ? value.year : 1 - value.year
            if count == 2 { return number(year % 100, minimumDigits: 2) }
            return number(letter == "u" ? value.year : year, minimumDigits: count)
        case "M", "L":
            let context = letter == "M" ? "f" : "s"
            if count <= 2 { return number(value.month, minimumDigits: count) }
            return name("M." + context + Self.width(count == 6 ? 3 : count), value.month - 1)
        case "d":
            return number(value.day, minimumDigits: count)
        case "D":
            return number(value.dayOfYear, minimumDigits: count)
        case "E", "e", "c":
            if letter != "E" && count <= 2 {
                // Local day of week, with Monday first in most locales; CLDR's firstDay is not
                // carried, so ISO's numbering (Monday = 1) is used.
                return number((value.weekday + 6) % 7 + 1, minimumDigits: count)
            }
            let context = letter == "c" ? "s" : "f"
            return name("D." + context + Self.width(count), value.weekday)
        case "a":
            return period(value.hour < 12 ? "am" : "pm", count: count)
        case "b", "B":
            let minuteOfDay = value.hour * 60 + value.minute
            let exact = value.second == 0 && value.nanosecond == 0 && (value.minute == 0 || hasMinute)
            // Noon at 12:00 (ICU, like CLDR, never says "midnight": it is ambiguous).
            if exact, minuteOfDay == 720, letter == "b" || periodRules.contains(where: { $0.0 == "noon" }),
                let name = periodName("noon", count: count)
            {
                return name
            }
            if letter == "B" {
                for (name, start, end) in periodRules where start != end && Self.contains(start, end, minuteOfDay) {
                    if let text = periodName(name, count: count) { return text }
                }
            }
            return period(value.hour < 12 ? "am" : "pm", count: count)
        case "h":
            return number(value.hour % 12 == 0 ? 12 : value.hour % 12, minimumDigits: count)
        case "H":
            return number(value.hour, minimumDigits: count)
        case "K":
            return number(value.hour % 12, minimumDigits: count)
        case "k":
            return number(value.hour == 0 ? 24 : value.hour, minimumDigits: count)
        case "m":
            return number(value.minute, minimumDigits: count)
        case "s":
            return number(value.second, minimumDigits: count)
        case "S":
            var fraction = String(value.nanosecond)
            fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
            if count <= 9 { return number(Int(fraction.prefix(count))!, minimumDigits: count) }
            return number(Int(fraction)!, minimumDigits: 9) + String(repeating: digits[0], count: count - 9)
        case "A":
            let milliseconds = ((value.hour * 60 + value.minute) * 60 + value.second) * 1000 + value.nanosecond / 1_000_000
            return number(milliseconds, minimumDigits: count)
        case "z", "v":
            if value.timeZone.isUTC {
                if let name = locale.date(count >= 4 ? "z.utcl" : "z.utcs") { return name }
            }
            return gmt(value.timeZone.offsetSeconds, long: count >= 4)
        case "V":
            return value.timeZone.isUTC ? (count == 2 ? "Etc/UTC" : "UTC") : gmt(value.timeZone.offsetSeconds, long: true)
        case "O":
            return gmt(value.timeZone.offsetSeconds, long: count >= 4)
        case "Z":
            if count == 4 { return gmt(value.timeZone.offsetSeconds, long: true) }
            if count == 5 { return Self.iso(value.timeZone.offsetSeconds, colon: true, minutes: true, z: true) }
            return Self.iso(value.timeZone.offsetSeconds, colon: false, minutes: true, z: false)
        case "X", "x":
            let z = letter == "X"
            switch count {
            case 1: return Self.iso(value.timeZone.offsetSeconds, colon: false, minutes: value.timeZone.offsetSeconds % 3600 != 0, z: z)
            case 2, 4: return Self.iso(value.timeZone.offsetSeconds, colon: false, minutes: true, z: z)
            default: return Self.iso(value.timeZone.offsetSeconds, colon: true, minutes: true, z: z)
            }
        default:
            return ""
        }
    }

    private static func contains(_ start: Int, _ end: Int, _ minute: Int) -> Bool {
        start < end ? (start <= minute && minute < end) : (minute >= start || minute < end)
    }

    private func period(_ name: String, count: Int) -> String {
        periodName(name, count: count) ?? (name == "am" ? "AM" : "PM")
    }

    /// A day period's format name: abbreviated (1-3 letters), wide (4) or narrow (5), each
    /// falling back to the abbreviated one.
    private func periodName(_ name: String, count: Int) -> String? {
        let width = count == 4 ? "w" : count == 5 ? "n" : "a"
        return locale.date("P.f\(width).\(name)") ?? locale.date("P.fa.\(name)")
    }

    /// The localized GMT format (`GMT+2`, `GMT+02:00`, `GMT`).
    func gmt(_ offset: Int, long: Bool) -> String {
        guard offset != 0 else { return value("z.zero") }
        let patterns = value("z.hour").split(separator: ";").map(String.init)
        var pattern = offset >= 0 ? patterns.first ?? "+HH:mm" : patterns.last ?? "-HH:mm"
        let hours = abs(offset) / 3600, minutes = abs(offset) % 3600 / 60
        if !long {
            pattern = pattern.replacingAll("HH", with: "H")
            if minutes == 0, let m = pattern.firstIndex(of: "m"), let lastH = pattern[..<m].lastIndex(of: "H") {
                // Drop the minutes and the separator before them.
                let end = pattern[m...].firstIndex { $0 != "m" } ?? pattern.endIndex
                pattern.removeSubrange(pattern.index(after: lastH)..<end)
            }
        }
        var text = ""
        var index = pattern.startIndex
        while index < pattern.endIndex {
            let c = pattern[index]
            if c == "H" || c == "m" {
                var end = index
                while end < pattern.endIndex, pattern[end] == c { end = pattern.index(after: end) }
                let count = pattern.distance(from: index, to: end)
                text += number(c == "H" ? hours : minutes, minimumDigits: count)
                index = end
            } else {
                text.append(c)
                index = pattern.index(after: index)
            }
        }
        return value("z.gmt").replacingAll("{0}", with: text)
    }

    static func iso(_ offset: Int, colon: Bool, minutes: Bool, z: Bool) -> String {
        if offset == 0 && z { return "Z" }
        let hours = abs(offset) / 3600, mins = abs(offset) % 3600 / 60
        var text = (offset < 0 ? "-" : "+") + (hours < 10 ? "0" : "") + String(hours)
        if minutes { text += (colon ? ":" : "") + (mins < 10 ? "0" : "") + String(mins) }
        return text
    }
}

/// ICU's DateTimePatternGenerator, simplified: the locale's availableFormats entry closest to
/// a skeleton, its field widths adjusted to the skeleton's, date and time parts combined with
/// the locale's date-time pattern.
enum DateSkeleton {
    /// A skeleton's fields: letter and width, in a canonical letter per field type.
    static func fields(_ skeleton: String) throws(DatePattern.StyleError) -> [Character: Int] {
        var fields: [Character: Int] = [:]
        for character in skeleton {
            guard character.isASCII, character.isLetter else {
                throw DatePattern.StyleError(message: "'\(character)' cannot appear in a date skeleton (letters only, as in ::yMMMd)")
            }
            guard DatePattern.supportedLetters.contains(character) || "jJC".contains(character) else {
                throw DatePattern.StyleError(
                    message: "the date field letter '\(character)' is not supported (docs/locales.md lists the letters jump-forms formats)")
            }
            fields[character, default: 0] += 1
        }
        return fields
    }

    /// The field type of a letter (ICU's dtTypes), and a rank of its width: numeric forms rank
    /// below text forms.
    private static func type(_ letter: Character) -> Character {
        switch letter {
        case "L": "M"
        case "c", "e": "E"
        case "Y", "u": "y"
        case "H", "k", "K", "h": "H"
        case "b", "B": "a"
        case "v", "V", "O", "Z", "X", "x": "z"
        default: letter
        }
    }

    private static func rank(_ letter: Character, _ count: Int) -> Int {
        let numeric: Bool
        switch letter {
        case "M", "L": numeric = count <= 2
        case "e", "c": numeric = count <= 2
        case "E", "G", "a", "b", "B", "z", "v", "O", "V", "Z", "X", "x": numeric = false
        default: numeric = true
        }
        return numeric ? count : 0x100 + count
    }

    static func bestPattern(_ skeleton: String, data: LocaleDateData) throws(DatePattern.StyleError) -> DatePattern {
        var requested = try fields(skeleton)
        // `j` is the locale's hour letter; `J` and `C` the same without (with) a day period.
        for letter in ["j", "J", "C"] as [Character] {
            if let count = requested.removeValue(forKey: letter) {
                requested[data.hourLetter, default: 0] += count
            }
        }
        if requested.isEmpty { throw DatePattern.StyleError(message: "empty date skeleton after '::'") }
        let dateLetters: Set<Character> = Set("GyYuMLdDEec")
        let dateFields = requested.filter { dateLetters.contains($0.key) }
        let timeFields = requested.filter { !dateLetters.contains($0.key) }
        var available: [String: String] = [:]
        // An empty value: the skeleton is the parent's but not this locale's.
        for (key, value) in CLDRFormatData.dates.values(prefix: "k.", chain: data.locale.chain) where !value.isEmpty {
            available[String(key.dropFirst(2))] = value
        }
        let datePart = try dateFields.isEmpty ? nil : best(dateFields, available: available, data: data)
        let timePart = try timeFields.isEmpty ? nil : best(timeFields, available: available, data: data)
        guard let datePart else { return timePart! }
        guard let timePart else { return datePart }
        // ICU: the date-time pattern of the date part's style (MMMM and E full, MMMM long, MMM
        // medium, else short).
        let month = dateFields["M"] ?? dateFields["L"] ?? 0
        let style = month >= 4 ? (dateFields["E"] != nil || dateFields["c"] != nil ? "full" : "long") : month == 3 ? "medium" : "short"
        let combined = data.value("dk." + style)
        var elements: [DatePattern.Element] = []
        var rest = Substring(combined)
        while let open = rest.firstIndex(of: "{") {
            let close = rest[open...].firstIndex(of: "}") ?? rest.endIndex
            if open > rest.startIndex { elements += try DatePattern(parsing: String(rest[..<open])).elements }
            let which = rest[rest.index(after: open)..<close]
            elements += which == "1" ? datePart.elements : timePart.elements
            rest = close < rest.endIndex ? rest[rest.index(after: close)...] : ""
        }
        if !rest.isEmpty { elements += try DatePattern(parsing: String(rest)).elements }
        return DatePattern(elements: elements)
    }

    private static func best(_ requested: [Character: Int], available: [String: String], data: LocaleDateData) throws(DatePattern.StyleError)
        -> DatePattern
    {
        var requestedByType: [Character: (Character, Int)] = [:]
        for (letter, count) in requested { requestedByType[type(letter)] = (letter, count) }
        var bestKey: String?
        var bestDistance = Int.max
        for key in available.keys.sorted() {
            guard let candidate = try? fields(key) else { continue }
            var candidateByType: [Character: (Character, Int)] = [:]
            for (letter, count) in candidate { candidateByType[type(letter)] = (letter, count) }
            var distance = 0
            for (fieldType, (letter, count)) in requestedByType {
                if let (otherLetter, otherCount) = candidateByType[fieldType] {
                    distance += abs(rank(letter, count) - rank(otherLetter, otherCount))
                    if fieldType == "H", letter != otherLetter { distance += 0x80 }
                } else {
                    distance += 0x10000
                }
            }
            for fieldType in candidateByType.keys where requestedByType[fieldType] == nil { distance += 0x1000 }
            if distance < bestDistance {
                bestDistance = distance
                bestKey = key
            }
        }
        guard let bestKey, bestDistance < 0x1000 else {
            // No entry covers these fields: the fields in canonical order, space-separated.
            let order: [Character] = Array("GyYuMLEcedDBbahHKkmsSAzZOvVXx")
            var elements: [DatePattern.Element] = []
            for letter in order {
                guard let count = requested[letter] else { continue }
                if !elements.isEmpty { elements.append(.literal(" ")) }
                elements.append(.field(letter, count))
            }
            return DatePattern(elements: elements)
        }
        let pattern = try DatePattern(parsing: available[bestKey]!)
        var matchedByType: [Character: (Character, Int)] = [:]
        for (letter, count) in try fields(bestKey) { matchedByType[type(letter)] = (letter, count) }
        // Adjust widths: the skeleton's width wins, except for hours, minutes and seconds
        // (ICU keeps the pattern's unless asked) and numeric-versus-text mismatches.
        var elements: [DatePattern.Element] = []
        for element in pattern.elements {
            guard case .field(let letter, let count) = element, let (wanted, wantedCount) = requestedByType[type(letter)] else {
                elements.append(element)
                continue
            }
            if "HhKkms".contains(letter) {
                elements.append(element)
                continue
            }
            // ICU keeps the pattern's width when the entry's skeleton has the requested width,
            // or when one of the two is numeric and the other text.
            let patternNumeric = rank(letter, count) < 0x100
            let wantedNumeric = rank(wanted, wantedCount) < 0x100
            let matchedCount = matchedByType[type(letter)]?.1
            if matchedCount == wantedCount || patternNumeric != wantedNumeric {
                elements.append(element)
                continue
            }
            var newLetter = letter
            if type(letter) == "E" && letter != wanted && wanted == "E" && letter == "c" { newLetter = "c" }
            elements.append(.field(newLetter, wantedCount))
        }
        return DatePattern(elements: elements)
    }
}

import Synchronization
