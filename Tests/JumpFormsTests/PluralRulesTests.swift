import Foundation
import JumpForms
import Testing

/// Fixtures/plural-samples.json, written by scripts/generate-plural-rules.py from babel: the
/// rules, categories and samples of every language, babel's category of every candidate number,
/// the CLDR id each babel locale resolves to, and babel.numbers.format_decimal outputs.
struct PluralFixture: Decodable, Sendable {
    struct Samples: Decodable, Sendable {
        var integers: [String]
        var decimals: [String]
    }

    struct RuleSet: Decodable, Sendable {
        var languages: [String]
        var rules: [String: String]
        /// babel's `PluralRule.tags` plus `other` (babel leaves `other` out), in CLDR order.
        var categories: [String]
        var samples: [String: Samples]
        /// One digit per candidate: the index of babel's category in zero, one, ..., other.
        var candidateCategories: String
    }

    struct Plurals: Decodable, Sendable {
        var candidates: [String]
        var ruleSets: [RuleSet]
        /// Every babel locale id and deprecated code -> the CLDR id whose rules apply.
        var locales: [String: String]
    }

    struct SymbolSet: Decodable, Sendable {
        var decimal: String
        var group: String
        var minusSign: String
        var primaryGrouping: Int
        var secondaryGrouping: Int
    }

    struct Formats: Decodable, Sendable {
        var integers: [String]
        var decimals: [String]
    }

    struct Numbers: Decodable, Sendable {
        var integers: [String]
        var decimals: [String]
        var symbolSets: [SymbolSet]
        var locales: [String: Int]
        var formats: [String: Formats]
    }

    var babel: String
    var cldr: String
    var plurals: Plurals
    var numbers: Numbers

    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/plural-samples.json").path

    private static let cached = Result { try JSONDecoder().decode(PluralFixture.self, from: Data(contentsOf: URL(fileURLWithPath: path))) }

    static func load() throws -> PluralFixture { try cached.get() }

    static func languages() throws -> [String] {
        try load().plurals.ruleSets.flatMap(\.languages).sorted()
    }

    static func ruleSet(of language: String) throws -> RuleSet {
        try #require(try load().plurals.ruleSets.first { $0.languages.contains(language) }, "\(language) is not in the fixture")
    }

    static func formatLocales() throws -> [String] {
        try load().numbers.formats.keys.sorted()
    }
}

@Suite struct PluralRulesTests {
    @Test func fixtureComesFromTheExpectedBabel() throws {
        let fixture = try PluralFixture.load()
        #expect(fixture.babel == "2.18.0")
        #expect(fixture.cldr == "47")
    }

    @Test func everyLanguageBabelKnowsIsGenerated() throws {
        #expect(PluralRules.languages == (try PluralFixture.languages()))
        for language in [
            "en", "fr", "de", "es", "it", "pt", "pt_PT", "nl", "sv", "da", "nb", "fi", "pl", "cs", "ru", "uk", "tr",
            "el", "hu", "ro", "ja", "ko", "zh", "ar", "he", "hi", "th", "id", "vi", "sk"
        ] {
            #expect(PluralRules.cardinal(for: language).language == language)
        }
    }

    @Test(arguments: try PluralFixture.languages())
    func samplesFallInTheirCategory(_ language: String) throws {
        let expected = try PluralFixture.ruleSet(of: language)
        let rules = PluralRules.cardinal(for: language)
        #expect(rules.language == language)
        #expect(rules.categories.map(\.rawValue) == expected.categories)
        for name in expected.categories {
            let category = try #require(PluralCategory(rawValue: name))
            let samples = try #require(expected.samples[name])
            #expect(!(samples.integers + samples.decimals).isEmpty, "\(language) \(name) has no sample")
            for sample in samples.integers + samples.decimals {
                let operands = try #require(PluralOperands(sample), "\(sample)")
                #expect(rules.category(for: operands) == category, "\(language): \(sample) should be \(name)")
            }
            #expect(rules.samples(for: category) == PluralSamples(integers: samples.integers, decimals: samples.decimals))
        }
        for unused in PluralCategory.allCases where !rules.categories.contains(unused) {
            #expect(rules.samples(for: unused) == PluralSamples(integers: [], decimals: []))
        }
    }

