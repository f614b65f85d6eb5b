import JumpDiagnostics

/// What a YAML 1.1 loader (PyYAML, most CI tools) would have typed an unquoted value as.
/// jump-forms reads it as the string written, but other tools would not: the locale checks
/// flag it and suggest quoting.
public enum ScalarTrap: String, Sendable, Hashable, CaseIterable {
    case boolean, number, date, null
}

/// Maps an offset inside a message (in Unicode scalars) back to its place in the file, even
/// when the YAML scalar was quoted, escaped or written over several lines, and tells which
/// characters were written as escapes.
public struct MessageOffsetMap: Sendable, Hashable {
    /// From value offset `offset` on, scalars sit one column apart starting at `line:column`.
    public struct Breakpoint: Sendable, Hashable {
        public var offset: Int
        public var line: Int
        public var column: Int
        /// Whether the scalar at `offset` was written as an escape of a double-quoted value
        /// (`\u200B`, `\x01`, `\t`, whose backslash is at `line:column`), not as itself.
        public var isEscape: Bool

        public init(offset: Int, line: Int, column: Int, isEscape: Bool = false) {
            self.offset = offset
            self.line = line
            self.column = column
            self.isEscape = isEscape
        }
    }

    private enum Storage: Sendable {
        case linear(Breakpoint)
        case breakpoints([Breakpoint])
        case deferred(@Sendable () -> [Breakpoint])
    }

    private let storage: Storage

    /// The breakpoints, in increasing offset order (at least one).
    public var breakpoints: [Breakpoint] {
        switch storage {
        case .linear(let breakpoint): [breakpoint]
        case .breakpoints(let breakpoints): breakpoints
        case .deferred(let resolve): Self.nonEmpty(resolve())
        }
    }

    public init(breakpoints: [Breakpoint]) {
        storage = breakpoints.count == 1 ? .linear(breakpoints[0]) : .breakpoints(Self.nonEmpty(breakpoints))
    }

    private init(storage: Storage) {
        self.storage = storage
    }

    private static func nonEmpty(_ breakpoints: [Breakpoint]) -> [Breakpoint] {
        breakpoints.isEmpty ? [Breakpoint(offset: 0, line: 1, column: 1)] : breakpoints
    }

    /// A value written on one line with no escapes, starting at `line:column`.
    public static func linear(line: Int, column: Int) -> MessageOffsetMap {
        MessageOffsetMap(storage: .linear(Breakpoint(offset: 0, line: line, column: column)))
    }

    /// A map worked out only when a place inside the message is asked for (most messages never
    /// need one): `resolve` runs on every use, so it must be a pure function of its captures.
    public static func deferred(_ resolve: @escaping @Sendable () -> [Breakpoint]) -> MessageOffsetMap {
        MessageOffsetMap(storage: .deferred(resolve))
    }

    /// The offsets of the scalars written as escapes. A value written on one line without
    /// escapes (a linear map) has none, known without working anything out.
    public var escapeOffsets: Set<Int> {
        if case .linear(let only) = storage { return only.isEscape ? [only.offset] : [] }
        return Set(breakpoints.lazy.filter(\.isEscape).map(\.offset))
    }

    /// The file position of value offset `offset`.
    public func location(ofOffset offset: Int, in file: String, length: Int = 1) -> SourceLocation {
        let chosen: Breakpoint
        if case .linear(let only) = storage {
            chosen = only
        } else {
            let all = breakpoints
            var found = all[0]
            for breakpoint in all {
                if breakpoint.offset > offset { break }
                found = breakpoint
            }
            chosen = found
        }
        return SourceLocation(file: file, line: chosen.line, column: chosen.column + max(0, offset - chosen.offset), length: length)
    }

    public static func == (lhs: MessageOffsetMap, rhs: MessageOffsetMap) -> Bool { lhs.breakpoints == rhs.breakpoints }
    public func hash(into hasher: inout Hasher) { hasher.combine(breakpoints) }
}

