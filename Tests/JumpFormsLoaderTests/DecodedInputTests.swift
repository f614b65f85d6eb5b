import Foundation
import JumpForms
@testable import JumpFormsLoader
import Testing
import TestSupport

/// `DecodedInput` hands libyaml its input already decoded. It must take exactly the input
/// libyaml's reader accepts, count its characters as the reader does, and leave the parse the
/// same: the same nodes, marks and diagnostics as when the reader decodes.
@Suite struct DecodedInputTests {
    /// What libyaml's reader accepts: valid UTF-8 of YAML's printable characters.
    static func expectedCount(_ bytes: [UInt8]) -> Int? {
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        var count = 0
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x09, 0x0A, 0x0D, 0x20...0x7E, 0x85, 0xA0...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: count += 1
            default: return nil
            }
        }
        return count
    }

    static func count(_ bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { DecodedInput.characterCount($0) }
    }

    /// Every boundary of the allowed ranges, and malformed sequences, after 0-16 ASCII bytes
    /// and before 0-9 (so that each falls at every place of the eight-byte steps and at the end).
    @Test func acceptsExactlyWhatTheReaderAccepts() {
        let allowed: [UInt32] = [0x09, 0x0A, 0x0D, 0x20, 0x7E, 0x85, 0xA0, 0xFF, 0x7FF, 0x800, 0xD7FF, 0xE000, 0xFFFD, 0x10000, 0x10FFFF]
        let refused: [UInt32] = [0x00, 0x08, 0x0B, 0x0C, 0x0E, 0x1F, 0x7F, 0x80, 0x84, 0x86, 0x9F, 0xFFFE, 0xFFFF]
        var pieces: [(bytes: [UInt8], accepted: Bool)] = []
        for value in allowed { pieces.append((Array(String(Unicode.Scalar(value)!).utf8), true)) }
        for value in refused { pieces.append((Array(String(Unicode.Scalar(value)!).utf8), false)) }
        let malformed: [[UInt8]] = [
            [0x80], [0xBF], [0xC0, 0x80], [0xC1, 0xBF], [0xC2], [0xC2, 0x41], [0xE0, 0x80, 0x80], [0xE0, 0xA0],
            [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF], [0xEF, 0xBF], [0xF0, 0x80, 0x80, 0x80], [0xF0, 0x90, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xF8], [0xFE], [0xFF], [0xE3, 0x81, 0x41],
        ]
        for bytes in malformed { pieces.append((bytes, false)) }
        for piece in pieces {
            for before in 0...16 {
                for after in 0...9 {
                    let bytes = Array(repeating: UInt8(ascii: "a"), count: before) + piece.bytes + Array(repeating: UInt8(ascii: "b"), count: after)
                    let expected = Self.expectedCount(bytes)
                    #expect((expected != nil) == piece.accepted, "the reference disagrees with the table for \(piece.bytes)")
                    #expect(Self.count(bytes) == expected, "\(piece.bytes) after \(before) and before \(after) ASCII bytes")
                }
            }
        }
        #expect(Self.count([]) == 0)
    }

    /// Random byte strings, mostly text in several scripts with a few stray bytes.
    @Test func agreesWithTheReferenceOnRandomBytes() {
        var random = SplitMix(seed: 0x5EED_0123)
        let alphabet: [[UInt8]] = ["a", "Z", " ", "\n", "\r\n", "\t", ":", "é", "ł", "ß", "ж", "ع", "ש", "あ", "漢", "ก", "😀", "\u{85}", "\u{A0}", "\u{FFFD}"]
            .map { Array($0.utf8) }
        var rejected = 0
        for _ in 0..<3000 {
            var bytes: [UInt8] = []
            for _ in 0..<random.next(81) {
                if random.next(40) == 0 {
                    bytes.append(UInt8(random.next(256)))
                } else {
                    bytes += alphabet[random.next(alphabet.count)]
                }
            }
            let expected = Self.expectedCount(bytes)
            if expected == nil { rejected += 1 }
            #expect(Self.count(bytes) == expected, "\(bytes)")
        }
        // Both kinds are exercised.
        #expect(rejected > 300 && rejected < 2700, "\(rejected) of 3000 rejected")
    }

    /// A node written out with every scalar's value, style, tag and marks, and every
    /// collection's marks (nodes compare by tree identity, not by content).
    static func dump(_ node: YAMLNode) -> [String] {
        func marks(_ start: YAMLMark, _ end: YAMLMark) -> String { "\(start.line):\(start.column)-\(end.line):\(end.column)" }
        func scalar(_ scalar: YAMLScalar) -> String {
            "\(scalar.value.debugDescription) \(scalar.style) \(scalar.tag ?? "-") \(marks(scalar.start, scalar.end))"
        }
        switch node {
        case .scalar(let value):
            return [scalar(value)]
        case .sequence(let sequence):
            return ["[ \(marks(sequence.start, sequence.end))"] + sequence.items.flatMap(dump) + ["]"]
        case .mapping(let mapping):
            return ["{ \(marks(mapping.start, mapping.end))"] + mapping.entries.flatMap { ["key " + scalar($0.key)] + dump($0.value) } + ["}"]
        }
    }

    /// The tree and every diagnostic read with the decoded input equal those read by libyaml's
    /// own reader: the repository's flows, locale files and catalogs, and hand-made documents
    /// with multi-byte text, CRLF, every scalar style, comments, errors near the end.
    @Test func parsesAsLibyamlsReaderDoes() throws {
        var documents: [(name: String, bytes: [UInt8])] = []
        for folder in ["flows", "locales", "Sources/JumpFormsLoader/Catalog"] {
            let names = try FileManager.default.contentsOfDirectory(atPath: Repository.path(folder)).filter { $0.hasSuffix(".yaml") }.sorted()
            for name in names {
                documents.append((folder + "/" + name, Array(try Data(contentsOf: URL(fileURLWithPath: Repository.path(folder + "/" + name))))))
            }
        }
        let texts = [
            "a: 1\r\nb: 'zwei'\r\nc: \"drei\\u00e9\"\r\n",
            "# ключ 😀\nключ: значение # коммент\n日本: |\n  行一\n  行二\n\nfolded: >\n  one\n  two\n",
            "list: [a, 'b', \"c\", {d: e}]\nanchor: &x ä\nalias: *x\n",
            "key: \"unterminated é",
            "key: 'unterminated ł",
            "a: b\n  c: d\nwrong: [",
            "no newline at the end: ü",
            "tab:\tvalue\n",
            "- é\n- \u{85}next\n- \u{A0}\n- \u{10FFFF}\n",
            "k: \"\\x41\\u263A\\U0001F600\\N\\_\\L\\P\"\n",
            "---\na: 1\n...\n",
            "a: 1\n---\nb: 2\n",
            "a:\n  b:\n    c:\n      d: ę\n",
            "",
            "é",
        ]
        for (index, text) in texts.enumerated() { documents.append(("text \(index)", Array(text.utf8))) }
        for (name, bytes) in documents {
            #expect(bytes.withUnsafeBufferPointer { DecodedInput.characterCount($0) } != nil || name.hasPrefix("text"), "\(name) is not taken")
            let decoded = YAMLReader.read(bytes, path: name, limits: .default, into: YAMLTreeBuilder(expectedSize: bytes.count)).result
            let read = YAMLReader.read(bytes, path: name, limits: .default, into: YAMLTreeBuilder(expectedSize: bytes.count), decodesInput: false).result
            #expect(decoded.document.map { Self.dump($0.root) } == read.document.map { Self.dump($0.root) }, "\(name)")
            #expect(decoded.document?.anchors == read.document?.anchors && decoded.document?.aliases == read.document?.aliases, "\(name)")
            #expect(decoded.diagnostics == read.diagnostics, "\(name)")
        }
    }
}