    @Test(arguments: try PluralFixture.languages())
    func everyCandidateGetsBabelsCategory(_ language: String) throws {
        let candidates = try PluralFixture.load().plurals.candidates
        let expected = Array(try PluralFixture.ruleSet(of: language).candidateCategories.utf8)
        try #require(expected.count == candidates.count)
        let rules = PluralRules.cardinal(for: language)
        var mismatches: [String] = []
        for (text, digit) in zip(candidates, expected) {
            let operands = try #require(PluralOperands(text), "\(text)")
            let category = PluralCategory.allCases[Int(digit - UInt8(ascii: "0"))]
            let actual = rules.category(for: operands)
            if actual != category { mismatches.append("\(text): \(actual), babel \(category)") }
        }
        #expect(mismatches.isEmpty, "\(language): \(mismatches.prefix(10).joined(separator: "; "))")
    }

    @Test func everyBabelLocaleResolvesToItsCLDRRules() throws {
        for (tag, language) in try PluralFixture.load().plurals.locales {
            #expect(PluralRules.cardinal(for: tag).language == language, "\(tag)")
            // Tags are case-insensitive and take either separator.
            let bcp47 = tag.replacingOccurrences(of: "_", with: "-").lowercased()
            #expect(PluralRules.cardinal(for: bcp47).language == language, "\(bcp47)")
        }
    }

    @Test(arguments: [
        ("pl-PL", "pl"), ("pt_PT", "pt_PT"), ("pt-BR", "pt"), ("pt-AO", "pt_PT"), ("pt-MZ", "pt_PT"),
        ("zh-Hant-TW", "zh"), ("zh_Hans", "zh"), ("sr-Latn", "sr"), ("sr-Latn-RS", "sr"), ("EN-us", "en"),
        ("en-US-u-nu-arab", "en"), ("en-x-private", "en"), ("de-CH-1996", "de"), ("ca-ES-valencia", "ca"),
        ("es-419", "es"), ("ht", "fr"), ("ht-HT", "fr"), ("iw", "he"), ("iw-IL", "he"), ("in", "id"), ("tl", "fil"),
        ("mo", "ro"), ("sh", "sr"), ("no", "no"), ("nb-NO", "nb"), ("xx", "root"), ("xx-YY", "root"), ("", "root"),
        ("root", "root"), ("123", "root"), ("-", "root"), ("e", "root"), ("english", "root")
    ])
    func tagsFallBackToTheirLanguage(_ tag: String, _ language: String) {
        #expect(PluralRules.cardinal(for: tag).language == language)
    }

    @Test func rootRulesHaveOnlyOther() {
        let root = PluralRules.cardinal(for: "tlh")
        #expect(root == PluralRules.root)
        #expect(root.categories == [.other])
        #expect(root.category(for: 1) == .other)
        #expect(!root.samples(for: .other).integers.isEmpty)
    }

