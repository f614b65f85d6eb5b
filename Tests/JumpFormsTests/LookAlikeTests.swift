import Foundation
@testable import JumpForms
import Testing
import TestSupport

/// `LookAlike` against ICU: Fixtures/look-alike-cases.json holds, for hand-picked strings and
/// seeded random ones, ICU's NFKC_Casefold (`folded`) and NFC(UTS #39 skeleton of the folded
/// text) (`skeleton`), written by scripts/generate-look-alike-tables.py with python3-icu.
@Suite struct LookAlikeTests {
    struct Case: Decodable, Sendable {
        var input: String
        var folded: String
        var skeleton: String
    }

    struct Fixture: Decodable, Sendable {
        var icu: String
        var unicode: String
        var cases: [Case]
    }

    static let fixture: Fixture = {
        let path = Repository.path("Tests/JumpFormsTests/Fixtures/look-alike-cases.json")
        let data = FileManager.default.contents(atPath: path) ?? Data()
        return (try? JSONDecoder().decode(Fixture.self, from: data)) ?? Fixture(icu: "", unicode: "", cases: [])
    }()

    /// Scalars as hex, so that a failure shows what differs.
    static func scalars(_ text: String) -> String {
        text.unicodeScalars.map { String($0.value, radix: 16, uppercase: true) }.joined(separator: " ")
    }

    @Test func everyCaseMatchesICU() {
        #expect(Self.fixture.cases.count > 450)
        #expect(Self.fixture.unicode == LookAlike.Data.unicodeVersion)
        for item in Self.fixture.cases {
            let folded = LookAlike.folded(item.input)
            #expect(
                folded.unicodeScalars.elementsEqual(item.folded.unicodeScalars),
                "folded(\(Self.scalars(item.input))) = \(Self.scalars(folded)), ICU \(Self.scalars(item.folded))")
            let skeleton = LookAlike.skeleton(item.input)
            #expect(
                skeleton.unicodeScalars.elementsEqual(item.skeleton.unicodeScalars),
                "skeleton(\(Self.scalars(item.input))) = \(Self.scalars(skeleton)), ICU \(Self.scalars(item.skeleton))")
        }
    }

    /// What the rules rely on, spelled out.
    @Test func lookAlikesShareAKey() {
        for name in ["admin", "ADMIN", "ａdmin", "ＡＤＭＩＮ", "ad\u{200B}min", "ad\u{AD}min"] {
            #expect(LookAlike.folded(name) == "admin", "\(name)")
        }
        let admin = LookAlike.skeleton("admin")
        for name in ["\u{0430}dmin", "adm\u{0456}n", "adrnin", "ａdmin", "ADMIN", "\u{03B1}dmin"] {
            #expect(LookAlike.skeleton(name) == admin, "\(name)")
        }
        #expect(LookAlike.folded("Straße") == "strasse")
        #expect(LookAlike.folded("ﬁle") == "file")
        #expect(LookAlike.folded("Ana.Ruiz@Example.COM") == "ana.ruiz@example.com")
        #expect(LookAlike.folded("ａna@example.com") == "ana@example.com")
        // Folded keeps scripts apart: a Cyrillic а is another letter (and another mailbox).
        #expect(LookAlike.folded("\u{0430}na@example.com") != "ana@example.com")
        #expect(LookAlike.skeleton("ana_r") != LookAlike.skeleton("ana_r2"))
        // Canonically equivalent input gives the same bytes.
        #expect(Array(LookAlike.folded("e\u{301}").utf8) == Array(LookAlike.folded("é").utf8))
        #expect(Array(LookAlike.skeleton("\u{0451}").utf8) == Array(LookAlike.skeleton("ë").utf8))
    }

    /// The rule engine compares `blacklist` and `emailDomainBlacklist` by these keys, on the
    /// client as on the server.
    @Test func blacklistsRefuseLookAlikes() throws {
        func engine(_ kind: RuleKind, _ field: FieldType, _ list: [String]) throws -> RuleEngine {
            let example = RuleExample(field: field, value: .list(list), valid: [], invalid: [])
            return RuleEngine(form: try RuleEngineTests.form(for: kind, example), today: RuleExample.today)
        }
        let names = try engine(.blacklist, .text, ["admin", "root"])
        for name in ["admin", "Admin", "ａdmin", "\u{0430}dmin", "adrnin", "ad\u{200B}min", "ＲＯＯＴ", "r\u{043E}\u{043E}t"] {
            #expect(!names.validate(["field": name, "other": ""]).isValid, "\(name)")
        }
        for name in ["ana", "administrator", "rooty"] {
            #expect(names.validate(["field": name, "other": ""]).isValid, "\(name)")
        }
        // Other field types fold (no skeleton): a Cyrillic look-alike is another value there.
        let codes = try engine(.blacklist, .hidden, ["admin"])
        #expect(!codes.validate(["field": "ＡＤＭＩＮ", "other": ""]).isValid)
        #expect(codes.validate(["field": "\u{0430}dmin", "other": ""]).isValid)
        let domains = try engine(.emailDomainBlacklist, .email, ["mailinator.com"])
        for address in [
            "eve@mailinator.com", "eve@MAILINATOR.COM", "eve@mailinator.ｃｏｍ", "eve＠mailinator.com",
            "eve@eu.mailinator.com", "eve@mailinator.com.", "eve@mailinator\u{3002}com"
        ] {
            #expect(!domains.validate(["field": address, "other": ""]).isValid, "\(address)")
        }
        for address in ["eve@example.com", "eve@notmailinator.com"] {
            #expect(domains.validate(["field": address, "other": ""]).isValid, "\(address)")
        }
    }
}
