import JumpForms
import Synchronization

/// Decodes a locale file: `locale` and `messages` (flat dotted keys or nested maps), keeping
/// for every message where its key and each character of its value are in the file.
///
/// `LocaleDecoder.read` decodes `messages` while libyaml reads the file (no node tree for
/// them); `decode` then reads the few top-level keys from the small tree kept of the rest.
struct LocaleDecoder {
    enum LocaleKey: String, CaseIterable { case locale, messages, sameAsSource, notes }

    var decoder: NodeDecoder
    /// The messages, read as the file was read or walked from the tree by `decode`.
    private var flattener: MessageFlattener
    /// Whether `flattener` already holds the messages of the file's `messages` mapping.
    private let streamed: Bool

    /// A decoder of a file read by `read` (`streamed`: its messages already decoded), or of
    /// any tree of `bytes`; `readerDuplicates` are then the keys the YAML reader found twice in
    /// one mapping (where, and where the kept one is).
    init(path: String, bytes: [UInt8], streamed: MessageFlattener?,
         readerDuplicates: [(location: SourceLocation, first: SourceLocation)] = []) {
        decoder = NodeDecoder(path: path)
        if let streamed {
            flattener = streamed
        } else {
            flattener = MessageFlattener(path: path, source: SourceText(bytes: bytes))
            for duplicate in readerDuplicates { flattener.recordDuplicate(duplicate.location, first: duplicate.first) }
        }
        self.streamed = streamed != nil
    }

    /// Reads a locale file: the messages of its `messages` mapping are decoded as libyaml's
    /// events arrive; the result's document is the rest of the file (with `messages` empty)
    /// for `init(path:bytes:streamed:)` and `decode`. `messages` is nil when the file has no
    /// `messages` mapping to stream (then `decode` walks the tree as for any document).
    static func read(_ bytes: [UInt8], path: String, limits: LoaderLimits) -> (result: YAMLReadResult, messages: MessageFlattener?) {
        let sink = LocaleNodeSink(flattener: MessageFlattener(path: path, source: SourceText(bytes: bytes)), expectedSize: bytes.count)
        let read = YAMLReader.read(bytes, path: path, limits: limits, into: sink)
        return (read.result, read.sink.streamed ? read.sink.flattener : nil)
    }

    /// The catalog, or nil when the file has no usable `locale`; `decoder.errors` says why.
    /// `expectedTag` is the tag the file name gives.
    mutating func decode(_ document: YAMLDocument, expectedTag: String?) -> LocaleCatalog? {
        guard let root = decoder.mapping(document.root, "a locale file") else { return nil }
        let keyed = decoder.keyed(root, LocaleKey.self, context: "the locale file")
        var tag: Located<LocaleTag>?
        if let node = decoder.required(keyed, .locale), let text = decoder.string(node, "'locale'") {
            if let parsed = LocaleTag(text.value) {
                tag = Located(parsed, at: text.location)
                if let expectedTag, LocaleTag(expectedTag) != parsed {
                    decoder.errors.append(.localeTagMismatch(text.location, declared: text.value, fileName: expectedTag + ".yaml"))
                }
            } else {
                decoder.errors.append(.invalidLocaleTag(text.location, text: text.value))
            }
        }
        var messagesRead = false
        if let node = decoder.required(keyed, .messages), let mapping = decoder.mapping(node, "'messages'") {
            if !streamed {
                // About half the scalars are values (the others are keys).
                flattener.reserveCapacity(max(mapping.entries.count, document.scalarCount / 2))
                flattener.walk(mapping)
            }
            decoder.errors += flattener.errors
            messagesRead = true
        }
        var sameAsSource: [Located<String>] = []
        if let node = keyed[.sameAsSource] {
            sameAsSource = decoder.strings(node, "'sameAsSource'") ?? []
        }
        var notes: [String: String] = [:]
        if let node = keyed[.notes], let mapping = decoder.mapping(node, "'notes'") {
            flattenNotes(mapping, prefix: "", into: &notes)
        }
        guard let tag else { return nil }
        let messages = flattener.messages
        var duplicateKeys = flattener.duplicateKeys
        var catalog = LocaleCatalog(path: document.path, tag: tag, messageList: messages)
        if catalog.count != messages.count {
            // Keys that flatten to the same dotted key (`a.b` and `a: {b: ...}`): the catalog
            // kept the first of each.
            var first: [String: SourceLocation] = [:]
            for index in 0..<messages.count {
                let key = messages.key(at: index)
                let location = messages.keyLocation(at: index)
                if let earlier = first[key] {
                    decoder.errors.append(.duplicateMessageKey(location, key: key, first: earlier))
                    duplicateKeys.append(LocaleDuplicateKey(key: key, location: location, firstLocation: earlier))
                } else {
                    first[key] = location
                }
            }
        }
        if duplicateKeys.count > 1 { duplicateKeys.sort { $0.location < $1.location } }
        catalog.messagesLocation = keyed.keyScalar(.messages).map { decoder.location($0) }
        catalog.sameAsSource = sameAsSource
        catalog.notes = notes
        catalog.duplicateKeys = duplicateKeys
        catalog.keyTraps = flattener.keyTraps
        catalog.isComplete = messagesRead
        return catalog
    }

