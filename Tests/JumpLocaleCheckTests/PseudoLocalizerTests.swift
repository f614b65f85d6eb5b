import JumpForms
import JumpLocaleCheck
import Testing

/// Pseudo-locales keep ICU syntax, arguments, markup and URLs, and change everything else.
@Suite struct PseudoLocalizerTests {
    static let accented = PseudoLocalizer(style: .accented)
    static let bidi = PseudoLocalizer(style: .bidi)

    @Test func accentedTextIsLongerAndBracketed() throws {
        #expect(Self.accented.transform("Email address") == "[Éɱáîļ áððŕéšš one two]")
        #expect(Self.accented.transform("{label} is required.") == "[{label} îš ŕéǫûîŕéð. one two]")
        #expect(
            Self.accented.transform("See <b>https://example.com/help</b> or ana@example.com.")
                == "[Šéé <b>https://example.com/help</b> öŕ ana@example.com. one two three four five]")
        let long = "A long passphrase is the best password of all."
        let transformed = Self.accented.transform(long)
        #expect(Double(transformed.count) >= Double(long.count) * 1.35)
    }

    @Test func icuStructureAndArgumentsAreKept() throws {
        let sources = [
            "{value, plural, one {{label} must be at least # character long.} other {{label} must be at least # characters long.}}",
            "{g, select, female {Elle} other {Il}} a rejoint {count, number} groupes",
            "It''s '{literal}' text"
        ]
        for source in sources {
            for style in [Self.accented, Self.bidi] {
                let original = try MessagePattern(parsing: source)
                let pseudo = try MessagePattern(parsing: style.transform(source))
                #expect(pseudo.argumentNames == original.argumentNames, "\(style.style): \(source)")
                #expect(
                    pseudo.selectors.filter { $0.kind == .select }.map { $0.keys.map(\.text) }
                        == original.selectors.filter { $0.kind == .select }.map { $0.keys.map(\.text) })
            }
        }
        #expect(Self.accented.transform("It''s '{literal}' text") == "[Îţ'š '{ļîţéŕáļ}' ţéẋţ one two]")
    }

    @Test func bidiWrapsWordsAndGivesArabicPlurals() throws {
        #expect(Self.bidi.transform("Email address") == "\u{200F}\u{202E}Email\u{202C}\u{200F} \u{200F}\u{202E}address\u{202C}\u{200F}")
        let plural = try MessagePattern(parsing: Self.bidi.transform("{n, plural, one {# file} other {# files}}"))
        #expect(plural.selectors.first?.categories == [.zero, .one, .two, .few, .many, .other])
    }
}
