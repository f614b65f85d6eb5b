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

/// A sequence and its items.
public struct YAMLSequence: Sendable, Hashable {
    public var items: [YAMLNode]
    public var start: YAMLMark
    public var end: YAMLMark
}

/// A mapping: its entries in file order. Keys are scalars (the reader refuses other keys) and
/// unique (the reader reports duplicates and keeps the first).
public struct YAMLMapping: Sendable, Hashable {
    public struct Entry: Sendable, Hashable {
        public var key: YAMLScalar
        public var value: YAMLNode
    }

    public var entries: [Entry]
    public var start: YAMLMark
    public var end: YAMLMark
}

/// A located YAML node. Aliases are resolved to the node their anchor names (shared, not
/// copied); the document keeps where anchors and aliases were written.
public indirect enum YAMLNode: Sendable, Hashable {
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
