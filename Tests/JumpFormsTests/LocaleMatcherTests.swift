import Foundation
import JumpForms
import Testing

/// Fixtures/locale-matcher-icu.json, written by scripts/locale-matcher-icu-cases.py: each case's
/// requested tag, available locales, jump-forms' answer, ICU4C LocaleMatcher's answer, and the
/// reason where the two differ.
struct LocaleMatcherFixture: Decodable {
    struct Case: Decodable, CustomTestStringConvertible, Sendable {
        var requested: String
        var available: [String]
        var expected: String?
        var icu: String?
        var reason: String?

        var testDescription: String { "\(requested) among \(available.joined(separator: ","))" }
    }

    /// A locale id the plural tables lack, the language whose rules serve it, and ICU's answer.
    struct PluralCase: Decodable, CustomTestStringConvertible, Sendable {
        var tag: String
        var rules: String
        var icuCategories: [String]
        var icuChoices: [String]
        var reason: String?

        var testDescription: String { "\(tag) as \(rules)" }
    }

    /// A requested tag and ICU's answer for each of `gridSets`.
    struct GridRow: Decodable, Sendable {
        var requested: String
        var icu: [String?]
    }

    var icu: String
    var cases: [Case]
    var gridSets: [[String]]
    var grid: [GridRow]
    /// `requested|set index` -> why jump-forms answers otherwise.
    var gridDifferences: [String: String]
    var pluralSamples: [String]
    var plurals: [PluralCase]

    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/locale-matcher-icu.json").path

