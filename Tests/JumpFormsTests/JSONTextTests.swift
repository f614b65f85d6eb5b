@testable import JumpForms
import TestSupport
import Testing

/// JSON strings written and read byte by byte: escapes, runs of plain bytes, and UTF-8 checks.
struct JSONTextTests {
    /// The escape RFC 8259 and `JSONValue.serialized` give each control character.
    static func expectedEscape(_ value: UInt32) -> String {
        switch value {
        case 0x08: #"\b"#
        case 0x09: #"\t"#
        case 0x0A: #"\n"#
        case 0x0C: #"\f"#
        case 0x0D: #"\r"#
        default: "\\u00" + (value < 0x10 ? "0" : "") + String(value, radix: 16)
        }
    }

    @Test(arguments: 0..<0x20)
    func everyControlCharacterIsEscapedBetweenPlainRuns(_ value: Int) throws {
        let scalar = try #require(Unicode.Scalar(UInt32(value)))
        let text = "é" + String(Character(scalar)) + "x😀"
        #expect(JSONValue.string(text).serialized() == "\"é" + Self.expectedEscape(UInt32(value)) + "x😀\"")
        #expect(try JSONValue.parse(JSONValue.string(text).serialized()) == .string(text))
    }

    @Test func lineAndParagraphSeparatorsAreEscapedOtherE280CharactersAreNot() {
        // U+2023 (E2 80 A3) and U+20AC (E2 82 AC) share lead bytes with U+2028/U+2029.
        let text = "a\u{2028}b\u{2029}\u{2023}€\u{2028}"
        #expect(JSONValue.string(text).serialized() == #""a\u2028b\u2029‣€\u2028""#)
        #expect(JSONValue.string("\"\\").serialized() == #""\"\\""#)
        #expect(JSONValue.string("").serialized() == #""""#)
        #expect(JSONValue.string("é").serialized() == "\"é\"")
    }

    @Test func stringsRoundTrip() throws {
        var generator = SplitMix(seed: 0x5EED)
        let pool: [Unicode.Scalar] = [
            "a", "\"", "\\", "/", "\n", "\u{0}", "\u{1F}", "\u{7F}", "é", "\u{2028}", "\u{2029}", "\u{2023}",
            "€", "😀", "\u{FEFF}", "\u{FFFD}", "ß", "中"
        ]
        for _ in 0..<500 {
            let length = generator.next(12)
            var text = String.UnicodeScalarView()
            for _ in 0..<length { text.append(pool[generator.next(pool.count)]) }
            let value = JSONValue.object([(key: String(text), value: .string(String(text)))])
            #expect(try JSONValue.parse(value.serialized()) == value, "\(String(text).debugDescription)")
        }
    }

    @Test func escapesDecode() throws {
        #expect(try JSONValue.parse(#""\u00e9\ud83d\ude00\/\"\\\b\f\n\r\t x""#) == .string("é😀/\"\\\u{8}\u{C}\n\r\t x"))
        #expect(try JSONValue.parse(#""plain é""#) == .string("plain é"))
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#""\ud83d x""#) }
        #expect(throws: JSONParseError.self) { try JSONValue.parse(#""\q""#) }
    }

    @Test(
        arguments: [
            [0x22, 0xC3, 0x22],  // a lead byte without its continuation
            [0x22, 0x61, 0xFF, 0x62, 0x22],  // a byte UTF-8 never uses
            [0x22, 0x5C, 0x6E, 0xED, 0xA0, 0x80, 0x22]  // a surrogate, after an escape
        ] as [[UInt8]])
    func invalidUTF8InAStringIsRefusedAtTheString(_ bytes: [UInt8]) {
        #expect(throws: JSONParseError.self) { try JSONValue.parse(bytes) }
        do {
            _ = try JSONValue.parse(bytes)
        } catch {
            #expect(error.message == "invalid UTF-8 in a string")
            #expect(error.offset == 0)
        }
    }

    @Test func validUTF8TakesASCIIAsItIsAndChecksTheRest() {
        #expect(ValidUTF8.string(Array("plain ascii".utf8)[...]) == "plain ascii")
        #expect(ValidUTF8.string(Array("é😀".utf8)[...]) == "é😀")
        #expect(ValidUTF8.string([0x61, 0xC3][...]) == nil)
        #expect(ValidUTF8.string([0xF4, 0x90, 0x80, 0x80][...]) == nil)  // above U+10FFFF
        #expect(ValidUTF8.string([][...]) == "")
    }
}
