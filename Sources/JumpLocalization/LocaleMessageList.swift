import JumpDiagnostics

/// The messages of one locale file, stored flat: each key and text a range of the file's bytes
/// when written there as it reads (most are), else of one byte array of its own, and one
/// fixed-size record per message saying where its key and value are. A catalog of thousands
/// of messages is a handful of arrays, not an object and several strings each.
public struct LocaleMessageList: Sendable {
    /// Where a message's value characters are in the file (`LocaleMessage.offsetMap`).
    public enum Offsets: Sendable {
        /// One line without escapes: value offset 0 at `line:column`, then one column each.
        case linear(line: Int, column: Int)
        /// Worked out by the list's `OffsetResolver` when a place is asked for, from the
        /// value's text, start, `end` and `style` (a number the resolver gave it).
        case resolved(endLine: Int, endColumn: Int, style: UInt8)
        /// Any other map, kept as it is.
        case map(MessageOffsetMap)
    }

    /// Works out the breakpoints of a value stored with `Offsets.resolved`: its text, where it
    /// starts and ends, and its style.
    public typealias OffsetResolver =
        @Sendable (
            _ text: String, _ start: (line: Int, column: Int),
            _ end: (line: Int, column: Int), _ style: UInt8
        ) -> [MessageOffsetMap.Breakpoint]

    /// One message: ranges of bytes (`inSource` set: of `source`, else of `bytes`) and its
    /// places in the file.
    struct Record: Sendable {
        var keyStart: UInt32
        var keyCount: UInt32
        var textStart: UInt32
        var textCount: UInt32
        var keyLine: UInt32
        var keyColumn: UInt32
        var keyLength: UInt32
        var valueLine: UInt32
        var valueColumn: UInt32
        var valueLength: UInt32
        /// The start of a linear map, or the end of a resolved value.
        var mapLine: UInt32
        var mapColumn: UInt32
        var offsets: OffsetsKind
        /// `ScalarTrap` as 1 + its position in `allCases`; 0 for none.
        var trap: UInt8
        var style: UInt8
    }

    enum OffsetsKind: UInt8, Sendable { case linear, resolved, map }

    /// The file of every location (a message's key and value are in one file).
    public let file: String
    /// The file's bytes, which most keys and texts are ranges of.
    let source: [UInt8]
    /// The keys and texts not written in the file as they read (dotted keys, escapes).
    private(set) var bytes: [UInt8] = []
    private(set) var records: [Record] = []
    /// The maps of messages stored with `Offsets.map`, by position.
    private(set) var maps: [Int32: MessageOffsetMap] = [:]
    /// The files of messages appended from another file's list (a catalog merged from
    /// several documents), by position.
    private(set) var otherFiles: [Int32: String] = [:]
    let resolver: OffsetResolver?

    /// The high bit of a range's start: the range is of `source`.
    static let inSource: UInt32 = 1 << 31

    /// An empty list for `file`'s messages; `source` is the file's bytes (which keys and texts
    /// may be ranges of); `resolver` works out the maps of `.resolved` values.
    public init(file: String, source: [UInt8] = [], resolver: OffsetResolver? = nil) {
        self.file = file
        self.source = source
        self.resolver = resolver
    }

    /// Room for `count` messages.
    public mutating func reserveCapacity(messages count: Int) {
        records.reserveCapacity(count)
    }

    /// The range of `text`'s bytes: in `source` from `offset` when they are there, else
    /// appended to `bytes` (after `prefix` and a dot, when `prefix` is not empty).
    private mutating func range(of text: String, prefix: UnsafeBufferPointer<UInt8>, sourceOffset offset: Int?) -> (start: UInt32, count: UInt32) {
        var text = text
        return text.withUTF8 { range(ofUTF8: $0, prefix: prefix, sourceOffset: offset) }
    }