    /// `notes`: flat dotted or nested keys, like `messages`, each a string.
    mutating func flattenNotes(_ mapping: YAMLMapping, prefix: String, into notes: inout [String: String]) {
        for entry in mapping.entries {
            let key = MessageFlattener.dotted(prefix, entry.key.value)
            if case .mapping(let nested) = entry.value {
                flattenNotes(nested, prefix: key, into: &notes)
            } else if let text = decoder.string(entry.value, "the note of '\(key)'") {
                notes[key] = text.value
            }
        }
    }
}

/// Turns the entries of a locale file's `messages` into messages with dotted keys: as the
/// reader composes them (`LocaleNodeSink`), or by walking a mapping of the tree (a file read
/// as any YAML file, a value that is an alias). Keys and values get the same checks either way.
struct MessageFlattener: Sendable {
    let path: String
    let source: SourceText
    private(set) var messages: LocaleMessageList
    /// Sequences where a message is expected.
    private(set) var errors: [DecodeError] = []
    /// Every duplicate key under `messages`, with its dotted name (in the order found).
    private(set) var duplicateKeys: [LocaleDuplicateKey] = []
    /// Keys a YAML 1.1 loader would type, in file order.
    private(set) var keyTraps: [LocaleKeyTrap] = []
    /// Keys the YAML reader found twice in one mapping, by where the kept (first) key is: an
    /// entry walked again through an alias reports its duplicates under its new dotted key.
    private var readerDuplicates: [YAMLMark: [(location: SourceLocation, first: SourceLocation)]] = [:]
    /// The dotted key of the nested mapping being read, in UTF-8 (empty at the top), and where
    /// each open mapping's part starts in it: a mapping's key is appended as bytes, so only the
    /// keys of messages become strings.
    private var keyPath: [UInt8] = []
    private var keyPathStarts: [Int] = []

    init(path: String, source: SourceText) {
        self.path = path
        self.source = source
        messages = LocaleMessageList(file: path, source: source.bytes) { [source] text, start, end, style in
            source.align(YAMLScalar(value: text, style: SourceText.style(style), tag: nil,
                                    start: YAMLMark(line: start.line, column: start.column), end: YAMLMark(line: end.line, column: end.column)))
        }
    }

    /// Room for `count` messages.
    mutating func reserveCapacity(_ count: Int) {
        messages.reserveCapacity(messages: count)
    }

    /// `prefix.key`, or `key` at the top (one allocation at most).
    static func dotted(_ prefix: String, _ key: String) -> String {
        if prefix.isEmpty { return key }
        var prefix = prefix
        return prefix.withUTF8 { dotted($0, key) }
    }

    /// The UTF-8 `head` (not empty), a dot and `key`, made into a string at once.
    private static func dotted(_ head: UnsafeBufferPointer<UInt8>, _ key: String) -> String {
        var tail = key
        return tail.withUTF8 { tail in
            String(unsafeUninitializedCapacity: head.count + 1 + tail.count) { buffer in
                _ = buffer.initialize(fromContentsOf: head)
                buffer[head.count] = UInt8(ascii: ".")
                _ = buffer[(head.count + 1)...].initialize(fromContentsOf: tail)
                return head.count + 1 + tail.count
            }
        }
    }

