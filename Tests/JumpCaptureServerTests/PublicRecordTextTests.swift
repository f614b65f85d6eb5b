@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// `/entity` answers the record whole by splicing `"profiles"` into the stored text; the text
/// must be exactly what parsing the record, setting `profiles` and writing it gives.
@Suite struct PublicRecordTextTests {
    static let identitySets: [[StoredIdentity]] = [
        [],
        [StoredIdentity(provider: "google", identifier: "https://google.com/1", verifiedEmail: "a@example.com")],
        [
            StoredIdentity(provider: "facebook", identifier: "fb \"2\"", verifiedEmail: nil),
            StoredIdentity(provider: "saml-corp", identifier: "é\u{2028}x", verifiedEmail: "b@example.com")
        ]
    ]

    static func expected(_ text: String, _ identities: [StoredIdentity]) throws -> String {
        try JSONValue.parse(text).setting("profiles", CaptureService.profiles(identities)).serialized()
    }

    @Test(
        "written records: the splice gives the parsed record's text",
        arguments: [
            "{}",
            #"{"email":"a@example.com","givenName":"Ann","id":1}"#,
            #"{"aboutMe":"my \"profiles\" page","address":{"city":"Łódź","lines":["a","b"]},"birthday":null,"optIn":true,"n":1.50}"#,
            #"{"note":"line\nbreak \u2028 tab\t \\ end","x":[{},[]]}"#
        ])
    func splicedLikeParsed(record: String) throws {
        let text = try JSONValue.parse(record).serialized()
        for identities in Self.identitySets {
            let spliced = try #require(CaptureService.splice(profiles: CaptureService.profiles(identities), into: text))
            #expect(spliced == (try Self.expected(text, identities)))
        }
    }

    @Test func recordsThatMayHoldProfilesAreParsedInstead() throws {
        let profiles = CaptureService.profiles(Self.identitySets[1])
        // A record holding a `profiles` member: `setting` replaces it in place, so no splice.
        #expect(CaptureService.splice(profiles: profiles, into: #"{"profiles":[],"a":1}"#) == nil)
        #expect(CaptureService.splice(profiles: profiles, into: #"{"a":{"profiles":1}}"#) == nil)
        // Not a compact object.
        #expect(CaptureService.splice(profiles: profiles, into: "") == nil)
        #expect(CaptureService.splice(profiles: profiles, into: "[1]") == nil)
        #expect(CaptureService.splice(profiles: profiles, into: "{} ") == nil)
    }

    /// 300 seeded records of nested objects, lists and strings with escapes.
    @Test func seededRecords() throws {
        var random = SplitMix(seed: 0x5EED_4EC0)
        let words = ["a", "é", "x\"y", "tab\t", "\u{1}", "profile", "😀", "line\nbreak", "\\"]
        func value(_ depth: Int) -> JSONValue {
            switch random.next(depth > 2 ? 4 : 6) {
            case 0: return .string(words[random.next(words.count)] + words[random.next(words.count)])
            case 1: return .integer(random.next(100_000) - 50_000)
            case 2: return random.next(2) == 0 ? .bool(true) : .null
            case 3: return .number("1.25e3")
            case 4: return .array((0..<random.next(4)).map { _ in value(depth + 1) })
            default: return object(depth + 1)
            }
        }
        func object(_ depth: Int) -> JSONValue {
            .object((0..<random.next(5)).map { index in (key: words[random.next(words.count)] + "\(index)", value: value(depth)) })
        }
        var spliced = 0
        for round in 0..<300 {
            let text = object(0).serialized()
            let identities = Self.identitySets[round % Self.identitySets.count]
            let profiles = CaptureService.profiles(identities)
            if let result = CaptureService.splice(profiles: profiles, into: text) {
                #expect(result == (try Self.expected(text, identities)), "\(text)")
                spliced += 1
            }
        }
        #expect(spliced == 300)
    }
}
