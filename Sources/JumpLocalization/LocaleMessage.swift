import JumpDiagnostics

/// A message key with its hash worked out once (FNV-1a over its UTF-8 bytes): looking one
/// key up in many catalogs hashes its text once, and a catalog's index hashes short keys
/// far more cheaply than `String`'s hashing does.
public struct MessageKey: Hashable, Sendable {
    public let text: String
    let fingerprint: UInt64

    public init(_ text: String) {
        self.text = text
        var bytes = text
        fingerprint = bytes.withUTF8 { Self.fingerprint(of: $0) }
    }

    /// FNV-1a over `utf8`.
    static func fingerprint(of utf8: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return hash
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(fingerprint) }

    public static func == (lhs: MessageKey, rhs: MessageKey) -> Bool {
        lhs.fingerprint == rhs.fingerprint && lhs.text == rhs.text
    }
}

/// One message of a locale file: a position in its file's `LocaleMessageList`, whose fields
/// are made when read (a copy of a message is one reference count).
public struct LocaleMessage: Sendable {
    let store: LocaleMessageStore
    let position: Int

    init(store: LocaleMessageStore, position: Int) {
        self.store = store
        self.position = position
    }

    /// A message of its own (not read from a file's list).
    public init(
        key: String, text: String, keyLocation: SourceLocation, valueLocation: SourceLocation,
        offsetMap: MessageOffsetMap, trap: ScalarTrap? = nil
    ) {
        var list = LocaleMessageList(file: valueLocation.file)
        list.append(
            keyPrefix: UnsafeBufferPointer(start: nil, count: 0), keyPart: key, text: text,
            keyLocation: (keyLocation.line, keyLocation.column, keyLocation.length),
            valueLocation: (valueLocation.line, valueLocation.column, valueLocation.length),
            offsets: .map(offsetMap), trap: trap)
        self.init(store: LocaleMessageStore(list), position: 0)
    }

    var record: LocaleMessageList.Record { store.list.records[position] }

    /// The dotted key (nested keys flattened).
    public var key: String { store.list.key(at: position) }

    /// The ICU MessageFormat source.
    public var text: String {
        store.list.text(at: position)
    }

    /// Where each character of the value is in the file.
    public var offsetMap: MessageOffsetMap {
        let record = record
        switch record.offsets {
        case .linear:
            return .linear(line: Int(record.mapLine), column: Int(record.mapColumn))
        case .map:
            return store.list.maps[Int32(position)] ?? .linear(line: Int(record.valueLine), column: Int(record.valueColumn))
        case .resolved:
            guard let resolver = store.list.resolver else { return .linear(line: Int(record.valueLine), column: Int(record.valueColumn)) }
            let text = text
            return .deferred {
                resolver(text, (Int(record.valueLine), Int(record.valueColumn)), (Int(record.mapLine), Int(record.mapColumn)), record.style)
            }
        }
    }

    /// Set when the value was unquoted and a YAML 1.1 loader would not read it as a string.
    public var trap: ScalarTrap? {
        let trap = record.trap
        return trap == 0 ? nil : ScalarTrap.allCases[Int(trap) - 1]
    }

    /// Whether the text has no `{`, `}` or `'`: plain text, which parses as itself and uses no
    /// argument (found from the bytes, without making the text).
    package var isPlainText: Bool {
        let record = record
        return !store.list.withBytes(record.textStart, record.textCount) { MessageParser.containsBraceOrApostrophe($0) }
    }

    /// The parsed message, or the syntax error that stopped the parser (parsed on each use:
    /// most messages are plain text, found as such without building anything).
    public var pattern: Result<MessagePattern, MessageSyntaxError> { MessagePattern.parse(text) }

    /// The arguments the message uses, or its syntax error, parsed from its bytes in place
    /// without building the tree (`MessagePattern.argumentUses(ofUTF8:)`).
    package var argumentUses: Result<[MessageArgumentUse], MessageSyntaxError> {
        let record = record
        return store.list.withBytes(record.textStart, record.textCount) { MessagePattern.argumentUses(ofUTF8: $0) }
    }

    /// Where the key is (its last part, for a nested key).
    public var keyLocation: SourceLocation { store.list.keyLocation(at: position) }

    /// Where the value starts.
    public var valueLocation: SourceLocation {
        let record = record
        return SourceLocation(
            file: store.list.file(at: position), line: Int(record.valueLine), column: Int(record.valueColumn), length: Int(record.valueLength))
    }

    /// The file position of an offset inside the message.
    public func location(ofOffset offset: Int, length: Int = 1) -> SourceLocation {
        let record = record
        if record.offsets == .linear {
            return SourceLocation(
                file: store.list.file(at: position), line: Int(record.mapLine), column: Int(record.mapColumn) + max(0, offset), length: length)
        }
        return offsetMap.location(ofOffset: offset, in: store.list.file(at: position), length: length)
    }

    /// The line of `keyLocation`, read without making the location.
    var keyLine: Int { Int(record.keyLine) }
}
