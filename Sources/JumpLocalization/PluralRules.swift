import JumpDiagnostics

/// A CLDR plural category. The order of the cases is CLDR's (`zero` < `one` < ... < `other`),
/// which is also how `Comparable` sorts them.
public enum PluralCategory: String, CaseIterable, Sendable, Hashable, Comparable, Codable {
    case zero, one, two, few, many, other

    private var rank: Int {
        switch self {
        case .zero: 0
        case .one: 1
        case .two: 2
        case .few: 3
        case .many: 4
        case .other: 5
        }
    }

    public static func < (lhs: PluralCategory, rhs: PluralCategory) -> Bool { lhs.rank < rhs.rank }
}

/// The operands of a number that CLDR plural rules test (UTS #35, "Plural Operand Meanings").
///
/// For `1.50`: `i` = 1, `v` = 2, `w` = 1, `f` = 50, `t` = 5, `e` = 0. For the compact
/// decimal `1.2c3` (1.2 thousand): `i` = 1200, `v` = 0, `e` = 3. The sign is ignored.
///
/// Integer operands of 10^18 and above are kept as their value modulo 10^18 plus 10^18: every
/// CLDR rule compares operands with ranges below 10^18 or takes them modulo a divisor of 10^18
/// (at most 1000000), so the category stays exact for numbers of any length.
public struct PluralOperands: Sendable, Hashable {
    /// The integer digits of the absolute value.
    public let i: Int
    /// The number of visible fraction digits, with trailing zeros.
    public let v: Int
    /// The number of visible fraction digits, without trailing zeros.
    public let w: Int
    /// The visible fraction digits as an integer, with trailing zeros.
    public let f: Int
    /// The visible fraction digits as an integer, without trailing zeros.
    public let t: Int
    /// The compact decimal exponent (`6` in `1.2c6`); 0 for plain numbers.
    public let e: Int

    /// The compact decimal exponent; CLDR defines `c` and `e` as synonyms.
    public var c: Int { e }

    /// The absolute value, `i` plus the fraction. Approximate (a `Double`) and for display
    /// only: the rules themselves use the exact integer operands.
    public var n: Double {
        var scale = 1.0
        for _ in 0..<min(v, 400) { scale *= 10 }
        return Double(i) + Double(f) / scale
    }

    /// The operands of an integer.
    public init(_ value: Int) {
        i = Self.bounded(value.magnitude)
        v = 0
        w = 0
        f = 0
        t = 0
        e = 0
    }

    /// Reads a number written as CLDR writes plural samples: an optional `-`, digits, an
    /// optional `.` and fraction digits (kept as written: `1.50` has `v` = 2), and an optional
    /// compact exponent `c` or `e` with digits (`1.2c6`, `1.2e6`: 1.2 million with `e` = 6).
    /// Nil for anything else (`""`, `"1."`, `".5"`, `"1,5"`, `"1e-3"`, `"+1"`, spaces).
    public init?(_ text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        func digits() -> Range<Int> {
            let start = index
            while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
            return start..<index
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { index += 1 }
        let whole = digits()
        guard !whole.isEmpty else { return nil }
        var fraction = index..<index
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            fraction = digits()
            guard !fraction.isEmpty else { return nil }
        }
        var exponent = 0
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "c") || bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            let exponentDigits = digits()
            guard !exponentDigits.isEmpty else { return nil }
            var accumulator = Accumulator()
            for position in exponentDigits { accumulator.push(bytes[position]) }
            exponent = accumulator.value
        }
        guard index == bytes.count else { return nil }

        // The exponent moves the decimal point right: its first digits join the integer part,
        // and zeros fill in when the fraction runs out.
        let moved = min(exponent, fraction.count)
        var integer = Accumulator()
        for position in whole { integer.push(bytes[position]) }
        for position in fraction.prefix(moved) { integer.push(bytes[position]) }
        integer.pushZeros(exponent - moved)
        let visible = fraction.dropFirst(moved)
        var significantEnd = visible.upperBound
        while significantEnd > visible.lowerBound, bytes[significantEnd - 1] == UInt8(ascii: "0") { significantEnd -= 1 }
        var withZeros = Accumulator()
        var withoutZeros = Accumulator()
        for position in visible {
            withZeros.push(bytes[position])
            if position < significantEnd { withoutZeros.push(bytes[position]) }
        }
        i = integer.value
        v = visible.count
        w = significantEnd - visible.lowerBound
        f = withZeros.value
        t = withoutZeros.value
        e = exponent
    }

    private static let limit = 1_000_000_000_000_000_000  // 10^18

    private static func bounded(_ magnitude: UInt) -> Int {
        magnitude < UInt(limit) ? Int(magnitude) : Int(magnitude % UInt(limit)) + limit
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    /// Decimal digits read into an Int: exact below 10^18, else modulo 10^18 plus 10^18.
    private struct Accumulator {
        private var low = 0
        private var significant = 0

        mutating func push(_ digit: UInt8) {
            let value = Int(digit &- UInt8(ascii: "0"))
            if significant > 0 || value != 0 { significant += 1 }
            low = (low % 100_000_000_000_000_000) * 10 + value
        }

        mutating func pushZeros(_ count: Int) {
            // After 19 zeros the low digits are all 0 and the value is past 10^18 (or still 0).
            for _ in 0..<min(max(count, 0), 19) { push(UInt8(ascii: "0")) }
        }

        var value: Int { significant > 18 ? low + PluralOperands.limit : low }
    }
}

