import JumpForms

/// Decodes a locale file: `locale` and `messages` (flat dotted keys or nested maps), keeping
/// for every message where its key and each character of its value are in the file.
///
/// `LocaleDecoder.read` decodes `messages` while libyaml reads the file (no node tree for
/// them); `decode` then reads the few top-level keys from the small tree kept of the rest.
struct LocaleDecoder {
    enum LocaleKey: String, CaseIterable { case locale, messages, sameAsSource, notes }

    /// What each key holds (the decoder below and `FormatSchema` read these). `messages` and
    /// `notes` are mappings of texts or nested mappings, flattened to dotted keys.
    static func spec(_ key: LocaleKey) -> KeySpec {
        switch key {
        case .locale: .text(required: true)
        case .messages: KeySpec(value: .named("messages"), required: true)
        case .sameAsSource: KeySpec(value: .list(.text))
        case .notes: KeySpec(value: .named("messages"))
        }
    }

    var decoder: NodeDecoder
    /// The messages, read as the file was read or walked from the tree by `decode`.
    private var flattener: MessageFlattener
    /// Whether `flattener` already holds the messages of the file's `messages` mapping.
    private let streamed: Bool

    /// A decoder of a file read by `read` (`streamed`: its messages already decoded), or of
    /// any tree of `bytes`; `readerDuplicates` are then the keys the YAML reader found twice in
    /// one mapping (where, and where the kept one is).
    init(
        path: String, bytes: [UInt8], streamed: MessageFlattener?,
        readerDuplicates: [(location: SourceLocation, first: SourceLocation)] = []
    ) {
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
