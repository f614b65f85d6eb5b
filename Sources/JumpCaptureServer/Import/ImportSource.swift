import JumpForms
import Synchronization
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The formats `users import` reads.
public enum ImportFormat: String, Sendable, CaseIterable {
    /// JSON Lines, as `users export` writes them: one Capture record per line.
    case jsonl
    /// CSV as Capture's dataload takes it: a header row of attribute paths
    /// (`primaryAddress.city` or `/primaryAddress/city`), one record per row, JSON in a cell
    /// for objects, plurals, passwords and values that are not strings.
    case csv

    /// The format a file's name says: `.csv` is CSV, anything else JSON Lines.
    public static func guess(path: String) -> ImportFormat {
        path.lowercased().hasSuffix(".csv") ? .csv : .jsonl
    }
}

/// One record read from an import file: where it starts (1-based line), and its JSON or why it
/// could not be read.
struct ImportLine: Sendable {
    var line: Int
    var record: Result<JSONValue, ImportRefusal>
}

/// Why a record is not imported: the attribute (a record path, `line` for a record that
/// could not be read) or, for malformed JSON, the column; and the reason. Never holds a
/// password hash.
public struct ImportRefusal: Error, Sendable, Hashable {
    public var attribute: String
    public var column: Int?
    public var reason: String

    public init(attribute: String, column: Int? = nil, reason: String) {
        self.attribute = attribute
        self.column = column
        self.reason = reason
    }

    /// `FILE:LINE: attribute: reason`, or `FILE:LINE:COLUMN: reason` for malformed JSON.
    public func rendered(file: String, line: Int) -> String {
        if let column { return "\(file):\(line):\(column): \(reason)" }
        return "\(file):\(line): \(attribute): \(reason)"
    }
}

/// Reads an import file a chunk at a time (never the whole file): JSON Lines or CSV records,
/// each with its line. A line (or CSV record) longer than `maximumLineBytes` is refused and
/// skipped without being held. Used by one task at a time (the state is behind a lock so
/// that the reader can cross into the store's transactions).
final class ImportRecordReader: Sendable {
    private struct State {
        var descriptor: Int32
        var buffer: [UInt8] = []
        var position = 0
        var atEnd = false
        /// The line the next byte is on.
        var line = 1
        var header: [CSVColumn]?
    }

    /// One CSV column: its attribute names (`primaryAddress.city` -> `primaryAddress`, `city`).
    struct CSVColumn: Sendable {
        var text: String
        var names: [String]
    }

    let format: ImportFormat
    let maximumLineBytes: Int
    private let state: Mutex<State>
    private let cellValue: @Sendable ([String], String) -> Result<JSONValue, ImportRefusal>

    static let chunkSize = 1 << 18

    /// `descriptor`: an open file (closed by `close()`); `cellValue`: what a CSV cell's text
    /// is for the attribute its column names (the record model decides).
    init(
        descriptor: Int32, format: ImportFormat, maximumLineBytes: Int,
        cellValue: @escaping @Sendable ([String], String) -> Result<JSONValue, ImportRefusal>
    ) {
        self.format = format
        self.maximumLineBytes = maximumLineBytes
        self.cellValue = cellValue
        state = Mutex(State(descriptor: descriptor))
    }

    /// The bytes read so far (progress): apart from the state, which a read waiting for input
    /// holds.
    private let bytes = Atomic<Int64>(0)
    var bytesRead: Int64 { bytes.load(ordering: .relaxed) }

    /// Closes the file (not standard input).
    func finish() {
        state.withLock { state in
            if state.descriptor > 2 { _ = close(state.descriptor) }
            state.descriptor = -1
        }
    }

    /// Up to `count` records; empty at the end of the file. Throws `ImportReadError` when the
    /// file cannot be read.
    func next(_ count: Int) throws -> [ImportLine] {
        try state.withLock { state in
            var lines: [ImportLine] = []
            while lines.count < count, let line = try nextRecord(&state) { lines.append(line) }
            return lines
        }
    }