    /// `range(of:prefix:sourceOffset:)` of UTF-8 bytes.
    private mutating func range(ofUTF8 utf8: UnsafeBufferPointer<UInt8>, prefix: UnsafeBufferPointer<UInt8>, sourceOffset offset: Int?) -> (
        start: UInt32, count: UInt32
    ) {
        if prefix.isEmpty, let offset, offset >= 0, offset + utf8.count <= source.count, offset < Int(Self.inSource),
            source.withUnsafeBufferPointer({ MessageIndex.bytesEqual(UnsafeBufferPointer(rebasing: $0[offset..<(offset + utf8.count)]), utf8) })
        {
            return (UInt32(offset) | Self.inSource, UInt32(utf8.count))
        }
        let start = bytes.count
        if !prefix.isEmpty {
            bytes.append(contentsOf: prefix)
            bytes.append(UInt8(ascii: "."))
        }
        bytes.append(contentsOf: utf8)
        return (UInt32(start), UInt32(bytes.count - start))
    }

    /// Calls `body` with the bytes of a range of a record.
    @inline(__always)
    func withBytes<Result>(_ start: UInt32, _ count: UInt32, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let range = Int(start & ~Self.inSource)..<(Int(start & ~Self.inSource) + Int(count))
        // Each array read in place: choosing one first (`a ? source : bytes`) copies it.
        if start & Self.inSource != 0 {
            return source.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
        }
        return bytes.withUnsafeBufferPointer { body(UnsafeBufferPointer(rebasing: $0[range])) }
    }

    public var count: Int { records.count }
    public var isEmpty: Bool { records.isEmpty }

    /// Adds a message whose key is `keyPrefix` (UTF-8, may be empty), a dot and `keyPart`;
    /// `keyOffset` and `textOffset` say where in `source` the key part and the text may be
    /// written as they read (checked before used).
    public mutating func append(
        keyPrefix: UnsafeBufferPointer<UInt8>, keyPart: String, keyOffset: Int? = nil,
        text: String, textOffset: Int? = nil,
        keyLocation: (line: Int, column: Int, length: Int),
        valueLocation: (line: Int, column: Int, length: Int),
        offsets: Offsets, trap: ScalarTrap?
    ) {
        var text = text
        text.withUTF8 { utf8 in
            append(
                keyPrefix: keyPrefix, keyPart: keyPart, keyOffset: keyOffset, textUTF8: utf8, textOffset: textOffset,
                keyLocation: keyLocation, valueLocation: valueLocation, offsets: offsets, trap: trap)
        }
    }

    /// `append` of a text given as UTF-8 (a reader's bytes: no string made of it).
    public mutating func append(
        keyPrefix: UnsafeBufferPointer<UInt8>, keyPart: String, keyOffset: Int? = nil,
        textUTF8: UnsafeBufferPointer<UInt8>, textOffset: Int? = nil,
        keyLocation: (line: Int, column: Int, length: Int),
        valueLocation: (line: Int, column: Int, length: Int),
        offsets: Offsets, trap: ScalarTrap?
    ) {
        let key = range(of: keyPart, prefix: keyPrefix, sourceOffset: keyOffset)
        let value = range(ofUTF8: textUTF8, prefix: UnsafeBufferPointer(start: nil, count: 0), sourceOffset: textOffset)
        var record = Record(
            keyStart: key.start, keyCount: key.count, textStart: value.start, textCount: value.count,
            keyLine: UInt32(clamping: keyLocation.line), keyColumn: UInt32(clamping: keyLocation.column),
            keyLength: UInt32(clamping: keyLocation.length),
            valueLine: UInt32(clamping: valueLocation.line), valueColumn: UInt32(clamping: valueLocation.column),
            valueLength: UInt32(clamping: valueLocation.length),
            mapLine: 0, mapColumn: 0, offsets: .linear,
            trap: trap.map { UInt8(ScalarTrap.allCases.firstIndex(of: $0)! + 1) } ?? 0, style: 0)
        switch offsets {
        case .linear(let line, let column):
            (record.mapLine, record.mapColumn) = (UInt32(clamping: line), UInt32(clamping: column))
        case .resolved(let endLine, let endColumn, let style):
            (record.mapLine, record.mapColumn, record.offsets, record.style) = (
                UInt32(clamping: endLine), UInt32(clamping: endColumn), .resolved, style
            )
        case .map(let map):
            if let start = map.linearStart, !start.isEscape, start.offset == 0 {
                (record.mapLine, record.mapColumn) = (UInt32(clamping: start.line), UInt32(clamping: start.column))
            } else {
                record.offsets = .map
                maps[Int32(records.count)] = map
            }
        }
        records.append(record)
    }

