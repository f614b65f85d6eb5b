import Foundation
import JumpForms
import Testing
import TestSupport

/// The generated CLDR tables against babel's own evaluation (Fixtures/plural-samples.json, made
/// by scripts/generate-plural-rules.py).
@Suite struct PluralRulesTests {
    struct Fixture: Decodable {
        struct Language: Decodable {
            var categories: [String]
            var samples: [String: [String: [String]]]
        }

        var plurals: [String: Language]
        var numbers: [String: [String: String]]
    }

    static let fixture: Fixture = {
        let data = FileManager.default.contents(atPath: Repository.path("Tests/JumpFormsTests/Fixtures/plural-samples.json"))!
        return try! JSONDecoder().decode(Fixture.self, from: data)
    }()

    static let languages = fixture.plurals.keys.sorted()

    @Test func everyLanguageBabelKnowsIsGenerated() {
        #expect(Set(PluralRules.languages) == Set(Self.languages))
        for language in ["en", "fr", "de", "es", "it", "pt", "pt_PT", "nl", "sv", "da", "nb", "fi", "pl", "cs", "ru", "uk", "tr",
                         "el", "hu", "ro", "ja", "ko", "zh", "ar", "he", "hi", "th", "id", "vi", "sk"] {
            #expect(PluralRules.cardinal(for: language).language == language, "\(language)")
        }
    }

    @Test(arguments: languages)
    func samplesFallInTheirCategory(_ language: String) throws {
        let rules = PluralRules.cardinal(for: language)
        let expected = try #require(Self.fixture.plurals[language])
        #expect(rules.categories.map(\.rawValue) == expected.categories)
        for (categoryName, kinds) in expected.samples {
            let category = try #require(PluralCategory(rawValue: categoryName))
            for sample in (kinds["integers"] ?? []) + (kinds["decimals"] ?? []) {
                let operands = try #require(PluralOperands(sample), "\(sample)")
                #expect(rules.category(for: operands) == category, "\(language): \(sample) should be \(categoryName)")
            }
            #expect(rules.samples(for: category).integers == Array((kinds["integers"] ?? []).prefix(16)))
        }
    }

    @Test func operandsFollowTR35() throws {
        let o = try #require(PluralOperands("1.50"))
        #expect((o.i, o.v, o.w, o.f, o.t, o.e) == (1, 2, 1, 50, 5, 0))
        let compact = try #require(PluralOperands("1.2c6"))
        #expect((compact.i, compact.v, compact.e, compact.n) == (1_200_000, 0, 6, 1_200_000))
        let partial = try #require(PluralOperands("1.23456e3"))
        #expect((partial.i, partial.v, partial.f) == (1234, 2, 56))
        #expect(PluralOperands("-3")?.i == 3)
        for bad in ["", "1.", ".5", "1..2", "1,5", "x", "1e", "1e1234"] {
            #expect(PluralOperands(bad) == nil, "\(bad)")
        }
    }

    @Test func compactExponentsReachFrenchMany() throws {
        let fr = PluralRules.cardinal(for: "fr-FR")
        #expect(fr.category(for: try #require(PluralOperands("1c6"))) == .many)
        #expect(fr.category(for: try #require(PluralOperands("1.5c6"))) == .many)
        #expect(fr.category(for: 1_000_000) == .many)
        #expect(fr.category(for: 1) == .one)
        #expect(fr.category(for: 0) == .one)
    }

    @Test(arguments: [("pl-PL", "pl"), ("pt_PT", "pt_PT"), ("pt-BR", "pt"), ("zh-Hant-TW", "zh"), ("xx-YY", "root"), ("EN", "en")])
    func tagsFallBackToTheirLanguage(_ tag: String, _ expected: String) {
        #expect(PluralRules.cardinal(for: tag).language == expected)
    }

    @Test func negativeNumbersUseTheCLDRMinusSign() {
        #expect(NumberSymbols.forLocale("sv").format(integer: -1234) == "\u{2212}1\u{A0}234")
        #expect(NumberSymbols.forLocale("en-US").format(integer: -1234) == "-1,234")
        #expect(NumberSymbols.forLocale("hi").format(decimal: "-12345678.5") == "-1,23,45,678.5")
    }

    @Test(arguments: fixture.numbers.keys.sorted())
    func numbersAreFormattedAsBabelDoes(_ locale: String) throws {
        let symbols = NumberSymbols.forLocale(locale)
        for (number, expected) in try #require(Self.fixture.numbers[locale]) {
            #expect(symbols.format(decimal: number) == expected, "\(locale) \(number)")
        }
    }
}