/// Example numbers of a plural category, as CLDR lists them: for Polish `few`, integers
/// `2, 3, 4, 22, 23, 24, 32, 33, 34, 42` and decimals none. Computed by the generator with
/// babel's evaluator of the CLDR rules; compact numbers (`1c6`) come last.
public struct PluralSamples: Sendable, Hashable {
    public var integers: [String]
    public var decimals: [String]

    public init(integers: [String], decimals: [String]) {
        self.integers = integers
        self.decimals = decimals
    }
}

/// The cardinal plural rules of a language (CLDR 47, through babel; see
/// `PluralRules+CLDR.generated.swift` and `scripts/generate-plural-rules.py`).
///
/// ```swift
/// let rules = PluralRules.cardinal(for: "pl-PL")
/// rules.category(for: 3)                          // .few
/// rules.category(for: PluralOperands("1.5")!)     // .other
/// rules.samples(for: .few).integers               // ["2", "3", "4", "22", ...]
/// ```
public struct PluralRules: Sendable, Hashable {
    /// The CLDR id whose rules apply (`pl`, `pt_PT`), or `root` when the language has none
    /// (then the only category is `other`).
    public let language: String
    let ruleSet: Int
    /// True for ordinal rules (`selectordinal`: 1st, 2nd), false for cardinal ones.
    public let isOrdinal: Bool

    init(language: String, ruleSet: Int, isOrdinal: Bool = false) {
        self.language = language
        self.ruleSet = ruleSet
        self.isOrdinal = isOrdinal
    }

    /// The rules for a BCP 47 or CLDR tag (`pl-PL`, `pt_PT`, `zh-Hant-TW`, `sr-Latn`): the whole
    /// tag, then language+script+region, language+region, language+script and the language,
    /// each as a CLDR id. Locales whose CLDR parent is elsewhere follow it (`pt-AO` gets
    /// `pt_PT`, `ht` gets `fr`), deprecated codes their replacement (`iw` gets `he`). Unknown
    /// languages get the root rules (only `other`).
    public static func cardinal(for localeTag: String) -> PluralRules {
        for id in CLDRLocaleID.candidates(localeTag) {
            if let index = CLDR.languageIndex[id] {
                return PluralRules(language: CLDR.languages[index], ruleSet: Int(CLDR.ruleSetOfLanguage[index]))
            }
        }
        return root
    }

    /// The ordinal rules (`selectordinal`) for a tag, found as `cardinal(for:)` finds the
    /// cardinal ones; languages without ordinal rules get the root rules (only `other`).
    public static func ordinal(for localeTag: String) -> PluralRules {
        for id in CLDRLocaleID.candidates(localeTag) {
            if let index = CLDROrdinal.languageIndex[id] {
                return PluralRules(language: CLDROrdinal.languages[index], ruleSet: Int(CLDROrdinal.ruleSetOfLanguage[index]), isOrdinal: true)
            }
        }
        return rootOrdinal
    }