    // MARK: bytes

    /// Makes sure the buffer holds a byte at `position`; false at the end of the file.
    private func fill(_ state: inout State) throws -> Bool {
        if state.position < state.buffer.count { return true }
        if state.atEnd { return false }
        state.buffer.removeAll(keepingCapacity: true)
        state.position = 0
        var chunk = [UInt8](repeating: 0, count: Self.chunkSize)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(state.descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw ImportReadError(reason: String(cString: strerror(errno))) }
            if count == 0 {
                state.atEnd = true
                return false
            }
            bytes.add(Int64(count), ordering: .relaxed)
            state.buffer.append(contentsOf: chunk[0..<count])
            return true
        }
    }

    /// The bytes up to the next line feed (without it, nor a carriage return before it), and
    /// whether the line was too long (its bytes then dropped); nil at the end of the file.
    private func rawLine(_ state: inout State) throws -> (bytes: [UInt8], tooLong: Bool)? {
        var bytes: [UInt8] = []
        var tooLong = false
        var sawAny = false
        while try fill(&state) {
            sawAny = true
            let rest = state.buffer[state.position...]
            if let newline = rest.firstIndex(of: 0x0A) {
                if !tooLong { bytes += state.buffer[state.position..<newline] }
                state.position = newline + 1
                if bytes.count > maximumLineBytes { tooLong = true }
                if tooLong { bytes = [] }
                if bytes.last == 0x0D { bytes.removeLast() }
                return (bytes, tooLong)
            }
            if !tooLong { bytes += rest }
            state.position = state.buffer.count
            if bytes.count > maximumLineBytes {
                tooLong = true
                bytes = []
            }
        }
        guard sawAny else { return nil }
        if bytes.last == 0x0D { bytes.removeLast() }
        return (bytes, tooLong)
    }

    // MARK: records

    private func nextRecord(_ state: inout State) throws -> ImportLine? {
        switch format {
        case .jsonl: return try nextJSONLine(&state)
        case .csv: return try nextCSVRecord(&state)
        }
    }

    private func nextJSONLine(_ state: inout State) throws -> ImportLine? {
        while let (bytes, tooLong) = try rawLine(&state) {
            let line = state.line
            state.line += 1
            if tooLong { return ImportLine(line: line, record: .failure(tooLongRefusal)) }
            // Blank lines (a trailing one, most often) are no records.
            if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            do {
                let value = try JSONValue.parse(bytes)
                guard case .object = value else {
                    return ImportLine(
                        line: line,
                        record: .failure(ImportRefusal(attribute: "line", reason: "a record is a JSON object, not \(value.kindDescription)")))
                }
                return ImportLine(line: line, record: .success(value))
            } catch {
                return ImportLine(
                    line: line, record: .failure(ImportRefusal(attribute: "line", column: error.column, reason: "malformed JSON: \(error.message)")))
            }
        }
        return nil
    }

    private var tooLongRefusal: ImportRefusal {
        ImportRefusal(attribute: "line", reason: "longer than \(maximumLineBytes) bytes (the server's largest record, server.maximumRecordSize)")
    }

    /// One CSV record (RFC 4180: fields in double quotes may hold commas, quotes written twice,
    /// and line breaks), the header first.
    private func nextCSVRecord(_ state: inout State) throws -> ImportLine? {
        while true {
            let line = state.line
            guard let (fields, tooLong, problem) = try csvFields(&state) else { return nil }
            if tooLong { return ImportLine(line: line, record: .failure(tooLongRefusal)) }
            if let problem { return ImportLine(line: line, record: .failure(ImportRefusal(attribute: "line", reason: problem))) }
            if fields.count == 1, fields[0].allSatisfy({ $0 == " " || $0 == "\t" }) { continue }
            guard let header = state.header else {
                var columns: [CSVColumn] = []
                for field in fields {
                    let text = String(
                        field.drop { $0 == " " || $0 == "\t" || $0 == "\u{FEFF}" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
                    let slashed = text.hasPrefix("/")
                    let names = (slashed ? text.dropFirst() : Substring(text)).split(separator: slashed ? "/" : ".", omittingEmptySubsequences: false)
                        .map(String.init)
                    guard !text.isEmpty, names.allSatisfy({ !$0.isEmpty }) else {
                        throw ImportReadError(reason: "line \(line): the header names an empty attribute path (\(text.debugDescription))")
                    }
                    columns.append(CSVColumn(text: text, names: names))
                }
                state.header = columns
                continue
            }
            guard fields.count == header.count else {
                return ImportLine(
                    line: line,
                    record: .failure(
                        ImportRefusal(attribute: "line", reason: "\(fields.count) cells, but the header names \(header.count) attributes")))
            }
            var record = JSONValue.object([])
            var refusal: ImportRefusal?
            for (column, cell) in zip(header, fields) where !cell.isEmpty {
                switch cellValue(column.names, cell) {
                case .success(let value): record = record.setting(names: column.names, value)
                case .failure(let problem): refusal = problem
                }
                if refusal != nil { break }
            }
            if let refusal { return ImportLine(line: line, record: .failure(refusal)) }
            return ImportLine(line: line, record: .success(record))
        }
    }

    /// The fields of the next CSV record, whether it was too long, or why it is malformed;
    /// nil at the end of the file.
    private func csvFields(_ state: inout State) throws -> ([String], tooLong: Bool, problem: String?)? {
        var fields: [String] = []
        var field: [UInt8] = []
        var size = 0
        var quoted = false
        var afterQuote = false
        var started = false
        var problem: String?
        while try fill(&state) {
            let byte = state.buffer[state.position]
            state.position += 1
            started = true
            size += 1
            if size > maximumLineBytes {
                // Skip to the end of the record (outside quotes) without keeping it.
                field = []
                fields = []
            }
            if quoted {
                if byte == 0x22 {
                    if try fill(&state), state.buffer[state.position] == 0x22 {
                        state.position += 1
                        if size <= maximumLineBytes { field.append(0x22) }
                    } else {
                        quoted = false
                        afterQuote = true
                    }
                } else {
                    if byte == 0x0A { state.line += 1 }
                    if size <= maximumLineBytes { field.append(byte) }
                }
                continue
            }
            switch byte {
            case 0x22 where field.isEmpty && !afterQuote:
                quoted = true
            case 0x2C:
                fields.append(String(decoding: field, as: UTF8.self))
                field = []
                afterQuote = false
            case 0x0A:
                state.line += 1
                if field.last == 0x0D { field.removeLast() }
                fields.append(String(decoding: field, as: UTF8.self))
                return (fields, size > maximumLineBytes, problem)
            case 0x0D where afterQuote:
                break
            default:
                if afterQuote, problem == nil { problem = "text after a quoted cell's closing quote (cell \(fields.count + 1))" }
                if size <= maximumLineBytes { field.append(byte) }
            }
        }
        guard started else { return nil }
        if quoted { problem = problem ?? "a quoted cell is not closed before the end of the file" }
        if field.last == 0x0D { field.removeLast() }
        fields.append(String(decoding: field, as: UTF8.self))
        return (fields, size > maximumLineBytes, problem)
    }
}

/// The import file cannot be read (an I/O error, a CSV header that names no attribute).
public struct ImportReadError: Error, Sendable, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}

extension JSONValue {
    /// The object with the value at `names` set (objects made on the way).
    func setting(names: [String], _ value: JSONValue) -> JSONValue {
        guard let first = names.first else { return value }
        if names.count == 1 { return setting(first, value) }
        let inner = self[first].flatMap { $0.objectValue != nil ? $0 : nil } ?? .object([])
        return setting(first, inner.setting(names: Array(names.dropFirst()), value))
    }
}