/// A message key with its hash worked out once (FNV-1a over its UTF-8 bytes): looking one
/// key up in many catalogs hashes its text once, and a catalog's index hashes short keys
/// far more cheaply than `String`'s hashing does.
public struct MessageKey: Hashable, Sendable {
    public let text: String
    let fingerprint: UInt64

    public init(_ text: String) {
        self.text = text
        var bytes = text
        fingerprint = bytes.withUTF8 { utf8 in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }

    public static func == (lhs: MessageKey, rhs: MessageKey) -> Bool {
        lhs.fingerprint == rhs.fingerprint && lhs.text == rhs.text
    }
}

/// One message of a locale file.
///
/// Its fields live in one immutable object: the checks hand every message around (a borrowed
/// element of an array is copied to be passed on), and a copy is then one reference count,
/// not one per string, offset map and pattern. The accessors are inlinable, so reading a
/// field borrows it in place as reading a stored property would.
public struct LocaleMessage: Sendable {
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline let key: String
        @usableFromInline let text: String
        /// The file of both locations: a message's key and value are in one file.
        @usableFromInline let file: String
        let keyPlace: FilePlace
        let valuePlace: FilePlace
        @usableFromInline let offsetMap: MessageOffsetMap
        @usableFromInline let trap: ScalarTrap?
        @usableFromInline let pattern: Result<MessagePattern, MessageSyntaxError>

        init(key: String, text: String, keyLocation: SourceLocation, valueLocation: SourceLocation,
             offsetMap: MessageOffsetMap, trap: ScalarTrap?) {
            self.key = key
            self.text = text
            file = valueLocation.file
            keyPlace = FilePlace(keyLocation)
            valuePlace = FilePlace(valueLocation)
            self.offsetMap = offsetMap
            self.trap = trap
            pattern = Result { () throws(MessageSyntaxError) -> MessagePattern in try MessagePattern(parsing: text) }
        }
    }

    @usableFromInline let storage: Storage

    /// The dotted key (nested keys flattened).
    @inlinable public var key: String { storage.key }
    /// The ICU MessageFormat source.
    @inlinable public var text: String { storage.text }
    @inlinable public var offsetMap: MessageOffsetMap { storage.offsetMap }
    /// Set when the value was unquoted and a YAML 1.1 loader would not read it as a string.
    @inlinable public var trap: ScalarTrap? { storage.trap }
    /// The parsed message, or the syntax error that stopped the parser.
    @inlinable public var pattern: Result<MessagePattern, MessageSyntaxError> { storage.pattern }

    /// Where the key is (its last part, for a nested key).
    public var keyLocation: SourceLocation { storage.keyPlace.location(in: storage.file) }

    /// Where the value starts.
    public var valueLocation: SourceLocation { storage.valuePlace.location(in: storage.file) }

    public init(key: String, text: String, keyLocation: SourceLocation, valueLocation: SourceLocation,
                offsetMap: MessageOffsetMap, trap: ScalarTrap? = nil) {
        storage = Storage(key: key, text: text, keyLocation: keyLocation, valueLocation: valueLocation, offsetMap: offsetMap, trap: trap)
    }

    /// The file position of an offset inside the message.
    public func location(ofOffset offset: Int, length: Int = 1) -> SourceLocation {
        storage.offsetMap.location(ofOffset: offset, in: storage.file, length: length)
    }
}

extension LocaleMessage {
    /// The line of `keyLocation`, read without making the location.
    var keyLine: Int { Int(storage.keyPlace.line) }
}

/// A line, column and length without the file (a message holds two, one path for both).
struct FilePlace: Sendable {
    var line: UInt32
    var column: UInt32
    var length: UInt32

    init(_ location: SourceLocation) {
        line = UInt32(clamping: location.line)
        column = UInt32(clamping: location.column)
        length = UInt32(clamping: location.length)
    }