    /// The dotted key of `key`, an entry of the mapping being read.
    private func dotted(_ key: YAMLScalar) -> String {
        if keyPath.isEmpty { return key.value }
        return keyPath.withUnsafeBufferPointer { Self.dotted($0, key.value) }
    }

    private func location(_ scalar: YAMLScalar) -> SourceLocation {
        SourceLocation(file: path, line: scalar.start.line, column: scalar.start.column, length: scalar.width)
    }

    /// A key written twice: `location` is the second, `first` the kept one.
    mutating func recordDuplicate(_ location: SourceLocation, first: SourceLocation) {
        readerDuplicates[YAMLMark(line: first.line, column: first.column), default: []].append((location, first))
    }

    /// A key of the mapping being read (`under` it) written twice, found as the file is read.
    mutating func duplicate(_ key: YAMLScalar, at location: SourceLocation, first: SourceLocation) {
        recordDuplicate(location, first: first)
        duplicateKeys.append(LocaleDuplicateKey(key: dotted(key), location: location, firstLocation: first))
    }

    /// The checks of an entry's key; `known` is its dotted key when already made (else it is
    /// made only if a check reports it).
    private mutating func checkKey(_ key: YAMLScalar, at keyLocation: SourceLocation, dotted known: String? = nil) {
        if let trap = ScalarTrap.of(key) {
            keyTraps.append(LocaleKeyTrap(key: known ?? dotted(key), written: key.value, trap: trap, location: keyLocation))
        }
        if !readerDuplicates.isEmpty, let duplicates = readerDuplicates[key.start] {
            let dottedKey = known ?? dotted(key)
            for duplicate in duplicates {
                duplicateKeys.append(LocaleDuplicateKey(key: dottedKey, location: duplicate.location, firstLocation: duplicate.first))
            }
        }
    }

    /// An entry whose value is a scalar: a message.
    mutating func message(_ value: YAMLScalar, key: YAMLScalar) {
        checkKey(key, at: location(key))
        // A key written both flat and nested is found once the catalog is built.
        let offsets = source.offsets(for: value)
        // Texts and top-level keys written as they read are kept as ranges of the file's bytes.
        var textOffset: Int?
        if case .linear(let line, let column) = offsets { textOffset = source.byteOffset(line: line, column: column) }
        var keyOffset: Int?
        if keyPath.isEmpty, case .linear(let line, let column) = source.offsets(for: key) {
            keyOffset = source.byteOffset(line: line, column: column)
        }
        keyPath.withUnsafeBufferPointer { prefix in
            messages.append(keyPrefix: prefix, keyPart: key.value, keyOffset: keyOffset, text: value.value, textOffset: textOffset,
                            keyLocation: (key.start.line, key.start.column, key.width),
                            valueLocation: (value.start.line, value.start.column, value.width),
                            offsets: offsets, trap: ScalarTrap.of(value))
        }
    }

    /// An entry whose value is a mapping: its entries follow, until `endMapping`.
    mutating func startMapping(key: YAMLScalar) {
        checkKey(key, at: location(key))
        keyPathStarts.append(keyPath.count)
        if !keyPath.isEmpty { keyPath.append(UInt8(ascii: ".")) }
        var part = key.value
        part.withUTF8 { keyPath.append(contentsOf: $0) }
    }

    mutating func endMapping() {
        keyPath.removeSubrange(keyPathStarts.removeLast()...)
    }

    /// An entry whose value is a sequence (which holds no message).
    mutating func sequence(at start: YAMLMark, key: YAMLScalar) {
        let dottedKey = dotted(key)
        checkKey(key, at: location(key), dotted: dottedKey)
        errors.append(.wrongNodeKind(SourceLocation(file: path, line: start.line, column: start.column), expected: "a string or a mapping of messages",
                                     found: "a sequence", context: "message '\(dottedKey)'"))
    }

    /// The entries of a mapping of the tree.
    mutating func walk(_ mapping: YAMLMapping) {
        for entry in mapping.entries { walk(entry.value, key: entry.key) }
    }

    /// One entry of the tree.
    mutating func walk(_ value: YAMLNode, key: YAMLScalar) {
        switch value {
        case .mapping(let nested):
            startMapping(key: key)
            walk(nested)
            endMapping()
        case .sequence(let sequence):
            self.sequence(at: sequence.start, key: key)
        case .scalar(let scalar):
            message(scalar, key: key)
        }
    }
}

