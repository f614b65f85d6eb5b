import JumpForms

/// Apple `.strings` files: `"key" = "value";` entries with `/* */` and `//` comments, in UTF-8
/// or UTF-16 (either byte order, with or without a byte-order mark).
///
/// Values are ICU MessageFormat as they are in the locale files (a `.strings` file cannot hold
/// plural variants; use a String Catalog for those). The comment right before an entry is its
/// note. Escapes: `\"`, `\\`, `\n`, `\t`, `\r`, `\'`, `\a`, `\b`, `\f`, `\v`, octal `\0`-`\377`,
/// `\U` and `\u` with four hex digits (two in a row for a surrogate pair). Keys may be unquoted
/// (letters, digits, `_ . - $ : /`). A key written twice is an error naming both lines; a syntax
/// error names its line and column, whatever the encoding.
public enum StringsFile {
    public static func read(_ bytes: [UInt8], path: String) -> InterchangeReadResult {
        InterchangeReadResult.decoding(bytes, path: path) { scalars, result in
            var parser = Parser(scalars: scalars, path: path)
            parser.parse(into: &result)
        }
    }

    /// The file for `entries` (key, ICU text, note) in `encoding`.
    public static func write(
        _ entries: [(key: String, text: String, note: String?)], encoding: TextEncoding = .utf8,
        byteOrderMark: Bool = false
    ) -> [UInt8] {
        var out = ""
        for (index, entry) in entries.enumerated() {
            if index > 0 { out += "\n" }
            if let note = entry.note {
                // A note holding `*/` goes in a line comment when it can.
                if note.contains("*/"), !note.contains("\n") {
                    out += "// " + note + "\n"
                } else {
                    out += "/* " + note.replacingAll("*/", with: "* /") + " */\n"
                }
            }
            out += "\"\(escape(entry.key))\" = \"\(escape(entry.text))\";\n"
        }
        return encoding.encode(out, byteOrderMark: byteOrderMark)
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    out += "\\U" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }

    private struct Parser {
        let scalars: [Unicode.Scalar]
        let path: String
        var index = 0
        var line = 1
        var column = 1
        var pendingComment: String?
        var firstPlace: [String: SourceLocation] = [:]

        init(scalars: [Unicode.Scalar], path: String) {
            self.scalars = scalars
            self.path = path
        }

        struct SyntaxError: Error {
            var message: String
            var location: SourceLocation
        }

        var here: SourceLocation { SourceLocation(file: path, line: line, column: column) }

        var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

        mutating func step() {
            if scalars[index] == "\n" { line += 1; column = 1 } else { column += 1 }
            index += 1
        }

        mutating func parse(into result: inout InterchangeReadResult) {
            do throws(SyntaxError) {
                while true {
                    try skipSpaceAndComments()
                    guard current != nil else { return }
                    let keyPlace = here
                    let (key, keyLength) = try readString(what: "a key")
                    try skipSpaceAndComments()
                    guard current == "=" else {
                        throw SyntaxError(message: "expected '=' after the key \"\(key)\"", location: here)
                    }
                    step()
                    try skipSpaceAndComments()
                    let (value, _) = try readString(what: "a value")
                    let afterValue = here
                    try skipSpaceAndComments()
                    guard current == ";" else {
                        throw SyntaxError(message: "expected ';' after the value of \"\(key)\"", location: afterValue)
                    }
                    step()
                    let location = SourceLocation(file: path, line: keyPlace.line, column: keyPlace.column, length: keyLength)
                    if let first = firstPlace[key] {
                        result.diagnostics.append(
                            Diagnostic(
                                .interchangeDuplicateKey, "the key \"\(key)\" is written twice; the first value is kept",
                                at: location, hint: "remove one of them",
                                related: [Diagnostic.Related("first written here", at: first)]))
                    } else {
                        firstPlace[key] = location
                        result.entries.append(InterchangeEntry(key: key, text: value, note: pendingComment, location: location))
                    }
                    pendingComment = nil
                }
            } catch {
                result.diagnostics.append(Diagnostic(.interchangeSyntax, error.message, at: error.location))
            }
        }

