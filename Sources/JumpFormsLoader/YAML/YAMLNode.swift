import JumpForms

/// A position in a YAML file, 1-based, columns in Unicode scalars (as libyaml counts them).
public struct YAMLMark: Sendable, Hashable, Comparable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: YAMLMark, rhs: YAMLMark) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }
}

/// How a scalar was written.
public enum YAMLScalarStyle: Sendable, Hashable {
    case plain, singleQuoted, doubleQuoted, literal, folded
}

/// A scalar with its value as written (never typed by YAML: the decoders type it).
public struct YAMLScalar: Sendable, Hashable {
    public var value: String
    public var style: YAMLScalarStyle
    /// The explicit tag (`!!str` is the only one accepted).
    public var tag: String?
    public var start: YAMLMark
    public var end: YAMLMark

    /// A plain scalar that YAML reads as null: empty, `~`, `null`, `Null`, `NULL`.
    public var isNull: Bool {
        guard style == .plain, tag == nil else { return false }
        switch value {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }

    /// How many columns the scalar spans on its first line (for caret underlines).
    public var width: Int {
        end.line == start.line ? max(1, end.column - start.column) : 1
    }
}

/// Identifies a node of a `YAMLTree`: a scalar (index >= 0) or a collection (index < 0).
struct YAMLNodeID: Sendable, Hashable {
    var raw: Int32

    static func scalar(_ index: Int) -> YAMLNodeID { YAMLNodeID(raw: Int32(index)) }
    static func collection(_ index: Int) -> YAMLNodeID { YAMLNodeID(raw: ~Int32(index)) }
}

/// The nodes of one document, stored flat: scalars, collections, and the children of every
/// collection in one array (a sequence's items; a mapping's key and value, pair by pair).
/// Building and freeing it costs a few arrays, not one allocation per node.
final class YAMLTree: Sendable {
    struct Collection: Sendable {
        var isMapping: Bool
        var start: YAMLMark
        var end: YAMLMark
        /// Where the children start in `children`, and how many there are.
        var first: Int
        var count: Int
    }

    let scalars: [YAMLScalar]
    let collections: [Collection]
    let children: [YAMLNodeID]

    init(scalars: [YAMLScalar], collections: [Collection], children: [YAMLNodeID]) {
        self.scalars = scalars
        self.collections = collections
        self.children = children
    }

    func node(_ id: YAMLNodeID) -> YAMLNode {
        if id.raw >= 0 { return .scalar(scalars[Int(id.raw)]) }
        let index = Int(~id.raw)
        let collection = collections[index]
        return collection.isMapping
            ? .mapping(YAMLMapping(tree: self, index: index, start: collection.start, end: collection.end))
            : .sequence(YAMLSequence(tree: self, index: index, start: collection.start, end: collection.end))
    }
}

/// A sequence and its items. Two sequences are equal when they are the same node of the same
/// document (an alias and its anchor's node are).
public struct YAMLSequence: Sendable, Equatable {
    let tree: YAMLTree
    let index: Int
    public var start: YAMLMark
    public var end: YAMLMark

    /// The items in file order.
    public var items: Items { Items(tree: tree, collection: tree.collections[index]) }

    public struct Items: RandomAccessCollection, Sendable {
        let tree: YAMLTree
        let collection: YAMLTree.Collection

        public var startIndex: Int { 0 }
        public var endIndex: Int { collection.count }
        public subscript(position: Int) -> YAMLNode { tree.node(tree.children[collection.first + position]) }
    }

    public static func == (lhs: YAMLSequence, rhs: YAMLSequence) -> Bool { lhs.tree === rhs.tree && lhs.index == rhs.index }
}

/// A mapping: its entries in file order. Keys are scalars (the reader refuses other keys) and
/// unique (the reader reports duplicates and keeps the first).
/// Two mappings are equal when they are the same node of the same document.
public struct YAMLMapping: Sendable, Equatable {
    public struct Entry: Sendable, Equatable {
        public var key: YAMLScalar
        public var value: YAMLNode
    }

    let tree: YAMLTree
    let index: Int
    public var start: YAMLMark
    public var end: YAMLMark

    /// The entries in file order.
    public var entries: Entries { Entries(tree: tree, collection: tree.collections[index]) }

    public struct Entries: RandomAccessCollection, Sendable {
        let tree: YAMLTree
        let collection: YAMLTree.Collection

        public var startIndex: Int { 0 }
        public var endIndex: Int { collection.count / 2 }
        public subscript(position: Int) -> Entry {
            let at = collection.first + 2 * position
            return Entry(key: tree.scalars[Int(tree.children[at].raw)], value: tree.node(tree.children[at + 1]))
        }
    }

    public static func == (lhs: YAMLMapping, rhs: YAMLMapping) -> Bool { lhs.tree === rhs.tree && lhs.index == rhs.index }
}

/// A located YAML node. Aliases are resolved to the node their anchor names (shared, not
/// copied); the document keeps where anchors and aliases were written.
public enum YAMLNode: Sendable, Equatable {
    case scalar(YAMLScalar)
    case sequence(YAMLSequence)
    case mapping(YAMLMapping)

    public var start: YAMLMark {
        switch self {
        case .scalar(let scalar): scalar.start
        case .sequence(let sequence): sequence.start
        case .mapping(let mapping): mapping.start
        }
    }

    /// "a mapping", "a sequence", "a string", "null": for messages.
    public var kindDescription: String {
        switch self {
        case .scalar(let scalar): scalar.isNull ? "nothing (null)" : "a scalar ('\(scalar.value.prefix(40))')"
        case .sequence: "a sequence"
        case .mapping: "a mapping"
        }
    }
}

/// A parsed file: its root node and where anchors and aliases appear.
public struct YAMLDocument: Sendable {
    public struct Marker: Sendable, Hashable {
        public var name: String
        public var mark: YAMLMark
    }

    public var path: String
    public var root: YAMLNode
    public var anchors: [Marker]
    public var aliases: [Marker]
    /// How many scalars the file has (keys included), for sizing what is decoded from it.
    var scalarCount = 0

    /// The location of a mark in this document.
    public func location(_ mark: YAMLMark, length: Int = 1) -> SourceLocation {
        SourceLocation(file: path, line: mark.line, column: mark.column, length: length)
    }
}

/// Limits that keep hostile or broken files from exhausting time or memory.
public struct LoaderLimits: Sendable, Hashable {
    /// Files larger than this are refused before parsing (default 8 MiB).
    public var maximumFileSize: Int
    /// Deepest nesting of sequences and mappings (default 100).
    public var maximumDepth: Int
    /// Most nodes aliases may add by expansion, counted without expanding (default 100,000).
    public var maximumAliasExpansion: Int

    public init(maximumFileSize: Int = 8 << 20, maximumDepth: Int = 100, maximumAliasExpansion: Int = 100_000) {
        self.maximumFileSize = maximumFileSize
        self.maximumDepth = maximumDepth
        self.maximumAliasExpansion = maximumAliasExpansion
    }

    public static let `default` = LoaderLimits()
}