    @Test func wellKnownCategories() throws {
        let pl = PluralRules.cardinal(for: "pl")
        #expect([1, 2, 5, 12, 22, 25, 112, 122].map(pl.category(for:)) == [.one, .few, .many, .many, .few, .many, .many, .few])
        #expect(pl.category(for: try #require(PluralOperands("1.5"))) == .other)
        #expect(pl.samples(for: .few).integers.prefix(10) == ["2", "3", "4", "22", "23", "24", "32", "33", "34", "42"])
        let fr = PluralRules.cardinal(for: "fr-FR")
        #expect(fr.categories == [.one, .many, .other])
        #expect(fr.category(for: 0) == .one)
        #expect(fr.category(for: 1_000_000) == .many)
        #expect(fr.category(for: try #require(PluralOperands("1c6"))) == .many)
        #expect(fr.category(for: try #require(PluralOperands("1.5c6"))) == .many)
        #expect(fr.category(for: try #require(PluralOperands("1c3"))) == .other)
        let en = PluralRules.cardinal(for: "en")
        #expect(en.category(for: try #require(PluralOperands("1"))) == .one)
        #expect(en.category(for: try #require(PluralOperands("1.0"))) == .other)
        #expect(en.category(for: -1) == .one)
        let ar = PluralRules.cardinal(for: "ar-EG")
        #expect([0, 1, 2, 3, 11, 100, 102, 103, 111].map(ar.category(for:)) == [.zero, .one, .two, .few, .many, .other, .other, .few, .many])
        let ru = PluralRules.cardinal(for: "ru")
        #expect(ru.category(for: Int.min) == .many)  // ...808
        #expect(ru.category(for: Int.max) == .many)  // ...807
        #expect(ru.category(for: try #require(PluralOperands("100000000000000000000001"))) == .one)
    }

    @Test func categoriesSortInCLDROrder() {
        #expect(PluralCategory.allCases.sorted() == [.zero, .one, .two, .few, .many, .other])
        #expect(PluralCategory.other > .many && PluralCategory.zero < .one)
        #expect([PluralCategory.other, .few, .one].sorted() == [.one, .few, .other])
    }
}

@Suite struct PluralOperandsTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var text: String
        var i: Int, v: Int, w: Int, f: Int, t: Int, e: Int
        var testDescription: String { text }
    }

    @Test(arguments: [
        Case(text: "1", i: 1, v: 0, w: 0, f: 0, t: 0, e: 0),
        Case(text: "-3", i: 3, v: 0, w: 0, f: 0, t: 0, e: 0),
        Case(text: "0.0", i: 0, v: 1, w: 0, f: 0, t: 0, e: 0),
        Case(text: "1.50", i: 1, v: 2, w: 1, f: 50, t: 5, e: 0),
        Case(text: "1.05", i: 1, v: 2, w: 2, f: 5, t: 5, e: 0),
        Case(text: "0.05", i: 0, v: 2, w: 2, f: 5, t: 5, e: 0),
        Case(text: "007.100", i: 7, v: 3, w: 1, f: 100, t: 1, e: 0),
        Case(text: "1.2c3", i: 1200, v: 0, w: 0, f: 0, t: 0, e: 3),
        Case(text: "1.2c6", i: 1_200_000, v: 0, w: 0, f: 0, t: 0, e: 6),
        Case(text: "1.2e6", i: 1_200_000, v: 0, w: 0, f: 0, t: 0, e: 6),
        Case(text: "1.2345c3", i: 1234, v: 1, w: 1, f: 5, t: 5, e: 3),
        Case(text: "1.0000001c6", i: 1_000_000, v: 1, w: 1, f: 1, t: 1, e: 6),
        Case(text: "1.20c1", i: 12, v: 1, w: 0, f: 0, t: 0, e: 1),
        Case(text: "123c6", i: 123_000_000, v: 0, w: 0, f: 0, t: 0, e: 6),
        Case(text: "0c0", i: 0, v: 0, w: 0, f: 0, t: 0, e: 0),
        Case(text: "0c30", i: 0, v: 0, w: 0, f: 0, t: 0, e: 30),
        // 10^18 and above: modulo 10^18, plus 10^18.
        Case(text: "12345678901234567890", i: 1_345_678_901_234_567_890, v: 0, w: 0, f: 0, t: 0, e: 0),
        Case(text: "1c30", i: 1_000_000_000_000_000_000, v: 0, w: 0, f: 0, t: 0, e: 30),
        Case(text: "999999999999999999", i: 999_999_999_999_999_999, v: 0, w: 0, f: 0, t: 0, e: 0),
        Case(text: "0.000000000000000000001", i: 0, v: 21, w: 21, f: 1, t: 1, e: 0),
        Case(text: "0.1234567890123456789", i: 0, v: 19, w: 19, f: 1_234_567_890_123_456_789, t: 1_234_567_890_123_456_789, e: 0)
    ])
    func parsesLikeTR35(_ c: Case) throws {
        let o = try #require(PluralOperands(c.text))
        let actual: [Int] = [o.i, o.v, o.w, o.f, o.t, o.e, o.c]
        #expect(actual == [c.i, c.v, c.w, c.f, c.t, c.e, c.e])
    }

    @Test(arguments: [
        "", "-", "1.", ".5", "1..2", "1.5.5", "1,5", "x", "1e", "1c", "1e-3", "1e+3", "+1", " 1", "1 ",
        "--1", "1e3.5", "0x10", "\u{661}", "\u{BD}", "1_000", "1.2c3c4", "NaN", "inf"
    ])
    func rejectsWhatIsNotANumber(_ text: String) {
        #expect(PluralOperands(text) == nil)
    }

    @Test func integersMatchTheirText() throws {
        for value in [0, 1, -1, 7, 1_000_000, 999_999_999_999_999_999, 1_000_000_000_000_000_000, Int.max, Int.min] {
            #expect(PluralOperands(value) == (try #require(PluralOperands(String(value)))), "\(value)")
        }
        #expect(PluralOperands(Int.min).i == 1_223_372_036_854_775_808)
    }

    @Test func nIsTheApproximateValue() throws {
        #expect(try #require(PluralOperands("1.2c6")).n == 1_200_000)
        #expect(try #require(PluralOperands("-2.5")).n == 2.5)
        #expect(PluralOperands(42).n == 42)
    }
}

