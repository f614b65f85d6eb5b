import JumpForms
import Testing
import TestSupport

/// `LineBreaks.lineStarts` against a scalar-by-scalar reading of YAML's line breaks, on texts
/// with LF only (memchr's path) and with every other break (the general path).
@Suite struct LineBreaksTests {
    /// Where lines start, read scalar by scalar: after LF, CR LF, a lone CR, NEL, LS and PS.
    static func expectedStarts(_ text: String) -> [Int] {
        var starts = [0]
        var offset = 0
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            let width = String(scalar).utf8.count
            if previousWasCR, scalar == "\n" {
                starts[starts.count - 1] += width
            } else if LineBreaks.isBreak(scalar) {
                starts.append(offset + width)
            }
            previousWasCR = scalar == "\r"
            offset += width
        }
        return starts
    }

    @Test(
        "fixed texts",
        arguments: [
            "", "a", "\n", "a\nb\n", "a\r\nb", "a\rb\r", "\r\n\r\n", "x\u{85}y", "x\u{2028}y\u{2029}z",
            "“quoted” … text\nnext", "tail\u{E2}", "a\u{C2}", "é\u{A0}\n"
        ])
    func fixed(text: String) {
        #expect(LineBreaks.lineStarts(Array(text.utf8)) == Self.expectedStarts(text), "\(text.debugDescription)")
    }

    /// 400 seeded texts: half with LF breaks only, half with any break, among text holding the
    /// lead bytes of the other breaks (C2, E2) in characters that do not break lines.
    @Test func seededTexts() {
        var random = SplitMix(seed: 0x11E5)
        let plain = ["a", "key: value", " ", "é", "“", "”", "…", "\u{A0}", "😀", "ł"]
        let other = ["\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"]
        for round in 0..<400 {
            var text = ""
            for _ in 0..<random.next(60) {
                switch random.next(4) {
                case 0: text += "\n"
                case 1 where round % 2 == 1: text += other[random.next(other.count)]
                default: text += plain[random.next(plain.count)]
                }
            }
            #expect(LineBreaks.lineStarts(Array(text.utf8)) == Self.expectedStarts(text), "\(text.debugDescription)")
        }
    }
}
