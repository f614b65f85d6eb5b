import JumpDiagnostics

/// A locale file: its tag and messages in file order.
public struct LocaleCatalog: Sendable {
    public var path: String
    /// `locale:` as declared.
    public var tag: Located<LocaleTag>
    /// Keys in file order.
    public var keys: [String] { (0..<store.list.count).map { store.list.key(at: $0) } }
    /// The messages in file order, and where each key's is.
    private let store: LocaleMessageStore
    private let index: MessageIndex
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
        var list = LocaleMessageList(file: messages.first?.store.list.file ?? path)
        for message in messages { list.append(message) }
        self.init(path: path, tag: tag, messageList: list)
    }

    /// A catalog of the messages of `messageList`; later duplicates are ignored (the loader
    /// reports them).
    public init(path: String, tag: Located<LocaleTag>, messageList: LocaleMessageList) {
        self.path = path
        self.tag = tag
        var store = LocaleMessageStore(messageList)
        var index = MessageIndex(store: store)
        if index.count != messageList.count {
            // Keys written twice: the list keeps the first of each.
            store = LocaleMessageStore(messageList.selecting(index.firstPositions))
            index = MessageIndex(store: store)
        }
        self.store = store
        self.index = index
    }

    /// The message at `position` in file order.
    package func message(at position: Int) -> LocaleMessage { LocaleMessage(store: store, position: position) }

    public subscript(key: String) -> LocaleMessage? { index.position(of: MessageKey(key)).map(message(at:)) }

    /// Each key's position in file order (for lookups that must not copy the catalog).
    package var keyPositions: MessageIndex { index }

    /// The position of `key`'s message in file order, if the catalog has one.
    package func position(of key: MessageKey) -> Int? { index.position(of: key) }

    /// Calls `body` with the messages in file order.
    package func withMessages<Result>(_ body: (UnsafeBufferPointer<LocaleMessage>) -> Result) -> Result {
        allMessages.withUnsafeBufferPointer(body)
    }

    /// Whether the key of the message at `position` is `key`, as `keys[position] == key` says,
    /// without making the catalog's key a string: the bytes are compared, and only keys that
    /// differ in non-ASCII bytes (which may still be canonically equivalent) as strings.
    package func key(at position: Int, is key: String) -> Bool {
        var key = key
        return key.withUTF8 { utf8 in
            store.list.withKeyBytes(at: position) { own in
                if MessageIndex.bytesEqual(own, utf8) { return true }
                if own.allSatisfy({ $0 < 0x80 }) && utf8.allSatisfy({ $0 < 0x80 }) { return false }
                return String(decoding: own, as: UTF8.self) == String(decoding: utf8, as: UTF8.self)
            }
        }
    }

    /// Whether the catalog has a message for `key`.
    public func contains(_ key: String) -> Bool { index.position(of: MessageKey(key)) != nil }

    /// Messages in file order.
    public var allMessages: [LocaleMessage] { (0..<store.list.count).map(message(at:)) }

    /// Calls `body` with the message for `key`, if any.
    public func withMessage(forKey key: String, _ body: (LocaleMessage) -> Void) {
        guard let position = index.position(of: MessageKey(key)) else { return }
        body(message(at: position))
    }

    /// The key of the first message (in file order) whose key is written on each of `lines`
    /// that has one: where an anchor or alias is, a few lines of a large file.
    public func firstKeys(onLines lines: Set<Int>) -> [Int: String] {
        var keys: [Int: String] = [:]
        guard let last = lines.max(), last > 0 else { return keys }
        // By line number: testing a message is one array read, not a hash.
        var wanted = [Bool](repeating: false, count: last + 1)
        for line in lines where line > 0 { wanted[line] = true }
        let list = store.list
        for position in list.records.indices {
            let line = Int(list.records[position].keyLine)
            if line <= last, wanted[line], keys[line] == nil { keys[line] = list.key(at: position) }
        }
        return keys
    }

    /// Calls `body` with each message in file order.
    public func forEachMessage(_ body: (LocaleMessage) -> Void) {
        for position in 0..<store.list.count { body(message(at: position)) }
    }

    public var count: Int { store.list.count }
}

/// A catalog's keys in file order, found by their `MessageKey` fingerprints: open addressing
/// over the fingerprints' low 32 bits and the positions, packed in one word per slot, with the
/// key bytes compared only when those agree.
package struct MessageIndex: Sendable {
    private let store: LocaleMessageStore
    /// Per slot: the position + 1 in the low 32 bits (0: empty), the fingerprint's low 32
    /// bits in the high ones.
    private var slots: [UInt64]
    /// How many distinct keys the index holds.
    private(set) var count = 0
    /// The position of the first message of each distinct key, in file order.
    private(set) var firstPositions: [Int] = []

    /// The index of the keys of `store`'s list; a key written again keeps its first position.
    init(store: LocaleMessageStore) {
        self.store = store
        let capacity = store.list.count
        var size = 16
        while size < 2 * capacity { size *= 2 }
        slots = Array(repeating: 0, count: size)
        var duplicates = false
        for position in 0..<capacity {
            let fingerprint = store.list.withKeyBytes(at: position) { MessageKey.fingerprint(of: $0) }
            let free = store.list.withKeyBytes(at: position) { slot(of: $0, fingerprint: fingerprint) }
            if slots[free] != 0 {
                duplicates = true
                continue
            }
            slots[free] = UInt64(position + 1) | (fingerprint << 32)
            count += 1
        }
        if duplicates {
            firstPositions = slots.lazy.filter { $0 != 0 }.map { Int($0 & 0xFFFF_FFFF) - 1 }.sorted()
        }
    }

    /// The slot holding the key `utf8`, or the empty slot where it belongs.
    private func slot(of utf8: UnsafeBufferPointer<UInt8>, fingerprint: UInt64) -> Int {
        let mask = slots.count - 1
        let high = fingerprint << 32
        var slot = Int(truncatingIfNeeded: fingerprint) & mask
        while slots[slot] != 0 {
            let entry = slots[slot]
            if entry & 0xFFFF_FFFF_0000_0000 == high,
                store.list.withKeyBytes(at: Int(entry & 0xFFFF_FFFF) - 1, { Self.bytesEqual($0, utf8) })
            {
                return slot
            }
            slot = (slot + 1) & mask
        }
        return slot
    }

    /// Whether two byte ranges are equal, compared a word at a time (`elementsEqual` goes
    /// byte by byte through iterators: ~750 instructions for a 25-byte key, 1.3 G of lint's
    /// 7.7 G on the long-message corpus).
    @inline(__always)
    static func bytesEqual(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let left = a.baseAddress, let right = b.baseAddress else { return true }
        let (left8, right8) = (UnsafeRawPointer(left), UnsafeRawPointer(right))
        var index = 0
        while index + 8 <= a.count {
            if left8.loadUnaligned(fromByteOffset: index, as: UInt64.self) != right8.loadUnaligned(fromByteOffset: index, as: UInt64.self) {
                return false
            }
            index += 8
        }
        while index < a.count {
            if left[index] != right[index] { return false }
            index += 1
        }
        return true
    }

    package func position(of key: MessageKey) -> Int? {
        var text = key.text
        let entry = text.withUTF8 { slots[slot(of: $0, fingerprint: key.fingerprint)] }
        return entry != 0 ? Int(entry & 0xFFFF_FFFF) - 1 : nil
    }
}