@Suite struct NumberSymbolsTests {
    @Test func everyBabelLocaleGetsItsSymbols() throws {
        let numbers = try PluralFixture.load().numbers
        for (tag, index) in numbers.locales {
            let expected = numbers.symbolSets[index]
            let symbols = NumberSymbols.forLocale(tag)
            #expect(
                symbols
                    == NumberSymbols(
                        decimal: expected.decimal, group: expected.group, minusSign: expected.minusSign,
                        primaryGrouping: expected.primaryGrouping, secondaryGrouping: expected.secondaryGrouping),
                "\(tag)")
        }
    }

    /// babel writes an ASCII `-` whatever the locale; CLDR (and this code) use its minus sign.
    private static func localizingSign(_ babel: String, _ symbols: NumberSymbols) -> String {
        babel.hasPrefix("-") ? symbols.minusSign + babel.dropFirst() : babel
    }

    @Test(arguments: try PluralFixture.formatLocales())
    func formatsAsBabelDoes(_ locale: String) throws {
        let numbers = try PluralFixture.load().numbers
        let expected = try #require(numbers.formats[locale])
        let symbols = NumberSymbols.forLocale(locale)
        for (text, babel) in zip(numbers.integers, expected.integers) {
            let value = try #require(Int(text))
            #expect(symbols.format(integer: value) == Self.localizingSign(babel, symbols), "\(locale) \(text)")
            #expect(symbols.format(decimal: text) == Self.localizingSign(babel, symbols), "\(locale) \(text)")
        }
        for (text, babel) in zip(numbers.decimals, expected.decimals) {
            #expect(symbols.format(decimal: text) == Self.localizingSign(babel, symbols), "\(locale) \(text)")
        }
    }

    @Test func wellKnownFormats() {
        #expect(NumberSymbols.forLocale("en-US").format(integer: 1_234_567) == "1,234,567")
        #expect(NumberSymbols.forLocale("de").format(decimal: "-1234.50") == "-1.234,50")
        #expect(NumberSymbols.forLocale("hi-IN").format(integer: 123_456_789) == "12,34,56,789")
        #expect(NumberSymbols.forLocale("fr").format(integer: 1234) == "1\u{202F}234")
        #expect(NumberSymbols.forLocale("sv").format(integer: -5) == "\u{2212}5")
        #expect(NumberSymbols.forLocale("de-CH").format(decimal: "1234.5") == "1\u{2019}234.5")
        #expect(NumberSymbols.forLocale("es-MX").format(decimal: "1234.5") == "1,234.5")
        #expect(NumberSymbols.forLocale("es").format(decimal: "1234.5") == "1.234,5")
        #expect(NumberSymbols.forLocale("en-US-POSIX").format(integer: 1_234_567) == "1234567")
        #expect(NumberSymbols.forLocale("xx") == NumberSymbols.root)
        #expect(NumberSymbols.forLocale("iw").minusSign == "\u{200E}-")
    }

    @Test(arguments: ["", "-", "abc", "1e3", "1.", ".5", "1,5", "+1", " 1", "1.2.3", "--1", "\u{661}"])
    func leavesNonDecimalsAlone(_ text: String) {
        #expect(NumberSymbols.forLocale("de").format(decimal: text) == text)
    }

    @Test func decimalEdgeCases() {
        let en = NumberSymbols.root
        #expect(en.format(decimal: "007") == "7")
        #expect(en.format(decimal: "0000.50") == "0.50")
        #expect(en.format(decimal: "-0.0") == "-0.0")
        #expect(en.format(decimal: "123456789012345678901234567890") == "123,456,789,012,345,678,901,234,567,890")
        #expect(en.format(integer: Int.min) == "-9,223,372,036,854,775,808")
        let ungrouped = NumberSymbols(decimal: ",", group: ".", minusSign: "-", primaryGrouping: 0, secondaryGrouping: 0)
        #expect(ungrouped.format(integer: -1_234_567) == "-1234567")
        let odd = NumberSymbols(decimal: ".", group: " ", minusSign: "-", primaryGrouping: 3, secondaryGrouping: 0)
        #expect(odd.format(integer: 1_234_567) == "1234 567")
    }
}

