import Synchronization

/// The texts of the files a run read, kept so that diagnostics can quote their lines
/// without reading the files again. Kept as the bytes read (no copy, no decoding until a
/// line is quoted).
public struct SourceFiles: Sendable {
    private var files: [String: SourceFile] = [:]

    public init() {}

    public mutating func add(path: String, text: String) {
        files[path] = SourceFile(Array(text.utf8))
    }

    /// Adds a file as the UTF-8 bytes read (invalid sequences are shown repaired when quoted).
    public mutating func add(path: String, bytes: [UInt8]) {
        files[path] = SourceFile(bytes)
    }

    /// Forgets the files whose path `shouldRemove` accepts (their lines are never quoted).
    public mutating func remove(where shouldRemove: (String) -> Bool) {
        files = files.filter { !shouldRemove($0.key) }
    }

    public mutating func merge(_ other: SourceFiles) {
        files.merge(other.files) { _, new in new }
    }

    public func text(of path: String) -> String? { files[path].map { String(decoding: $0.bytes, as: UTF8.self) } }

    /// How many files are held.
    public var count: Int { files.count }

    /// The 1-based line `line` of `path`, without its line break (lines break where YAML breaks
    /// them: LF, CR LF, CR, NEL, LS, PS).
    public func line(_ line: Int, of path: String) -> Substring? {
        guard line >= 1, let file = files[path] else { return nil }
        let bytes = file.bytes
        let starts = file.lineStarts
        guard line <= starts.count else { return nil }
        let start = starts[line - 1]
        let end = line < starts.count ? lineEnd(bytes, from: start, to: starts[line]) : bytes.count
        return Substring(String(decoding: bytes[start..<end], as: UTF8.self))
    }

    /// The end of a line's content: the offset of its break.
    private func lineEnd(_ bytes: [UInt8], from start: Int, to next: Int) -> Int {
        var index = start
        while index < next {
            if LineBreaks.length(in: bytes, at: index) > 0 { return index }
            index += 1
        }
        return next
    }
}

/// One file's bytes, and where its lines start: found the first time one of its lines is
/// quoted (a run may quote a hundred lines of a few large locale files).
private final class SourceFile: Sendable {
    let bytes: [UInt8]
    private let lineStartsCache = Mutex<[Int]?>(nil)

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
    }

    var lineStarts: [Int] {
        lineStartsCache.withLock { cached in
            if let cached { return cached }
            let starts = LineBreaks.lineStarts(bytes)
            cached = starts
            return starts
        }
    }
}

/// Renders diagnostics as `path:line:col: error[JF123]: message`, the quoted source line,
/// a caret under the place, the hint and the related places.
public struct DiagnosticRenderer: Sendable {
    public var sources: SourceFiles
    /// ANSI colours; the CLI turns them on only for a terminal without `NO_COLOR`.
    public var useColor: Bool

    public init(sources: SourceFiles, useColor: Bool = false) {
        self.sources = sources
        self.useColor = useColor
    }

    public func render(_ diagnostics: [Diagnostic]) -> String {
        diagnostics.map(render).joined()
    }

    public func render(_ diagnostic: Diagnostic) -> String {
        var out = ""
        let place = diagnostic.location.map { paint(TerminalText.escaped("\($0): "), .bold) } ?? ""
        let severity = paint(
            "\(diagnostic.severity.rawValue)[\(diagnostic.code.displayName)]",
            diagnostic.severity == .error ? .red : diagnostic.severity == .warning ? .yellow : .cyan
        )
        out += "\(place)\(severity): \(paint(TerminalText.escaped(diagnostic.message), .bold))\n"
        if let location = diagnostic.location {
            out += excerpt(at: location)
        }
        if let hint = diagnostic.hint {
            out += "  = \(paint("hint", .cyan)): \(TerminalText.escaped(hint))\n"
        }
        for related in diagnostic.related {
            out += "\(paint(TerminalText.escaped("\(related.location): "), .bold))\(paint("note", .cyan)): \(TerminalText.escaped(related.message))\n"
            out += excerpt(at: related.location)
        }
        return out
    }

    /// Lines longer than this many scalars are shown as a window around the place.
    static let maximumExcerptWidth = 100

    private func excerpt(at location: SourceLocation) -> String {
        guard let line = sources.line(location.line, of: location.file) else { return "" }
        let number = String(location.line)
        let gutter = String(repeating: " ", count: number.count)
        let scalars = Array(line.unicodeScalars)
        // A window of the line around the place, marked with ellipses where it is cut.
        var first = 0
        var last = scalars.count
        if scalars.count > Self.maximumExcerptWidth {
            first = max(0, min(location.column - 1 - Self.maximumExcerptWidth / 3, scalars.count - Self.maximumExcerptWidth))
            last = min(scalars.count, first + Self.maximumExcerptWidth)
        }
        var shown = first > 0 ? "…" : ""
        var caretPad = first > 0 ? " " : ""
        var caretWidth = 0
        for index in first..<last {
            let scalar = scalars[index]
            let column = index + 1
            let width: Int
            if scalar == "\t" {
                width = 1
                shown.append(" ")
            } else if TerminalText.isControl(scalar) {
                let escaped = TerminalText.escaped(scalar)
                width = escaped.count
                shown += escaped
            } else {
                width = Self.displayWidth(scalar)
                shown.append(Character(scalar))
            }
            if column < location.column {
                caretPad += String(repeating: " ", count: width)
            } else if column < location.column + location.length {
                caretWidth += width
            }
        }
        if last < scalars.count { shown += "…" }
        if scalars.count + 1 <= location.column {
            // The place is at (or past) the end of the line: point just after it.
            caretPad += String(repeating: " ", count: location.column - scalars.count - 1)
        }
        let caret = "^" + String(repeating: "~", count: max(0, caretWidth - 1))
        return " \(number) | \(shown)\n \(gutter) | \(caretPad)\(paint(caret, .green))\n"
    }

    private enum Style: String {
        case bold = "1", red = "1;31", yellow = "1;33", cyan = "1;36", green = "1;32"
    }

    private func paint(_ text: String, _ style: Style) -> String {
        useColor ? "\u{1B}[\(style.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// Terminal cells a scalar takes: 2 for East Asian wide and full-width characters,
    /// 0 for combining marks, 1 otherwise.
    static func displayWidth(_ scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1FAFF).contains(v) || (0x20000...0x3FFFD).contains(v)
        {
            return 2
        }
        return 1
    }
}