/// What the reader composes from a locale file: the entries under the top-level `messages`
/// mapping go to a `MessageFlattener` as they arrive; the rest of the file, and any node an
/// anchor names (an alias may use it later), go to a tree.
struct LocaleNodeSink: YAMLNodeSink {
    /// What becomes of a collection's children.
    struct Frame {
        /// Whether the collection is in the tree.
        var inTree: Bool
        /// Whether its children go to the tree.
        var treeChildren: Bool
        /// Whether its children are entries of `messages` (or of a mapping nested in it).
        var holdsMessages = false
        var isMessagesRoot = false
    }

    private(set) var tree: YAMLTreeBuilder
    private(set) var flattener: MessageFlattener
    private var frames: [Frame] = []
    /// Whether the file's `messages` mapping went to the flattener.
    private(set) var streamed = false

    init(flattener: MessageFlattener, expectedSize: Int) {
        self.flattener = flattener
        // The tree holds the top-level keys and little else.
        tree = YAMLTreeBuilder(expectedSize: 0)
        // About one message per 48 bytes of a locale file (more capacity touches no memory).
        self.flattener.reserveCapacity(expectedSize / 32)
    }

    /// Whether the children of the innermost collection go to the tree, and whether they are
    /// entries of `messages`.
    private var parent: (treeChildren: Bool, holdsMessages: Bool) {
        guard let frame = frames.last else { return (true, false) }
        return (frame.treeChildren, frame.holdsMessages)
    }

    mutating func scalar(_ scalar: YAMLScalar, at place: YAMLPlace, anchored: Bool) -> YAMLNodeID? {
        let (treeChildren, holdsMessages) = parent
        var node: YAMLNodeID?
        if treeChildren || anchored {
            // A node an anchor names outside the tree stands alone there.
            node = tree.scalar(scalar, at: treeChildren ? place : .dropped, anchored: anchored)
        }
        if holdsMessages, case .value(let key) = place { flattener.message(scalar, key: key) }
        return node
    }

    mutating func startCollection(isMapping: Bool, start: YAMLMark, at place: YAMLPlace, anchored: Bool) {
        let (treeChildren, holdsMessages) = parent
        let inTree = treeChildren || anchored
        if inTree { tree.startCollection(isMapping: isMapping, start: start, at: treeChildren ? place : .dropped, anchored: anchored) }
        var frame = Frame(inTree: inTree, treeChildren: inTree)
        if holdsMessages {
            // A sequence, or a dropped value, holds no messages: its children are ignored.
            if case .value(let key) = place {
                if isMapping {
                    flattener.startMapping(key: key)
                    frame.holdsMessages = true
                } else {
                    flattener.sequence(at: start, key: key)
                }
            }
        } else if frames.count == 1, isMapping, !streamed, case .value(let key) = place, key.value == LocaleDecoder.LocaleKey.messages.rawValue {
            // The top-level `messages`: its entries become messages now; the tree gets an
            // empty mapping (or all of it, when an anchor names it).
            streamed = true
            frame.holdsMessages = true
            frame.isMessagesRoot = true
            frame.treeChildren = anchored
        }
        frames.append(frame)
    }

    mutating func endCollection(end: YAMLMark) -> YAMLNodeID? {
        guard let frame = frames.popLast() else { return nil }
        if frame.holdsMessages, !frame.isMessagesRoot { flattener.endMapping() }
        return frame.inTree ? tree.endCollection(end: end) : nil
    }

    mutating func alias(_ target: YAMLNodeID, at place: YAMLPlace) {
        let (treeChildren, holdsMessages) = parent
        if treeChildren { tree.alias(target, at: place) }
        // The aliased node's entries, read again under this key (anchored nodes are in the tree).
        if holdsMessages, case .value(let key) = place { flattener.walk(tree.node(target), key: key) }
    }

    mutating func duplicateKey(_ key: YAMLScalar, at location: SourceLocation, first: SourceLocation) {
        if parent.holdsMessages {
            flattener.duplicate(key, at: location, first: first)
        } else {
            flattener.recordDuplicate(location, first: first)
        }
    }
}