    /// Adds `message` (from any list) as it is.
    public mutating func append(_ message: LocaleMessage) {
        append(message, sameFile: false)
    }

    /// Adds `message`; `sameFile`: its list's source and resolver are this list's.
    private mutating func append(_ message: LocaleMessage, sameFile: Bool) {
        let key = message.key
        let keyLocation = message.keyLocation
        let valueLocation = message.valueLocation
        let offsets: Offsets
        let record = message.record
        switch record.offsets {
        case .linear: offsets = .linear(line: Int(record.mapLine), column: Int(record.mapColumn))
        case .resolved where sameFile: offsets = .resolved(endLine: Int(record.mapLine), endColumn: Int(record.mapColumn), style: record.style)
        case .resolved, .map: offsets = .map(message.offsetMap)
        }
        func offset(_ start: UInt32) -> Int? { sameFile && start & Self.inSource != 0 ? Int(start & ~Self.inSource) : nil }
        append(
            keyPrefix: UnsafeBufferPointer(start: nil, count: 0), keyPart: key, keyOffset: offset(record.keyStart),
            text: message.text, textOffset: offset(record.textStart),
            keyLocation: (keyLocation.line, keyLocation.column, keyLocation.length),
            valueLocation: (valueLocation.line, valueLocation.column, valueLocation.length),
            offsets: offsets, trap: message.trap)
        if valueLocation.file != file { otherFiles[Int32(records.count - 1)] = valueLocation.file }
    }

    /// The file of the message at `position`.
    func file(at position: Int) -> String {
        otherFiles.isEmpty ? file : otherFiles[Int32(position)] ?? file
    }

    /// The dotted key of the message at `position`.
    public func key(at position: Int) -> String {
        let record = records[position]
        return withBytes(record.keyStart, record.keyCount) { String(decoding: $0, as: UTF8.self) }
    }

    /// The text of the message at `position`.
    func text(at position: Int) -> String {
        let record = records[position]
        return withBytes(record.textStart, record.textCount) { String(decoding: $0, as: UTF8.self) }
    }

    /// Where the key of the message at `position` is.
    public func keyLocation(at position: Int) -> SourceLocation {
        let record = records[position]
        return SourceLocation(file: file(at: position), line: Int(record.keyLine), column: Int(record.keyColumn), length: Int(record.keyLength))
    }

    /// Calls `body` with the UTF-8 key of the message at `position`.
    func withKeyBytes<Result>(at position: Int, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        let record = records[position]
        return withBytes(record.keyStart, record.keyCount, body)
    }

    /// The list of the messages at `positions` (in that order).
    func selecting(_ positions: [Int]) -> LocaleMessageList {
        var result = LocaleMessageList(file: file, source: source, resolver: resolver)
        let store = LocaleMessageStore(self)
        for position in positions { result.append(LocaleMessage(store: store, position: position), sameFile: true) }
        return result
    }
}

/// A finished `LocaleMessageList`, shared by the messages handed out of it.
final class LocaleMessageStore: Sendable {
    let list: LocaleMessageList

    init(_ list: LocaleMessageList) {
        self.list = list
    }
}