    /// The root ordinal rules: every number is `other`.
    public static let rootOrdinal = PluralRules(language: "root", ruleSet: 0, isOrdinal: true)

    /// The CLDR ids that have ordinal rules, sorted.
    public static var ordinalLanguages: [String] { CLDROrdinal.languages }

    /// The root rules: every number is `other`.
    public static let root = PluralRules(language: "root", ruleSet: 0)

    /// The CLDR ids that have cardinal rules, sorted (`af` ... `pt_PT` ... `zu`).
    public static var languages: [String] { CLDR.languages }

    /// The categories the language uses, sorted; always ends with `other`.
    public var categories: [PluralCategory] { isOrdinal ? CLDROrdinal.ruleSets[ruleSet].categories : CLDR.ruleSets[ruleSet].categories }

    /// The category of a number.
    public func category(for operands: PluralOperands) -> PluralCategory {
        isOrdinal ? CLDROrdinal.category(ruleSet: ruleSet, operands) : CLDR.category(ruleSet: ruleSet, operands)
    }

    /// The category of an integer.
    public func category(for value: Int) -> PluralCategory {
        category(for: PluralOperands(value))
    }

    /// Example numbers of a category; empty when the language does not use it.
    public func samples(for category: PluralCategory) -> PluralSamples {
        let set = isOrdinal ? CLDROrdinal.ruleSets[ruleSet] : CLDR.ruleSets[ruleSet]
        guard let index = set.categories.firstIndex(of: category) else { return PluralSamples(integers: [], decimals: []) }
        return set.samples[index]
    }
}

/// Locale tags as the CLDR ids to look up.
enum CLDRLocaleID {
    /// The CLDR ids to try for a BCP 47 or underscore tag, most specific first:
    /// `zh-hant-tw` gives `zh_Hant_TW`, `zh_TW`, `zh_Hant`, `zh`. Subtags are case-normalized
    /// (language lower, script title, region and variants upper); extensions (`-u-nu-latn`,
    /// `-x-...`) are ignored. Empty when the tag does not start with a 2- or 3-letter language.
    /// scripts/generate-plural-rules.py mirrors this to decide which ids the tables list.
    static func candidates(_ tag: String) -> [String] {
        let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" })
        guard let first = parts.first, (2...3).contains(first.count), first.allSatisfy(isLetter) else { return [] }
        let language = first.lowercased()
        var index = 1
        var script: String?
        var region: String?
        var variants: [String] = []
        if index < parts.count, parts[index].count == 4, parts[index].allSatisfy(isLetter) {
            script = parts[index].prefix(1).uppercased() + parts[index].dropFirst().lowercased()
            index += 1
        }
        if index < parts.count,
            parts[index].count == 2 && parts[index].allSatisfy(isLetter)
                || parts[index].count == 3 && parts[index].allSatisfy(isDigit)
        {
            region = parts[index].uppercased()
            index += 1
        }
        while index < parts.count, parts[index].allSatisfy({ isLetter($0) || isDigit($0) }),
            (5...8).contains(parts[index].count) || parts[index].count == 4 && parts[index].first.map(isDigit) == true
        {
            variants.append(parts[index].uppercased())
            index += 1
        }
        var result = [([language] + [script, region].compactMap { $0 } + variants).joined(separator: "_")]
        func add(_ id: String) { if !result.contains(id) { result.append(id) } }
        if let script, let region { add("\(language)_\(script)_\(region)") }
        if let region { add("\(language)_\(region)") }
        if let script { add("\(language)_\(script)") }
        add(language)
        // Then the ids of its canonical form, for aliases the tables need not list (`ars` is
        // `ar_SA`, as ICU has it; `cmn` is `zh`): see LocaleMatcher.
        let written = ([language] + [script, region].compactMap { $0 }).joined(separator: "-")
        if let tag = LocaleTag(written), tag.canonicalized != tag {
            for id in candidates(tag.canonicalized.identifier) { add(id) }
        }
        return result
    }

    private static func isLetter(_ character: Character) -> Bool { character.isASCII && character.isLetter }
    private static func isDigit(_ character: Character) -> Bool { character.isASCII && character.isNumber }
}
