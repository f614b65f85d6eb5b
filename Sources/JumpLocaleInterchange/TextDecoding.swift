import JumpForms

/// The text encodings of interchange files.
public enum TextEncoding: String, Sendable, Hashable, CaseIterable {
    case utf8 = "utf-8"
    case utf16BigEndian = "utf-16be"
    case utf16LittleEndian = "utf-16le"

    /// How a file's bytes were written: encoding and whether a byte-order mark came first.
    public struct Detected: Sendable, Hashable {
        public var encoding: TextEncoding
        public var byteOrderMark: Bool

        public init(encoding: TextEncoding, byteOrderMark: Bool) {
            self.encoding = encoding
            self.byteOrderMark = byteOrderMark
        }
    }

    /// The encoding of `bytes`: the most likely of `candidates(_:)`.
    public static func detect(_ bytes: [UInt8]) -> Detected {
        candidates(bytes)[0]
    }

    /// The encodings `bytes` may be in, most likely first. A byte-order mark decides alone.
    /// Without one, zero bytes say UTF-16: text in UTF-16 has a zero high byte in every code
    /// unit below U+0100 (ASCII punctuation, Latin letters) and in some others (U+4E00 一 and
    /// U+3000 have a zero low byte), so the byte order is the one whose high-byte position holds
    /// more zeros, counted over the first 64 KiB (wherever the Latin text starts). UTF-8 comes
    /// first when the bytes are valid UTF-8 and few code units hold a zero byte; the other
    /// candidates follow (UTF-16 for an odd number of bytes only when it looks like UTF-16, so
    /// that the missing or extra byte is reported), for readers to try when the first does not
    /// decode or parse.
    public static func candidates(_ bytes: [UInt8]) -> [Detected] {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return [Detected(encoding: .utf8, byteOrderMark: true)] }
        if bytes.starts(with: [0xFE, 0xFF]) { return [Detected(encoding: .utf16BigEndian, byteOrderMark: true)] }
        if bytes.starts(with: [0xFF, 0xFE]) { return [Detected(encoding: .utf16LittleEndian, byteOrderMark: true)] }
        let utf8 = Detected(encoding: .utf8, byteOrderMark: false)
        guard bytes.count >= 2 else { return [utf8] }
        let units = min(bytes.count / 2, 32_768)
        var evenZeros = 0, oddZeros = 0
        for index in 0..<units {
            if bytes[2 * index] == 0 { evenZeros += 1 }
            if bytes[2 * index + 1] == 0 { oddZeros += 1 }
        }
        let bigEndian = Detected(encoding: .utf16BigEndian, byteOrderMark: false)
        let littleEndian = Detected(encoding: .utf16LittleEndian, byteOrderMark: false)
        let utf16 = evenZeros >= oddZeros ? [bigEndian, littleEndian] : [littleEndian, bigEndian]
        let validUTF8 = String(validating: bytes, as: UTF8.self) != nil
        // A quarter of the code units with a zero byte is far more than any UTF-8 text holds.
        let looksUTF16 = (evenZeros + oddZeros) * 4 >= units
        // An odd number of bytes is no UTF-16; but a file that looks like it is one with a
        // byte missing or extra, and its decoding error says so.
        if bytes.count % 2 == 1 { return looksUTF16 ? utf16 + [utf8] : [utf8] }
        if !validUTF8 || looksUTF16 { return utf16 + [utf8] }
        return [utf8] + utf16
    }

    /// A decoding failure: what and where (1-based line and column in scalars).
    public struct Failure: Error, Sendable, Hashable {
        public var message: String
        public var line: Int
        public var column: Int
    }

    /// The scalars of `bytes` in `detected`'s encoding (without the byte-order mark).
    public static func decode(_ bytes: [UInt8], as detected: Detected) throws(Failure) -> [Unicode.Scalar] {
        var scalars: [Unicode.Scalar] = []
        scalars.reserveCapacity(bytes.count)
        var line = 1, column = 1
        func advance(_ scalar: Unicode.Scalar) {
            scalars.append(scalar)
            if scalar == "\n" { line += 1; column = 1 } else { column += 1 }
        }
        switch detected.encoding {
        case .utf8:
            var index = detected.byteOrderMark ? 3 : 0
            while index < bytes.count {
                let byte = bytes[index]
                if byte < 0x80 {
                    advance(Unicode.Scalar(byte))
                    index += 1
                    continue
                }
                let length = byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 ? 2 : 0
                guard length > 0, index + length <= bytes.count,
                    let text = String(validating: bytes[index..<index + length], as: UTF8.self),
                    text.unicodeScalars.count == 1, let scalar = text.unicodeScalars.first
                else {
                    throw Failure(
                        message: "invalid UTF-8: byte 0x\(String(byte, radix: 16, uppercase: true)) does not start a valid sequence", line: line,
                        column: column)
                }
                advance(scalar)
                index += length
            }
        case .utf16BigEndian, .utf16LittleEndian:
            let bigEndian = detected.encoding == .utf16BigEndian
            var index = detected.byteOrderMark ? 2 : 0
            func unit(_ at: Int) -> UInt16 {
                bigEndian ? UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]) : UInt16(bytes[at + 1]) << 8 | UInt16(bytes[at])
            }
            while index < bytes.count {
                guard index + 1 < bytes.count else {
                    let name = bigEndian ? "big-endian" : "little-endian"
                    throw Failure(
                        message:
                            """
                            invalid UTF-16 (\(name)): the file has an odd number of bytes; the last byte (offset \(index)) is half a character (a \
                            byte is missing or extra)
                            """,
                        line: line, column: column)
                }
                let first = unit(index)
                if (0xD800...0xDBFF).contains(first) {
                    guard index + 3 < bytes.count else {
                        throw Failure(message: "invalid UTF-16: a high surrogate ends the file", line: line, column: column)
                    }
                    let second = unit(index + 2)
                    guard (0xDC00...0xDFFF).contains(second) else {
                        throw Failure(message: "invalid UTF-16: a high surrogate is not followed by a low one", line: line, column: column)
                    }
                    let value = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
                    advance(Unicode.Scalar(value)!)
                    index += 4
                } else if (0xDC00...0xDFFF).contains(first) {
                    throw Failure(message: "invalid UTF-16: a low surrogate without a high one", line: line, column: column)
                } else {
                    advance(Unicode.Scalar(first)!)
                    index += 2
                }
            }
        }
        return scalars
    }

    /// `text` in this encoding, with a byte-order mark first when asked.
    public func encode(_ text: String, byteOrderMark: Bool) -> [UInt8] {
        switch self {
        case .utf8:
            return (byteOrderMark ? [0xEF, 0xBB, 0xBF] : []) + Array(text.utf8)
        case .utf16BigEndian, .utf16LittleEndian:
            var bytes: [UInt8] = []
            bytes.reserveCapacity(text.utf16.count * 2 + 2)
            let bigEndian = self == .utf16BigEndian
            func put(_ unit: UInt16) {
                if bigEndian { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] } else { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
            }
            if byteOrderMark { put(0xFEFF) }
            for unit in text.utf16 { put(unit) }
            return bytes
        }
    }
}

