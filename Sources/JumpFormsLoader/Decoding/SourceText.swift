import JumpForms

/// The raw text of a file, for mapping offsets inside scalars back to lines and columns.
/// Shared by the deferred offset maps of a file's messages (see `offsetMap(for:)`).
final class SourceText: Sendable {
    let bytes: [UInt8]
    /// Byte offsets of line starts: every message's place in the file is found through them,
    /// so they are found with the file (one `memchr` pass), not on the first message's demand
    /// behind a lock that every message then takes.
    private let lineStarts: [Int]

    init(bytes: [UInt8]) {
        self.bytes = bytes
        lineStarts = LineBreaks.lineStarts(bytes)
    }

    /// The byte offset of `line:column` (column in Unicode scalars), if the file has it.
    func byteOffset(line: Int, column: Int) -> Int? {
        guard line >= 1, line <= lineStarts.count else { return nil }
        var offset = lineStarts[line - 1]
        var scalars = column - 1
        // Where the line starts with ASCII (keys, indentation: most lines), a byte is a scalar.
        if scalars >= 0, offset + scalars <= bytes.count, isASCII(offset..<(offset + scalars)) { return offset + scalars }
        while scalars > 0, offset < bytes.count {
            offset += 1
            while offset < bytes.count, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
            scalars -= 1
        }
        return scalars == 0 ? offset : nil
    }

    private func isASCII(_ range: Range<Int>) -> Bool {
        bytes.withUnsafeBufferPointer { buffer in
            var bits: UInt8 = 0
            for index in range { bits |= buffer[index] }
            return bits < 0x80
        }
    }

    /// Where each value scalar of `scalar` was written. Values on one line without escapes map
    /// linearly; the others are aligned with the raw text only when a place is asked for.
    func offsets(for scalar: YAMLScalar) -> LocaleMessageList.Offsets {
        var value = scalar.value
        return value.withUTF8 { utf8 in
            offsets(for: YAMLScalarEvent(value: utf8, style: scalar.style, tag: scalar.tag, start: scalar.start, end: scalar.end))
        }
    }

    /// `offsets(for:)` of a scalar as read.
    func offsets(for scalar: YAMLScalarEvent) -> LocaleMessageList.Offsets {
        if scalar.start.line == scalar.end.line {
            switch scalar.style {
            case .plain:
                return .linear(line: scalar.start.line, column: scalar.start.column)
            case .singleQuoted, .doubleQuoted:
                // Without escapes the value is the raw text between the quotes.
                let special: UInt8 = scalar.style == .singleQuoted ? UInt8(ascii: "'") : UInt8(ascii: "\\")
                var (scalars, escaped) = (0, false)
                for byte in scalar.value {
                    if byte & 0xC0 != 0x80 { scalars += 1 }
                    if byte == special { escaped = true }
                }
                if !escaped, scalar.end.column - scalar.start.column - 2 == scalars {
                    return .linear(line: scalar.start.line, column: scalar.start.column + 1)
                }
            default:
                break
            }
        }
        return .resolved(endLine: scalar.end.line, endColumn: scalar.end.column, style: Self.code(scalar.style))
    }

    /// The styles as the numbers a `LocaleMessageList` keeps.
    private static let styles: [YAMLScalarStyle] = [.plain, .singleQuoted, .doubleQuoted, .literal, .folded]

    static func code(_ style: YAMLScalarStyle) -> UInt8 { UInt8(styles.firstIndex(of: style)!) }

    static func style(_ code: UInt8) -> YAMLScalarStyle { Int(code) < styles.count ? styles[Int(code)] : .plain }

    /// YAML's one-character escapes of double-quoted scalars (`\x`, `\u`, `\U` and escaped line
    /// breaks aside); `"`, `/`, `\\`, space and tab stand for themselves.
    private static let doubleQuotedEscapes: [Unicode.Scalar: Unicode.Scalar] = [
        "0": "\u{0}", "a": "\u{7}", "b": "\u{8}", "t": "\t", "n": "\n", "v": "\u{B}", "f": "\u{C}", "r": "\r",
        "e": "\u{1B}", "N": "\u{85}", "_": "\u{A0}", "L": "\u{2028}", "P": "\u{2029}"
    ]

    private struct Token {
        var scalar: Unicode.Scalar
        var line: Int
        var column: Int
        /// Decoded from an escape of a double-quoted scalar (`line:column` is its backslash).
        var isEscape = false
    }

