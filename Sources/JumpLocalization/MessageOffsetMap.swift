import JumpDiagnostics

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

    /// The one breakpoint of a map made with `linear(line:column:)` (or one breakpoint).
    var linearStart: Breakpoint? {
        if case .linear(let only) = storage { return only }
        return nil
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