/// One message read from an interchange file.
public struct InterchangeEntry: Sendable, Hashable {
    public var key: String
    /// The ICU source (after placeholders were mapped back).
    public var text: String
    /// The translator comment, if any.
    public var note: String?
    public var location: SourceLocation

    public init(key: String, text: String, note: String? = nil, location: SourceLocation) {
        self.key = key
        self.text = text
        self.note = note
        self.location = location
    }
}

/// What reading an interchange file produced: the entries in file order (a key written twice
/// keeps its first value) and every problem found.
public struct InterchangeReadResult: Sendable {
    public var entries: [InterchangeEntry] = []
    public var diagnostics: [Diagnostic] = []
    /// The encoding the file was written in.
    public var encoding: TextEncoding.Detected?
    /// The file's text, for diagnostics that quote lines (nil when it is not UTF-8).
    public var text: String?

    public init() {}

    /// True when the file could not be read at all (syntax or encoding errors).
    public var failed: Bool { diagnostics.contains { $0.code == .interchangeSyntax } }
}

extension InterchangeReadResult {
    /// Reads `bytes` with `parse` in each encoding they may be in (`TextEncoding.candidates`):
    /// the first that decodes and parses without a syntax error wins; when none does, the
    /// most likely encoding's errors are reported.
    static func decoding(
        _ bytes: [UInt8], path: String,
        _ parse: (_ scalars: [Unicode.Scalar], _ result: inout InterchangeReadResult) -> Void
    ) -> InterchangeReadResult {
        var first: InterchangeReadResult?
        for detected in TextEncoding.candidates(bytes) {
            var result = InterchangeReadResult()
            result.encoding = detected
            do {
                let scalars = try TextEncoding.decode(bytes, as: detected)
                result.text = String(String.UnicodeScalarView(scalars))
                parse(scalars, &result)
            } catch {
                result.diagnostics.append(
                    Diagnostic(
                        .interchangeSyntax, error.message,
                        at: SourceLocation(file: path, line: error.line, column: error.column)))
            }
            if !result.failed { return result }
            if first == nil { first = result }
        }
        return first!
    }
}