        mutating func skipSpaceAndComments() throws(SyntaxError) {
            while let c = current {
                if c.properties.isWhitespace || c == "\u{FEFF}" {
                    step()
                } else if c == "/", index + 1 < scalars.count, scalars[index + 1] == "*" {
                    let start = here
                    step(); step()
                    var text = String.UnicodeScalarView()
                    while true {
                        guard let c = current else {
                            throw SyntaxError(message: "this comment is never closed with '*/'", location: start)
                        }
                        if c == "*", index + 1 < scalars.count, scalars[index + 1] == "/" {
                            step(); step()
                            break
                        }
                        text.append(c)
                        step()
                    }
                    pendingComment = trimmed(String(text))
                } else if c == "/", index + 1 < scalars.count, scalars[index + 1] == "/" {
                    step(); step()
                    var text = String.UnicodeScalarView()
                    while let c = current, c != "\n" {
                        text.append(c)
                        step()
                    }
                    pendingComment = trimmed(String(text))
                } else {
                    return
                }
            }
        }

        func trimmed(_ text: String) -> String {
            var scalars = Substring(text).unicodeScalars[...]
            while let first = scalars.first, first.properties.isWhitespace { scalars = scalars.dropFirst() }
            while let last = scalars.last, last.properties.isWhitespace { scalars = scalars.dropLast() }
            return String(String.UnicodeScalarView(scalars))
        }

        static func isUnquoted(_ c: Unicode.Scalar) -> Bool {
            ("a"..."z").contains(c) || ("A"..."Z").contains(c) || ("0"..."9").contains(c) || "_.-$:/".unicodeScalars.contains(c)
        }

        /// A quoted or unquoted string; returns it and its width on its first line.
        mutating func readString(what: String) throws(SyntaxError) -> (String, Int) {
            guard let c = current else { throw SyntaxError(message: "expected \(what) but the file ends", location: here) }
            let startColumn = column
            var out = String.UnicodeScalarView()
            if c != "\"" {
                guard Self.isUnquoted(c) else {
                    throw SyntaxError(message: "expected \(what) in double quotes but found '\(c)'", location: here)
                }
                while let c = current, Self.isUnquoted(c) {
                    out.append(c)
                    step()
                }
                return (String(out), out.count)
            }
            let open = here
            step()
            while true {
                guard let c = current else {
                    throw SyntaxError(message: "this string is never closed with '\"'", location: open)
                }
                if c == "\"" {
                    step()
                    break
                }
                if c == "\\" {
                    let escapePlace = here
                    step()
                    guard let e = current else { throw SyntaxError(message: "the file ends inside an escape", location: escapePlace) }
                    step()
                    switch e {
                    case "n": out.append("\n")
                    case "t": out.append("\t")
                    case "r": out.append("\r")
                    case "a": out.append("\u{07}")
                    case "b": out.append("\u{08}")
                    case "f": out.append("\u{0C}")
                    case "v": out.append("\u{0B}")
                    case "\"", "\\", "'", "\n": out.append(e)
                    case "0"..."7":
                        var value = e.value - 0x30
                        for _ in 0..<2 {
                            guard let d = current, ("0"..."7").contains(d) else { break }
                            value = value * 8 + d.value - 0x30
                            step()
                        }
                        out.append(Unicode.Scalar(value)!)
                    case "U", "u":
                        let unit = try readHex(at: escapePlace)
                        if (0xD800...0xDBFF).contains(unit) {
                            // A surrogate pair: `\UD83D\UDE00`.
                            guard current == "\\", index + 1 < scalars.count, scalars[index + 1] == "U" || scalars[index + 1] == "u" else {
                                throw SyntaxError(message: "a high surrogate escape must be followed by a low one", location: escapePlace)
                            }
                            step(); step()
                            let low = try readHex(at: escapePlace)
                            guard (0xDC00...0xDFFF).contains(low) else {
                                throw SyntaxError(message: "a high surrogate escape must be followed by a low one", location: escapePlace)
                            }
                            out.append(Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))!)
                        } else if let scalar = Unicode.Scalar(unit) {
                            out.append(scalar)
                        } else {
                            throw SyntaxError(message: "'\\U' escape of a lone low surrogate", location: escapePlace)
                        }
                    default:
                        throw SyntaxError(message: "unknown escape '\\\(e)'", location: escapePlace)
                    }
                    continue
                }
                out.append(c)
                step()
            }
            return (String(out), open.line == line ? column - startColumn : 1)
        }

        mutating func readHex(at place: SourceLocation) throws(SyntaxError) -> UInt32 {
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let c = current, let digit = c.properties.numericType == nil ? hexLetter(c) : (("0"..."9").contains(c) ? c.value - 0x30 : nil)
                else {
                    throw SyntaxError(message: "'\\U' needs four hex digits", location: place)
                }
                value = value * 16 + digit
                step()
            }
            return value
        }

        func hexLetter(_ c: Unicode.Scalar) -> UInt32? {
            switch c {
            case "a"..."f": c.value - 0x61 + 10
            case "A"..."F": c.value - 0x41 + 10
            default: nil
            }
        }
    }
}