    func location(in file: String) -> SourceLocation {
        SourceLocation(file: file, line: Int(line), column: Int(column), length: Int(length))
    }
}

/// A message key written twice in a locale file (in one mapping, or flat and nested).
public struct LocaleDuplicateKey: Sendable, Hashable {
    /// The dotted key.
    public var key: String
    /// The second place, whose value was dropped.
    public var location: SourceLocation
    /// The first place, whose value is kept.
    public var firstLocation: SourceLocation

    public init(key: String, location: SourceLocation, firstLocation: SourceLocation) {
        self.key = key
        self.location = location
        self.firstLocation = firstLocation
    }
}

/// An anchor (`&name`) or alias (`*name`) written in a locale file.
public struct LocaleYAMLReference: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable { case anchor, alias }

    public var name: String
    public var kind: Kind
    public var location: SourceLocation
    /// The message key written on the same line, if any.
    public var key: String?

    public init(name: String, kind: Kind, location: SourceLocation, key: String? = nil) {
        self.name = name
        self.kind = kind
        self.location = location
        self.key = key
    }
}

/// A key of `messages` written unquoted that a YAML 1.1 loader would not read as a string
/// (`NO:` is the boolean false, `1.5:` a number, `~:` null): other tools see another key.
public struct LocaleKeyTrap: Sendable, Hashable {
    /// The dotted key up to and including the trapped part (`options.country.NO`).
    public var key: String
    /// The part as written (`NO`).
    public var written: String
    public var trap: ScalarTrap
    public var location: SourceLocation

    public init(key: String, written: String, trap: ScalarTrap, location: SourceLocation) {
        self.key = key
        self.written = written
        self.trap = trap
        self.location = location
    }
}

/// A locale file: its tag and messages in file order.
public struct LocaleCatalog: Sendable {
    public var path: String
    /// `locale:` as declared.
    public var tag: Located<LocaleTag>
    /// Keys in file order.
    public var keys: [String] { index.keys }
    /// The messages in file order, and where each key's is: iterating `allMessages` copies no
    /// message, and the index holds small values.
    private var messageList: [LocaleMessage]
    private var index: MessageIndex
    /// Where `messages:` is written (nil for catalogs built in memory).
    public var messagesLocation: SourceLocation?
    /// `sameAsSource`: keys (or `*` patterns) whose text may equal the reference locale's
    /// (brand names, words the language borrows). An addition to the locale file format.
    public var sameAsSource: [Located<String>] = []
    /// `notes`: a note for translators per key (the comments of `.strings`, String Catalogs
    /// and `strings.xml` files), kept so interchange round trips keep them.
    public var notes: [String: String] = [:]
    /// Keys the file writes twice (the loader keeps the first).
    public var duplicateKeys: [LocaleDuplicateKey] = []
    /// Anchors and aliases written in the file.
    public var yamlReferences: [LocaleYAMLReference] = []
    /// Keys under `messages` that YAML 1.1 tools would type, in file order.
    public var keyTraps: [LocaleKeyTrap] = []
    /// False when the file's `messages` could not be read (missing, misspelt, not a mapping):
    /// lint then reports none of the flow's keys as missing from it, the decode error is enough.
    public var isComplete = true

