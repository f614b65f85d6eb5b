/// The CLDR plural categories.
public enum PluralCategory: String, Sendable, Hashable, CaseIterable, Comparable, Codable {
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

/// The operands of a number as CLDR's plural rules see it (TR35): `n` the absolute value,
/// `i` its integer digits, `v`/`w` the count of visible fraction digits with and without
/// trailing zeros, `f`/`t` those digits as an integer, `e` the compact-decimal exponent.
public struct PluralOperands: Sendable, Hashable {
    public let n: Double
    public let i: Int
    public let v: Int
    public let w: Int
    public let f: Int
    public let t: Int
    public let e: Int

    public init(_ value: Int) {
        let magnitude = value.magnitude > UInt(Int.max) ? Int.max : Int(value.magnitude)
        n = Double(magnitude)
        i = magnitude
        v = 0
        w = 0
        f = 0
        t = 0
        e = 0
    }

    /// Parses `1`, `-3`, `1.50`, `0.0`, and compact decimals `1.2c6` / `1.2e6` exactly as CLDR
    /// defines the operands (`1.50`: i=1, v=2, w=1, f=50, t=5). Nil for anything else.
    public init?(_ text: String) {
        var scalars = Substring(text)
        if scalars.hasPrefix("-") || scalars.hasPrefix("+") { scalars = scalars.dropFirst() }
        var exponent = 0
        if let marker = scalars.firstIndex(where: { $0 == "e" || $0 == "c" || $0 == "E" || $0 == "C" }) {
            let digits = scalars[scalars.index(after: marker)...]
            guard !digits.isEmpty, digits.count <= 3, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let value = Int(digits) else { return nil }
            exponent = value
            scalars = scalars[..<marker]
        }
        let parts = scalars.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), let whole = parts.first, !whole.isEmpty,
              whole.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        var integer = String(whole)
        var fraction = parts.count == 2 ? String(parts[1]) : ""
        guard fraction.allSatisfy({ $0.isASCII && $0.isNumber }), parts.count == 1 || !fraction.isEmpty else { return nil }
        // A compact exponent moves the decimal point right.
        var shift = exponent
        while shift > 0 {
            integer.append(fraction.isEmpty ? "0" : fraction.removeFirst())
            shift -= 1
        }
        let significant = integer.drop { $0 == "0" }
        guard significant.count <= 18, fraction.count <= 18 else { return nil }
        let trimmed = String(fraction.reversed().drop { $0 == "0" }.reversed())
        i = Int(significant) ?? 0
        v = fraction.count
        w = trimmed.count
        f = Int(fraction) ?? 0
        t = Int(trimmed) ?? 0
        e = exponent
        n = Double(fraction.isEmpty ? String(i) : "\(i).\(fraction)") ?? Double(i)
    }

    /// Whether a value has no fraction (CLDR's `n in 1..4` holds for integers only).
    public static func isIntegral(_ value: Double) -> Bool {
        value == value.rounded(.towardZero)
    }
}

/// Numbers that fall in a category, for messages such as "pl: 'few' is used for 2, 3, 4, 22...".
public struct PluralSamples: Sendable, Hashable {
    public var integers: [String]
    public var decimals: [String]

    public init(integers: [String], decimals: [String]) {
        self.integers = integers
        self.decimals = decimals
    }
}

/// The cardinal plural rules of a language, generated from CLDR (see
/// `PluralRules+CLDR.generated.swift` and `scripts/generate-plural-rules.py`).
public struct PluralRules: Sendable, Hashable {
    /// The CLDR id whose rules apply (`pl`, `pt_PT`), or `root` (only `other`).
    public let language: String
    let ruleSet: Int

    /// The rules for a BCP 47 or CLDR tag: the full tag, then language+script, language+region,
    /// and language; unknown languages get the root rules (`other` only).
    public static func cardinal(for localeTag: String) -> PluralRules {
        for candidate in CLDRIds.candidates(localeTag) {
            if let ruleSet = ruleSetOfLanguage[candidate] { return PluralRules(language: candidate, ruleSet: ruleSet) }
        }
        return PluralRules(language: "root", ruleSet: ruleSetOfLanguage["root"] ?? 0)
    }

    /// Every CLDR id with rules, sorted.
    public static var languages: [String] { ruleSetOfLanguage.keys.sorted() }

    /// The categories the language uses, in CLDR order (`other` last).
    public var categories: [PluralCategory] { Self.ruleSetCategories[ruleSet] }

    public func category(for operands: PluralOperands) -> PluralCategory {
        Self.category(ruleSet: ruleSet, operands)
    }

    public func category(for value: Int) -> PluralCategory {
        category(for: PluralOperands(value))
    }

    /// Sample numbers of a category (empty when the language does not use it).
    public func samples(for category: PluralCategory) -> PluralSamples {
        Self.ruleSetSamples[ruleSet][category] ?? PluralSamples(integers: [], decimals: [])
    }
}

/// The CLDR ids to try for a tag, most specific first.
enum CLDRIds {
    static func candidates(_ tag: String) -> [String] {
        let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        guard let first = parts.first else { return [] }
        let language = first.lowercased()
        var script: String?
        var region: String?
        for part in parts.dropFirst() {
            if part.count == 4, script == nil, region == nil {
                script = part.prefix(1).uppercased() + part.dropFirst().lowercased()
            } else if part.count == 2 || (part.count == 3 && part.allSatisfy(\.isNumber)), region == nil {
                region = part.uppercased()
            }
        }
        var result: [String] = []
        if let script, let region { result.append("\(language)_\(script)_\(region)") }
        if let script { result.append("\(language)_\(script)") }
        if let region { result.append("\(language)_\(region)") }
        result.append(language)
        return result
    }
}
