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
        ("sr-Latn-RS", "sr-Latn-RS"), ("de-DE-1996", "de-DE-1996")
    ])
    func localeTagsAreCanonical(_ input: String, _ expected: String) {
        #expect(LocaleTag(input)?.identifier == expected)
    }

    @Test(arguments: ["english", "e", "en-", "en-US-x", "123", "", "en US"])
    func invalidLocaleTagsAreRefused(_ input: String) {
        #expect(LocaleTag(input) == nil)
    }

    @Test func localizerFallsBackAlongTheMatchedLocalesThenTheDefault() throws {
        func catalog(_ tag: String, _ messages: [String: String]) throws -> LocaleCatalog {
            let locale = try #require(LocaleTag(tag))
            let here = SourceLocation(file: "\(tag).yaml", line: 1, column: 1)
            return LocaleCatalog(
                path: "\(tag).yaml", tag: Located(locale, at: here),
                messages: messages.sorted { $0.key < $1.key }.map {
                    LocaleMessage(key: $0.key, text: $0.value, keyLocation: here, valueLocation: here, offsetMap: .linear(line: 1, column: 1))
                })
        }
        let localizer = Localizer(
            defaultLocale: try #require(LocaleTag("en-US")),
            catalogs: [
                try catalog("en-US", ["a": "A", "b": "B", "c": "C"]),
                try catalog("fr-FR", ["a": "A-fr", "b": "B-fr"]),
                try catalog("fr-BE", ["a": "A-be", "c": "C-be"])
            ])
        let canada = try #require(LocaleTag("fr-CA"))
        #expect(localizer.text("a", for: canada) == "A-fr")
        #expect(localizer.text("c", for: canada) == "C-be")
        #expect(localizer.resolve("c", for: canada)?.locale.identifier == "fr-BE")
        #expect(localizer.text("a", for: try #require(LocaleTag("fr"))) == "A-fr")
        #expect(localizer.text("a", for: try #require(LocaleTag("ja"))) == "A")
        #expect(localizer.negotiatedLocale(for: canada)?.identifier == "fr-FR")
        #expect(localizer.negotiatedLocale(for: try #require(LocaleTag("ja")))?.identifier == "en-US")
        #expect(localizer.fallbackLocales(of: try #require(LocaleTag("fr-BE"))).map(\.identifier) == ["fr-FR"])
    }

    /// `key(at:is:)` (locale checks compare keys in place) says what `keys[position] == key`
    /// says, canonically equivalent keys written with other bytes included.
    @Test func catalogKeysCompareInPlaceAsStrings() throws {
        let here = SourceLocation(file: "fr-FR.yaml", line: 1, column: 1)
        let keys = ["fields.email.label", "fields.caf\u{E9}.label", "fields.cafe\u{301}.tip", "fields.\u{1F600}"]
        let catalog = LocaleCatalog(
            path: "fr-FR.yaml", tag: Located(try #require(LocaleTag("fr-FR")), at: here),
            messages: keys.map { LocaleMessage(key: $0, text: "x", keyLocation: here, valueLocation: here, offsetMap: .linear(line: 1, column: 1)) })
        let others = keys + ["fields.cafe\u{301}.label", "fields.caf\u{E9}.tip", "fields.email.labe", "fields.email.label.", "", "fields.\u{1F601}"]
        for position in 0..<catalog.count {
            for other in others {
                #expect(catalog.key(at: position, is: other) == (catalog.keys[position] == other), "\(position) \(other)")
            }
        }
        #expect(catalog.key(at: 1, is: "fields.cafe\u{301}.label"))
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
        // Nested quantifiers behind groups without a quantifier of their own.
        ("((a+))+$", true), ("((a+)|b)+$", true), ("(?:(?:x|(a*)))*y", true), ("(?<n>(a+))+$", true),
        // Alternatives that can match the same text inside a repeated group.
        ("(\\w|\\d)+$", true), ("(a|aa)+$", true), ("(a|b|ab)*c", true), ("([a-z]|x)+$", true), ("(.|a)*$", true),
        ("(\\d{2}|\\d)+$", true), ("(ab|a|b)+$", true), ("(a|(a))+$", true), ("(\\s|\\h)*$", true), ("(é|[à-ÿ])+$", true),
        // Exclusive alternatives, possessive and atomic repeats, and what the check cannot read.
        ("(a|b)+$", false), ("(?:[a-z]|[0-9]|_)+", false), ("(\\w|-)+$", false), ("(\\d|[a-f])+$", false), ("(\\s|\\S)+$", false),
        ("(ab|abc)+$", false),
        ("(ab|ba)+$", false), ("(a|bc|cb)+$", false), ("(é|ü)+$", false), ("(a+)++$", false), ("(?>a+)+$", false),
        ("(\\p{L}|\\p{Lu})+$", false), ("(?=a+)b", false), ("(a|a)", false), ("(a|aa)?", false), ("(a|aa){2}", false)
    ])
    func backtrackingPatternsAreFound(_ pattern: String, _ risky: Bool) {
        #expect((PatternAnalysis.backtrackingRisk(in: pattern) != nil) == risky, "\(pattern)")
    }

    /// The analysis reads any text without trapping: random patterns from regex pieces (the
    /// ones Swift's Regex compiles and the ones it refuses), unbalanced ones, and nesting far
    /// deeper than it follows.
    @Test func backtrackingAnalysisTakesAnyPattern() {
        let pieces = [
            "a", "b", "(", ")", "|", "*", "+", "?", "{2}", "{1,3}", "{0,}", "[a-z]", "[^a]", "[]a]", "[a-]", "\\d", "\\w",
            "\\", "(?:", "(?>", "(?=", "(?<n>", "(?i)", "++", ".", "$", "^", "é", "\\p{L}", "[\\d-z]", "\\x{1F600}", "{", "\\Q", "\\E"
        ]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for _ in 0..<3000 {
            let pattern = (0...next(12)).map { _ in pieces[next(pieces.count)] }.joined()
            _ = PatternAnalysis.backtrackingRisk(in: pattern)
        }
        let deep = String(repeating: "(", count: 5000) + "a+" + String(repeating: ")+", count: 5000)
        #expect(PatternAnalysis.backtrackingRisk(in: deep) != nil)
        #expect(PatternAnalysis.backtrackingRisk(in: "(){1000000000}(a|a){99999999999999999999}") == nil)
    }

    @Test func backtrackingRiskNamesTheGroupAndTheOverlap() throws {
        let nested = try #require(PatternAnalysis.backtrackingRisk(in: "^((a+)|b)+$"))
        #expect(nested.description == "the repeated group '((a+)|b)' contains a quantifier of its own")
        #expect(nested.offset == 1)
        let overlap = try #require(PatternAnalysis.backtrackingRisk(in: "x(\\w|\\d)+$"))
        #expect(overlap.description == "the repeated group '(\\w|\\d)' has alternatives that can match the same text ('\\w' and '\\d')")
        let sequence = try #require(PatternAnalysis.backtrackingRisk(in: "(a|b|ab)*c"))
        #expect(sequence.description == "the repeated group '(a|b|ab)' has alternatives that can match the same text ('a' and 'ab')")
        #expect(sequence.hint != nested.hint)
        let same = try #require(PatternAnalysis.backtrackingRisk(in: "(?:x|x)*y"))
        #expect(same.description == "the repeated group '(?:x|x)' offers the same alternative twice")
    }

    @Test func jsonSerializationEscapesAndKeepsOrder() {
        let value: JSONValue = ["b": 1, "a": ["x\n\"y\"", true, nil], "c": .string("\u{1}\u{2028}é")]
        #expect(value.serialized() == #"{"b":1,"a":["x\n\"y\"",true,null],"c":"\u0001\u2028é"}"#)
    }
}