    static func load() throws -> LocaleMatcherFixture {
        try JSONDecoder().decode(LocaleMatcherFixture.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
    }

    static let all: [Case] = (try? load().cases) ?? []
    static let allPlurals: [PluralCase] = (try? load().plurals) ?? []
}

@Suite struct LocaleMatcherTests {
    static func tags(_ texts: [String]) throws -> [LocaleTag] {
        try texts.map { try #require(LocaleTag($0), "\($0) is not a tag") }
    }

    @Test func fixtureHasCasesAndComesFromICU() throws {
        let fixture = try LocaleMatcherFixture.load()
        #expect(fixture.cases.count >= 60)
        #expect(fixture.plurals.count >= 20)
        #expect(fixture.icu.split(separator: ".").first.flatMap { Int($0) }.map { $0 >= 72 } == true)
    }

    @Test(arguments: LocaleMatcherFixture.all)
    func matchesAsTheTableSays(_ entry: LocaleMatcherFixture.Case) throws {
        let matcher = LocaleMatcher(available: try Self.tags(entry.available))
        let requested = try #require(LocaleTag(entry.requested))
        #expect(matcher.bestMatch(for: requested)?.identifier == entry.expected)
        // An answer ICU does not give carries its reason (ICU may name the same locale by
        // another code: `he` for an available `iw`).
        let icu = entry.icu.flatMap(LocaleTag.init)?.canonicalized
        let ours = entry.expected.flatMap(LocaleTag.init)?.canonicalized
        #expect((icu == ours) == (entry.reason == nil), "ICU answers \(entry.icu ?? "nothing")")
    }

    /// Every tag of the grid against every set of available locales: ICU4C's answer, except
    /// where the fixture gives the reason jump-forms answers otherwise (and then it must).
    @Test func gridAnswersAsICUOrSaysWhy() throws {
        let fixture = try LocaleMatcherFixture.load()
        #expect(fixture.grid.count * fixture.gridSets.count >= 200)
        var unexplained: [String] = []
        var explainedButSame: [String] = []
        for (index, set) in fixture.gridSets.enumerated() {
            let matcher = LocaleMatcher(available: try Self.tags(set))
            for row in fixture.grid {
                let requested = try #require(LocaleTag(row.requested))
                let ours = matcher.bestMatch(for: requested)?.canonicalized
                let icu = row.icu[index].flatMap(LocaleTag.init)?.canonicalized
                let key = "\(row.requested)|\(index)"
                let explained = fixture.gridDifferences[key] != nil
                if ours != icu && !explained { unexplained.append("\(key): ours \(ours?.identifier ?? "none"), ICU \(icu?.identifier ?? "none")") }
                if ours == icu && explained { explainedButSame.append(key) }
            }
        }
        #expect(unexplained.isEmpty, "\(unexplained.joined(separator: "\n"))")
        #expect(explainedButSame.isEmpty, "\(explainedButSame)")
    }

    @Test func rankingPutsTheNearestFirstAndLeavesOtherLanguagesOut() throws {
        let matcher = LocaleMatcher(available: try Self.tags(["en-US", "es-ES", "es-MX", "fr-FR"]))
        #expect(matcher.ranked(try #require(LocaleTag("es-AR"))).map(\.identifier) == ["es-MX", "es-ES"])
        #expect(matcher.ranked(try #require(LocaleTag("es"))).map(\.identifier) == ["es-ES", "es-MX"])
        #expect(matcher.ranked(try #require(LocaleTag("en-GB"))).map(\.identifier) == ["en-US"])
        #expect(matcher.ranked(try #require(LocaleTag("de"))).isEmpty)
        #expect(matcher.ranked(try #require(LocaleTag("es-MX"))).first?.identifier == "es-MX")
    }

    @Test(arguments: [
        ("es-AR", ["es-AR", "es-419", "es"]), ("fr-CA", ["fr-CA", "fr"]), ("fr", ["fr"]),
        ("zh-HK", ["zh-Hant-HK", "zh-Hant"]), ("zh-TW", ["zh-Hant-TW", "zh-Hant"]), ("zh-CN", ["zh-CN", "zh"]),
        ("zh-Hant-MO", ["zh-Hant-MO", "zh-Hant-HK", "zh-Hant"]), ("nb-NO", ["nb-NO", "nb", "no"]), ("nn", ["nn", "no"]),
        ("pt-AO", ["pt-AO", "pt-PT", "pt"]), ("en-AU", ["en-AU", "en-001", "en"]), ("en-US", ["en-US", "en"]),
        ("sr-ME", ["sr-Latn-ME", "sr-Latn"]), ("sr-Latn-RS", ["sr-Latn-RS", "sr-Latn"]), ("es-Latn-AR", ["es-AR", "es-419", "es"]),
        ("iw-IL", ["he-IL", "he"]), ("sh", ["sr-Latn"]), ("ars", ["ar-SA", "ar"]), ("en-UK", ["en-GB", "en-001", "en"]),
        ("en-US-posix", ["en-US-posix", "en-US", "en"]), ("xx-YY", ["xx-YY", "xx"]),
        ("en-XA", ["en-XA"]), ("ar-XB", ["ar-XB"]), ("en-XA-posix", ["en-XA-posix", "en-XA"])
    ])
    func inheritanceChainsFollowCLDRParents(_ tag: String, _ chain: [String]) throws {
        #expect(try #require(LocaleTag(tag)).inheritanceChain.map(\.identifier) == chain)
    }

    @Test(arguments: [
        ("fr", "fr-Latn-FR"), ("zh-HK", "zh-Hant-HK"), ("zh", "zh-Hans-CN"), ("es-419", "es-Latn-419"),
        ("sr-ME", "sr-Latn-ME"), ("und-HK", "zh-Hant-HK"), ("iw", "he-Hebr-IL"), ("ars", "ar-Arab-SA"), ("xx", "xx")
    ])
    func maximizingAddsLikelySubtags(_ tag: String, _ maximized: String) throws {
        #expect(try #require(LocaleTag(tag)).maximized.identifier == maximized)
    }

    @Test(arguments: [
        ("iw", "he"), ("tl-PH", "fil-PH"), ("sh", "sr-Latn"), ("sh-BA", "sr-Latn-BA"), ("mo-MD", "ro-MD"), ("cnr", "sr-ME"),
        ("cnr-BA", "sr-BA"), ("en-UK", "en-GB"), ("ars", "ar-SA"), ("de-DD", "de-DE"), ("ru-SU", "ru-RU"), ("hy-SU", "hy-AM"),
        ("fr-CA", "fr-CA")
    ])
    func canonicalizingReplacesAliases(_ tag: String, _ canonical: String) throws {
        #expect(try #require(LocaleTag(tag)).canonicalized.identifier == canonical)
    }

    /// Plural rules of ids the tables lack (issue 26: `ars`, CLDR's aliases, regions) choose as
    /// ICU4C's PluralRules does, or as the language CLDR's aliases name where the fixture says
    /// why ICU does not.
    @Test(arguments: LocaleMatcherFixture.allPlurals)
    func pluralRulesOfAliasesChooseAsICU(_ entry: LocaleMatcherFixture.PluralCase) throws {
        let samples = try LocaleMatcherFixture.load().pluralSamples
        let rules = PluralRules.cardinal(for: entry.tag)
        let choices = try samples.map { try #require(PluralOperands($0)) }.map { rules.category(for: $0).rawValue }
        let categories = rules.categories.map(\.rawValue).sorted()
        if entry.reason == nil {
            #expect(categories == entry.icuCategories)
            #expect(choices == entry.icuChoices)
        } else {
            #expect(categories != entry.icuCategories || choices != entry.icuChoices, "ICU agrees: drop the reason")
        }
        // Either way, the rules are those of the language named.
        let named = PluralRules.cardinal(for: entry.rules)
        #expect(try samples.map { try #require(PluralOperands($0)) }.map { named.category(for: $0).rawValue } == choices)
        #expect(named.categories == rules.categories)
    }

    @Test func aliasesReachThePluralRulesAndNumberSymbols() {
        // ICU answers for `ars` as for `ar-SA`; CLDR's tables have no `ars`.
        #expect(PluralRules.cardinal(for: "ars").language == "ar")
        #expect(PluralRules.cardinal(for: "ars-SA").category(for: 2) == .two)
        #expect(PluralRules.cardinal(for: "cmn").language == "zh")
        #expect(PluralRules.cardinal(for: "nob").language == "nb")
        #expect(PluralRules.cardinal(for: "mo-MD").language == "ro")
        #expect(PluralRules.cardinal(for: "hbs").language == "sr")
        #expect(NumberSymbols.forLocale("ars") == NumberSymbols.forLocale("ar-SA"))
        #expect(PluralRules.cardinal(for: "xx").language == "root")
    }
}