    /// The decoded characters of the raw scalar text with their positions.
    private func tokens(_ scalar: YAMLScalar) -> [Token] {
        let starts = lineStarts
        guard scalar.start.line - 1 < starts.count else { return [] }
        var raw: [Token] = []
        var line = scalar.start.line
        var column = 1
        let begin = starts[line - 1]
        let end = scalar.end.line < starts.count ? starts[scalar.end.line] : bytes.count
        let scalars = Array(String(decoding: bytes[begin..<end], as: UTF8.self).unicodeScalars)
        for (index, unicode) in scalars.enumerated() {
            if (line, column) >= (scalar.end.line, scalar.end.column) { break }
            if (line, column) >= (scalar.start.line, scalar.start.column) {
                raw.append(Token(scalar: unicode, line: line, column: column))
            }
            // Lines break as YAML breaks them; CR LF is one break (at the LF).
            let crBeforeLF = unicode == "\r" && index + 1 < scalars.count && scalars[index + 1] == "\n"
            if LineBreaks.isBreak(unicode), !crBeforeLF {
                line += 1
                column = 1
            } else {
                column += 1
            }
        }
        switch scalar.style {
        case .plain:
            return raw
        case .literal, .folded:
            // Drop the header line (`|`, `>-` ...).
            guard
                let newline = raw.firstIndex(where: { LineBreaks.isBreak($0.scalar) && $0.scalar != "\r" })
                    ?? raw.firstIndex(where: { LineBreaks.isBreak($0.scalar) })
            else { return [] }
            return Array(raw[(newline + 1)...])
        case .singleQuoted:
            var result: [Token] = []
            var index = 1
            let end = raw.count - 1
            while index < end {
                result.append(raw[index])
                index += raw[index].scalar == "'" && index + 1 < end && raw[index + 1].scalar == "'" ? 2 : 1
            }
            return result
        case .doubleQuoted:
            var result: [Token] = []
            var index = 1
            let end = raw.count - 1
            while index < end {
                let token = raw[index]
                guard token.scalar == "\\", index + 1 < end else {
                    result.append(token)
                    index += 1
                    continue
                }
                let escape = raw[index + 1].scalar
                if LineBreaks.isBreak(escape) {
                    // A line continuation: the break (CR LF is one) and the next line's leading
                    // blanks are not part of the value.
                    index += escape == "\r" && index + 2 < end && raw[index + 2].scalar == "\n" ? 3 : 2
                    while index < end, raw[index].scalar == " " || raw[index].scalar == "\t" { index += 1 }
                    continue
                }
                var width = 2
                var decoded: Unicode.Scalar?
                switch escape {
                case "x", "u", "U":
                    let digits = escape == "x" ? 2 : escape == "u" ? 4 : 8
                    let hex = raw[(index + 2)..<min(end, index + 2 + digits)].map { Character($0.scalar) }
                    decoded = UInt32(String(hex), radix: 16).flatMap(Unicode.Scalar.init)
                    width += digits
                default:
                    decoded = Self.doubleQuotedEscapes[escape] ?? escape
                }
                if let decoded { result.append(Token(scalar: decoded, line: token.line, column: token.column, isEscape: true)) }
                index += width
            }
            return result
        }
    }

    /// Aligns value characters with raw ones; folding only changes whitespace, so skipping
    /// whitespace on either side keeps the two in step. A character written as an escape
    /// starts a breakpoint of its own, which says so.
    func align(_ scalar: YAMLScalar) -> [MessageOffsetMap.Breakpoint] {
        let raw = tokens(scalar)
        var breakpoints: [MessageOffsetMap.Breakpoint] = []
        var r = 0
        var previous: (line: Int, column: Int)?
        for (offset, value) in scalar.value.unicodeScalars.enumerated() {
            while r < raw.count, raw[r].scalar != value, raw[r].scalar.properties.isWhitespace {
                r += 1
            }
            let position: (line: Int, column: Int)
            var isEscape = false
            if r < raw.count, raw[r].scalar == value {
                position = (raw[r].line, raw[r].column)
                isEscape = raw[r].isEscape
                r += 1
            } else {
                position = previous.map { ($0.line, $0.column + 1) } ?? (scalar.start.line, scalar.start.column)
            }
            if !isEscape, let previous, previous.line == position.line, previous.column + 1 == position.column {
                // Contiguous: the last breakpoint covers it.
            } else {
                breakpoints.append(.init(offset: offset, line: position.line, column: position.column, isEscape: isEscape))
            }
            previous = position
        }
        if breakpoints.isEmpty {
            return [MessageOffsetMap.Breakpoint(offset: 0, line: scalar.start.line, column: scalar.start.column)]
        }
        return breakpoints
    }
}