extension ScalarTrap {
    /// What a YAML 1.1 loader would type an unquoted scalar as, when not a string.
    static func of(_ scalar: YAMLScalar) -> ScalarTrap? {
        guard scalar.style == .plain, scalar.tag == nil else { return nil }
        return of(plain: scalar.value)
    }

    /// What a YAML 1.1 loader would type `value`, written as a plain scalar, as.
    public static func of(plain value: String) -> ScalarTrap? {
        // Most texts are rejected by their first byte, read without reaching for all of them.
        guard let lead = value.utf8.first else { return .null }
        guard mayStartTrap(lead) else { return nil }
        var text = value
        return text.withUTF8 { of(bytes: $0) }
    }

    /// Every trap starts with one of these bytes (or is empty).
    private static func mayStartTrap(_ lead: UInt8) -> Bool {
        switch lead {
        case UInt8(ascii: "y"), UInt8(ascii: "Y"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"),
             UInt8(ascii: "f"), UInt8(ascii: "F"), UInt8(ascii: "o"), UInt8(ascii: "O"), UInt8(ascii: "~"), UInt8(ascii: "."),
             UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        default:
            false
        }
    }

    /// The words YAML 1.1 types (all at most five bytes long), by their packed bytes, sorted:
    /// found by binary search (a handful of integer comparisons, no hashing).
    private static let words: [(packed: UInt64, trap: ScalarTrap)] = {
        let typed: [(ScalarTrap, [String])] = [
            (.null, ["~", "null", "Null", "NULL"]),
            (.boolean, ["y", "Y", "yes", "Yes", "YES", "n", "N", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
                        "on", "On", "ON", "off", "Off", "OFF"]),
            (.number, [".inf", ".Inf", ".INF", "-.inf", "+.inf", "-.Inf", "+.Inf", "-.INF", "+.INF", ".nan", ".NaN", ".NAN"]),
        ]
        var words: [(packed: UInt64, trap: ScalarTrap)] = []
        for (trap, list) in typed {
            for word in list { words.append((Array(word.utf8).withUnsafeBufferPointer(packed), trap)) }
        }
        return words.sorted { $0.packed < $1.packed }
    }()

    /// The trap of the word packed as `packed`, if it is one of `words`.
    private static func word(_ packed: UInt64) -> ScalarTrap? {
        let words = Self.words
        var (low, high) = (0, words.count)
        while low < high {
            let middle = (low + high) / 2
            if words[middle].packed < packed { low = middle + 1 } else { high = middle }
        }
        return low < words.count && words[low].packed == packed ? words[low].trap : nil
    }

    /// A word of up to seven bytes in one integer: its bytes, the first lowest, and its length
    /// in the top byte. Words pack equal only when they are equal, so a word is found with one
    /// lookup instead of a comparison per word.
    private static func packed(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        precondition(bytes.count < 8)
        var value = UInt64(bytes.count) << 56
        for (position, byte) in bytes.enumerated() { value |= UInt64(byte) << (8 * position) }
        return value
    }

    /// `b`: not empty, its first byte one `mayStartTrap` accepts.
    private static func of(bytes b: UnsafeBufferPointer<UInt8>) -> ScalarTrap? {
        let lead = b[0]
        if b.count <= 5, let trap = word(packed(b)) { return trap }
        guard lead == UInt8(ascii: "-") || lead == UInt8(ascii: "+") || lead == UInt8(ascii: ".") || isDigit(lead) else { return nil }
        if isDate(b) { return .date }
        if isNumber(b) { return .number }
        return nil
    }

    private static func isDigit(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    /// `yyyy-mm-dd`, optionally followed by a time (YAML 1.1 timestamp).
    private static func isDate(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard b.count >= 8 else { return false }
        var i = 0
        var digits = 0
        while i < b.count, isDigit(b[i]) { i += 1; digits += 1 }
        guard digits == 4, i < b.count, b[i] == UInt8(ascii: "-") else { return false }
        i += 1
        digits = 0
        while i < b.count, isDigit(b[i]) { i += 1; digits += 1 }
        guard (1...2).contains(digits), i < b.count, b[i] == UInt8(ascii: "-") else { return false }
        i += 1
        digits = 0
        while i < b.count, isDigit(b[i]) { i += 1; digits += 1 }
        guard (1...2).contains(digits) else { return false }
        return i == b.count || b[i] == UInt8(ascii: "T") || b[i] == UInt8(ascii: "t") || b[i] == UInt8(ascii: " ")
    }

    /// Integers (decimal, `0x`, `0o`/octal, `0b`, `_` separators, sexagesimal `1:30`) and floats.
    private static func isNumber(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        if b[i] == UInt8(ascii: "-") || b[i] == UInt8(ascii: "+") { i += 1 }
        guard i < b.count else { return false }
        if b.count - i > 2, b[i] == UInt8(ascii: "0") {
            let marker = b[i + 1]
            let rest = b[(i + 2)...]
            switch marker {
            case UInt8(ascii: "x"): return rest.allSatisfy { isDigit($0) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains($0 | 0x20) || $0 == UInt8(ascii: "_") }
            case UInt8(ascii: "b"): return rest.allSatisfy { $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: "1") || $0 == UInt8(ascii: "_") }
            case UInt8(ascii: "o"): return rest.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "7")).contains($0) || $0 == UInt8(ascii: "_") }
            default: break
            }
        }
        var sawDigit = false
        var sawDot = false
        var sawExponent = false
        while i < b.count {
            let byte = b[i]
            if isDigit(byte) {
                sawDigit = true
            } else if byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":") {
                guard sawDigit, !sawDot else { return false }
            } else if byte == UInt8(ascii: ".") {
                guard !sawDot, !sawExponent else { return false }
                sawDot = true
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                guard sawDigit, !sawExponent else { return false }
                sawExponent = true
                if i + 1 < b.count, b[i + 1] == UInt8(ascii: "-") || b[i + 1] == UInt8(ascii: "+") { i += 1 }
            } else {
                return false
            }
            i += 1
        }
        return sawDigit
    }
}