    /// Later duplicates are ignored (the loader reports them).
    public init(path: String, tag: Located<LocaleTag>, messages: [LocaleMessage]) {
        self.path = path
        self.tag = tag
        var index = MessageIndex(capacity: messages.count)
        var duplicates = false
        messages.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for position in buffer.indices where !index.insert(MessageKey((base + position).pointee.key)) {
                duplicates = true
            }
        }
        self.index = index
        if duplicates {
            var seen = Set<String>()
            self.messageList = messages.filter { seen.insert($0.key).inserted }
        } else {
            // The common case: the array is kept as it is, no message is copied.
            self.messageList = messages
        }
    }

    public subscript(key: String) -> LocaleMessage? { index.position(of: MessageKey(key)).map { messageList[$0] } }

    /// Each key's position in file order (for lookups that must not copy the catalog).
    package var keyPositions: MessageIndex { index }

    /// The position of `key`'s message in file order, if the catalog has one.
    package func position(of key: MessageKey) -> Int? { index.position(of: key) }

    /// Calls `body` with the messages in file order, without copying them.
    package func withMessages<Result>(_ body: (UnsafeBufferPointer<LocaleMessage>) -> Result) -> Result {
        messageList.withUnsafeBufferPointer(body)
    }

    /// Whether the catalog has a message for `key` (without copying it).
    public func contains(_ key: String) -> Bool { index.position(of: MessageKey(key)) != nil }

    /// Messages in file order.
    public var allMessages: [LocaleMessage] { messageList }

    /// Calls `body` with the message for `key`, if any, without copying it out of the catalog.
    public func withMessage(forKey key: String, _ body: (LocaleMessage) -> Void) {
        guard let position = index.position(of: MessageKey(key)) else { return }
        messageList.withUnsafeBufferPointer { body($0[position]) }
    }

    /// The key of the first message (in file order) whose key is written on each of `lines`
    /// that has one: where an anchor or alias is, a few lines of a large file. The messages are
    /// read in place, none is copied.
    public func firstKeys(onLines lines: Set<Int>) -> [Int: String] {
        var keys: [Int: String] = [:]
        guard let last = lines.max(), last > 0 else { return keys }
        // By line number: testing a message is one array read, not a hash.
        var wanted = [Bool](repeating: false, count: last + 1)
        for line in lines where line > 0 { wanted[line] = true }
        messageList.withUnsafeBufferPointer { messages in
            for index in messages.indices {
                let line = messages[index].keyLine
                if line <= last, wanted[line], keys[line] == nil { keys[line] = messages[index].key }
            }
        }
        return keys
    }

    /// Calls `body` with each message in file order, without copying them.
    public func forEachMessage(_ body: (LocaleMessage) -> Void) {
        messageList.withUnsafeBufferPointer { buffer in
            for position in buffer.indices { body(buffer[position]) }
        }
    }

    public var count: Int { keys.count }
}

/// A catalog's keys in file order, found by their `MessageKey` fingerprints: open addressing
/// over the fingerprints themselves (a `Dictionary` would hash each fingerprint again), with
/// the text compared only when two fingerprints agree.
package struct MessageIndex: Sendable {
    /// The keys, each at its position.
    private(set) var keys: [String] = []
    /// Positions in `keys` (-1: empty), at their fingerprint's slot or after it.
    private var slots: [Int32]
    private var fingerprints: [UInt64]

    /// An index for at most `capacity` keys (it stays at most half full).
    init(capacity: Int) {
        var size = 16
        while size < 2 * capacity { size *= 2 }
        slots = Array(repeating: -1, count: size)
        fingerprints = Array(repeating: 0, count: size)
        keys.reserveCapacity(capacity)
    }

    /// The slot holding `key`, or the empty slot where it belongs.
    private func slot(of key: MessageKey) -> Int {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: key.fingerprint) & mask
        while slots[slot] >= 0 {
            if fingerprints[slot] == key.fingerprint, keys[Int(slots[slot])] == key.text { return slot }
            slot = (slot + 1) & mask
        }
        return slot
    }

    package func position(of key: MessageKey) -> Int? {
        let position = slots[slot(of: key)]
        return position >= 0 ? Int(position) : nil
    }

    /// Adds `key` at the next position; false, and nothing added, when it is there already.
    mutating func insert(_ key: MessageKey) -> Bool {
        precondition(2 * (keys.count + 1) <= slots.count, "more keys than the index was made for")
        let slot = slot(of: key)
        guard slots[slot] < 0 else { return false }
        slots[slot] = Int32(keys.count)
        fingerprints[slot] = key.fingerprint
        keys.append(key.text)
        return true
    }
}