/// Fixtures/cldr-plural-samples.json: CLDR 47's own `@integer` / `@decimal` sample strings
/// (read from ICU 77.1's copy of plurals.xml by scripts/generate-plural-rules.py).
struct CLDRSampleFixture: Decodable, Sendable {
    var cldr: String
    var icu: String
    /// language -> category -> "integer"/"decimal" -> sample string.
    var languages: [String: [String: [String: String]]]

    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/cldr-plural-samples.json").path

    private static let cached = Result { try JSONDecoder().decode(CLDRSampleFixture.self, from: Data(contentsOf: URL(fileURLWithPath: path))) }

    static func load() throws -> CLDRSampleFixture { try cached.get() }

    /// Every number a sample string stands for: `2~4` is 2, 3, 4; `0.0~1.5` is 0.0, 0.1, ...,
    /// 1.5 (steps of the last fraction digit); the final `…` ("and so on") is dropped.
    static func expand(_ samples: String) throws -> [String] {
        var numbers: [String] = []
        for item in samples.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where item != "…" {
            let bounds = item.split(separator: "~").map(String.init)
            guard bounds.count == 2 else {
                numbers.append(item)
                continue
            }
            let digits = bounds[0].split(separator: ".").dropFirst().first?.count ?? 0
            try #require(bounds[1].split(separator: ".").dropFirst().first?.count ?? 0 == digits, "\(item)")
            let low = try #require(Int(bounds[0].replacingOccurrences(of: ".", with: "")), "\(item)")
            let high = try #require(Int(bounds[1].replacingOccurrences(of: ".", with: "")), "\(item)")
            try #require(low < high && high - low < 10_000, "\(item)")
            for scaled in low...high {
                guard digits > 0 else {
                    numbers.append(String(scaled))
                    continue
                }
                let text = String(repeating: "0", count: max(0, digits + 1 - String(scaled).count)) + String(scaled)
                numbers.append(String(text.dropLast(digits)) + "." + String(text.suffix(digits)))
            }
        }
        return numbers
    }
}

