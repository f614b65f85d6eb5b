import JumpForms
import Testing

@Suite struct ModelTests {
    @Test func civilDateParsesOnlyRealDates() {
        #expect(CivilDate(iso: "2024-02-29") != nil)
        #expect(CivilDate(iso: "2023-02-29") == nil)
        #expect(CivilDate(iso: "2024-13-01") == nil)
        #expect(CivilDate(iso: "2024-1-01") == nil)
        #expect(CivilDate(iso: "２０２４-01-01") == nil)
        #expect(CivilDate(iso: "2024-04-31") == nil)
        #expect(CivilDate(iso: "2000-02-29")?.description == "2000-02-29")
    }

    @Test func ageCountsCompletedYearsAndLeapBirthdays() throws {
        let leap = try #require(CivilDate(iso: "2008-02-29"))
        #expect(leap.age(on: try #require(CivilDate(iso: "2021-02-28"))) == 12)
        #expect(leap.age(on: try #require(CivilDate(iso: "2021-03-01"))) == 13)
        #expect(leap.age(on: try #require(CivilDate(iso: "2024-02-29"))) == 16)
    }

    @Test(arguments: [
        ("en-us", "en-US"), ("pt_BR", "pt-BR"), ("zh-hant-tw", "zh-Hant-TW"), ("es-419", "es-419"), ("fr", "fr"),
        ("sr-Latn-RS", "sr-Latn-RS"), ("de-DE-1996", "de-DE-1996"),
    ])
    func localeTagsAreCanonical(_ input: String, _ expected: String) {
        #expect(LocaleTag(input)?.identifier == expected)
    }

    @Test(arguments: ["english", "e", "en-", "en-US-x", "123", "", "en US"])
    func invalidLocaleTagsAreRefused(_ input: String) {
        #expect(LocaleTag(input) == nil)
    }

    @Test func fallbackChainEndsInTheDefaultLocale() throws {
        let chain = try #require(LocaleTag("fr-CA")).fallbackChain(defaultLocale: try #require(LocaleTag("en-US")))
        #expect(chain.map(\.identifier) == ["fr-CA", "fr", "en-US", "en"])
    }

    @Test func suggestionsFindTyposOnly() {
        #expect(Suggestion.closest(to: "lable", among: ["label", "placeholder", "tip"]) == "label")
        #expect(Suggestion.closest(to: "emial", among: ["email", "text"]) == "email")
        #expect(Suggestion.closest(to: "Label", among: ["label"]) == "label")
        #expect(Suggestion.closest(to: "xyz", among: ["label", "tip"]) == nil)
    }

    @Test(arguments: [
        ("(a+)+$", true), ("(\\w*)*x", true), ("(a|a)*", true), ("(?:ab{1,9})+", true), ("([a-z]+\\.)*com", true),
        ("[A-Z]{2}[0-9]{4}", false), ("(ab)+c", false), ("(a|b)*", false), ("a+b+", false), ("([a-z]{2})?x", false),
        ("[(a+)+]", false), ("\\(a+\\)+", false),
    ])
    func backtrackingPatternsAreFound(_ pattern: String, _ risky: Bool) {
        #expect((PatternAnalysis.backtrackingRisk(in: pattern) != nil) == risky, "\(pattern)")
    }

    @Test func jsonSerializationEscapesAndKeepsOrder() {
        let value: JSONValue = ["b": 1, "a": ["x\n\"y\"", true, nil], "c": .string("\u{1}\u{2028}é")]
        #expect(value.serialized() == #"{"b":1,"a":["x\n\"y\"",true,null],"c":"\u0001\u2028é"}"#)
    }
}
