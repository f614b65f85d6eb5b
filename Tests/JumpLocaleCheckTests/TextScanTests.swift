@testable import JumpLocaleCheck
import Testing

/// The fast tables of `TextScan` and `TextPrescan` against what they stand for.
@Suite struct TextScanTests {
    static var allScalars: some Sequence<Unicode.Scalar> { (0...0x10FFFF).lazy.compactMap(Unicode.Scalar.init) }

    /// The written-out White_Space list is Unicode's.
    @Test func whitespaceIsUnicodes() {
        let differing = Self.allScalars.filter { TextScan.isWhitespace($0) != $0.properties.isWhitespace }
        #expect(Array(differing.prefix(5)).isEmpty)
    }

    /// Every character the character checks report, and every digit the number scan reads,
    /// is seen by `TextPrescan` (which decides whether those checks run), at either end of a text.
    /// The characters `ending-punctuation` skips at a text's end, ASCII told without tables:
    /// the same as the whitespace, closing marks and direction marks they stand for.
    @Test func endingMarksSkipWhatTheTablesSay() {
        let differing = Self.allScalars.filter { scalar in
            EndingMark.isSkipped(scalar)
                != (scalar.properties.isWhitespace || EndingMark.closing.contains(scalar) || EndingMark.directionMarks.contains(scalar.value))
        }
        #expect(Array(differing.prefix(5)).isEmpty)
    }

    @Test func factsSeeEveryReportedCharacterAndDigit() {
        let special = Self.allScalars.filter { TextScan.isInvisible($0, allowZeroWidthSpace: false) || TextScan.bidiKind($0) != nil }
        for scalar in special {
            #expect(TextPrescan("a\(scalar)").mayHoldSpecialCharacter, "U+\(String(scalar.value, radix: 16, uppercase: true))")
        }
        for scalar in Self.allScalars where TextScan.digit(scalar) != nil {
            #expect(TextPrescan("\(scalar)a").hasDigit, "U+\(String(scalar.value, radix: 16, uppercase: true))")
        }
        for scalar in Self.allScalars where scalar.properties.isWhitespace {
            let facts = TextPrescan("\(scalar)a\(scalar)")
            #expect(facts.startsWithWhitespace && facts.endsWithWhitespace, "U+\(String(scalar.value, radix: 16, uppercase: true))")
        }
        #expect(!TextPrescan("plain text").mayHoldSpecialCharacter)
        #expect(!TextPrescan("no digits").hasDigit)
    }
}
