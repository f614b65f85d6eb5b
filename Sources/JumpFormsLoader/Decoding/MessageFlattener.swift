import JumpForms

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
            source.align(
                YAMLScalar(
                    value: text, style: SourceText.style(style), tag: nil,
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

    /// An entry of the tree whose value is a scalar: a message.
    mutating func message(_ value: YAMLScalar, key: YAMLScalar) {
        var text = value.value
        text.withUTF8 { utf8 in
            message(YAMLScalarEvent(value: utf8, style: value.style, tag: value.tag, start: value.start, end: value.end), key: key)
        }
    }

    /// An entry whose value is a scalar: a message (its text kept as bytes, never a string).
    mutating func message(_ value: YAMLScalarEvent, key: YAMLScalar) {
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
            messages.append(
                keyPrefix: prefix, keyPart: key.value, keyOffset: keyOffset, textUTF8: value.value, textOffset: textOffset,
                keyLocation: (key.start.line, key.start.column, key.width),
                valueLocation: (value.start.line, value.start.column, value.width),
                offsets: offsets, trap: value.style == .plain && value.tag == nil ? ScalarTrap.of(plainUTF8: value.value) : nil)
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
        errors.append(
            .wrongNodeKind(
                SourceLocation(file: path, line: start.line, column: start.column), expected: "a string or a mapping of messages",
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
