import JumpForms

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

    mutating func scalar(_ scalar: YAMLScalarEvent, at place: YAMLPlace, anchored: Bool) -> YAMLNodeID? {
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