@Suite struct CLDRSampleTests {
    @Test func fixtureIsCLDR47ForEveryLanguage() throws {
        let fixture = try CLDRSampleFixture.load()
        #expect(fixture.cldr == "47")
        #expect(fixture.icu == "77.1")
        #expect(fixture.languages.keys.sorted() == PluralRules.languages)
    }

    @Test func rangesExpandAsCLDRMeansThem() throws {
        #expect(try CLDRSampleFixture.expand("2~4, 22, 1c6, …") == ["2", "3", "4", "22", "1c6"])
        #expect(try CLDRSampleFixture.expand("0.0~0.3, 1.5") == ["0.0", "0.1", "0.2", "0.3", "1.5"])
        #expect(try CLDRSampleFixture.expand("0.00~0.02") == ["0.00", "0.01", "0.02"])
        #expect(try CLDRSampleFixture.expand("9.8~10.1") == ["9.8", "9.9", "10.0", "10.1"])
    }

    /// Each of CLDR's sample numbers (ranges expanded) falls in the category CLDR lists it under,
    /// and the language uses exactly the categories CLDR gives samples for.
    @Test(arguments: PluralRules.languages)
    func cldrSamplesFallInTheirCategory(_ language: String) throws {
        let categories = try #require(try CLDRSampleFixture.load().languages[language], "\(language) has no CLDR samples")
        let rules = PluralRules.cardinal(for: language)
        #expect(rules.language == language)
        #expect(Set(rules.categories.map(\.rawValue)) == Set(categories.keys), "\(language)")
        var wrong: [String] = []
        var count = 0
        for (name, kinds) in categories {
            let category = try #require(PluralCategory(rawValue: name))
            for (kind, samples) in kinds {
                for number in try CLDRSampleFixture.expand(samples) {
                    let operands = try #require(PluralOperands(number), "\(language) \(kind) sample '\(number)'")
                    count += 1
                    if rules.category(for: operands) != category {
                        wrong.append("\(number) is \(rules.category(for: operands)), CLDR says \(name)")
                    }
                }
            }
        }
        #expect(count > 0)
        #expect(wrong.isEmpty, "\(language): \(wrong.prefix(10).joined(separator: "; "))")
    }

    /// The same for ordinals: Fixtures/cldr-ordinal-samples.json holds CLDR 47's ordinal
    /// `@integer` samples (scripts/generate-cldr-formats.py), and `selectordinal` puts each
    /// in its category.
    @Test(arguments: PluralRules.ordinalLanguages)
    func cldrOrdinalSamplesFallInTheirCategory(_ language: String) throws {
        struct Fixture: Decodable { var cldr: String; var languages: [String: [String: [String: String]]] }
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/cldr-ordinal-samples.json").path
        let fixture = try JSONDecoder().decode(Fixture.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(fixture.cldr == "47")
        let categories = try #require(fixture.languages[language], "\(language) has no CLDR ordinal samples")
        let rules = PluralRules.ordinal(for: language)
        #expect(Set(rules.categories.map(\.rawValue)) == Set(categories.keys), "\(language)")
        var wrong: [String] = []
        for (name, kinds) in categories {
            let category = try #require(PluralCategory(rawValue: name))
            for number in try CLDRSampleFixture.expand(kinds["integer"] ?? "") {
                let operands = try #require(PluralOperands(number), "\(language) ordinal sample '\(number)'")
                if rules.category(for: operands) != category { wrong.append("\(number) is \(rules.category(for: operands)), CLDR says \(name)") }
            }
        }
        #expect(wrong.isEmpty, "\(language): \(wrong.prefix(10).joined(separator: "; "))")
    }
}