/// The raw text of a file, for mapping offsets inside scalars back to lines and columns.
/// Shared by the deferred offset maps of a file's messages (see `offsetMap(for:)`).
final class SourceText: Sendable {
    let bytes: [UInt8]
    /// Byte offsets of line starts, computed the first time a scalar needs them.
    private let lineStartsCache = Mutex<[Int]?>(nil)

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private var lineStarts: [Int] {
        lineStartsCache.withLock { cached in
            if let cached { return cached }
            let starts = LineBreaks.lineStarts(bytes)
            cached = starts
            return starts
        }
    }

    /// The byte offset of `line:column` (column in Unicode scalars), if the file has it.
    func byteOffset(line: Int, column: Int) -> Int? {
        lineStartsCache.withLock { cached -> Int? in
            if cached == nil { cached = LineBreaks.lineStarts(bytes) }
            guard let starts = cached, line >= 1, line <= starts.count else { return nil }
            var offset = starts[line - 1]
            var scalars = column - 1
            while scalars > 0, offset < bytes.count {
                offset += 1
                while offset < bytes.count, bytes[offset] & 0xC0 == 0x80 { offset += 1 }
                scalars -= 1
            }
            return scalars == 0 ? offset : nil
        }
    }

    /// Where each value scalar of `scalar` was written. Values on one line without escapes map
    /// linearly; the others are aligned with the raw text only when a place is asked for.
    func offsets(for scalar: YAMLScalar) -> LocaleMessageList.Offsets {
        if scalar.start.line == scalar.end.line {
            switch scalar.style {
            case .plain:
                return .linear(line: scalar.start.line, column: scalar.start.column)
            case .singleQuoted, .doubleQuoted:
                // Without escapes the value is the raw text between the quotes.
                let special: UInt8 = scalar.style == .singleQuoted ? UInt8(ascii: "'") : UInt8(ascii: "\\")
                var (scalars, escaped) = (0, false)
                var value = scalar.value
                value.withUTF8 { utf8 in
                    for byte in utf8 {
                        if byte & 0xC0 != 0x80 { scalars += 1 }
                        if byte == special { escaped = true }
                    }
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
        "e": "\u{1B}", "N": "\u{85}", "_": "\u{A0}", "L": "\u{2028}", "P": "\u{2029}",
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
            guard let newline = raw.firstIndex(where: { LineBreaks.isBreak($0.scalar) && $0.scalar != "\r" }) ?? raw.firstIndex(where: { LineBreaks.isBreak($0.scalar) }) else { return [] }
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
