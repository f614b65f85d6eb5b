#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import CYAML
import JumpForms

/// What reading one file produced: the document (when there is one to decode) and every
/// diagnostic of the read and compose phases.
public struct YAMLReadResult: Sendable {
    public var document: YAMLDocument?
    public var readErrors: [ReadError]
    public var composeErrors: [ComposeError]

    public var diagnostics: [Diagnostic] {
        readErrors.map(\.diagnostic) + composeErrors.map(\.diagnostic)
    }
}

/// Reads YAML bytes with the system libyaml, event by event, into a located node tree.
///
/// Checks that are cheap at this level happen here: size, encoding, BOM, tabs in indentation,
/// one document per file, nesting depth, an alias expansion budget (counted, never expanded),
/// scalar-only keys, duplicate keys and tags.
public enum YAMLReader {
    public static func read(_ bytes: [UInt8], path: String, limits: LoaderLimits = .default) -> YAMLReadResult {
        read(bytes, path: path, limits: limits, into: YAMLTreeBuilder(expectedSize: bytes.count)).result
    }

    /// Reads the bytes, handing each node to `sink` as it is composed; the result's document
    /// is what the sink kept as a tree. Returns the sink with what it received.
    static func read<Sink: YAMLNodeSink>(
        _ bytes: [UInt8], path: String, limits: LoaderLimits,
        into sink: consuming Sink
    ) -> (result: YAMLReadResult, sink: Sink) {
        let tabs: [LeadingTab]
        switch precheck(bytes, path: path, limits: limits) {
        case .refused(let errors):
            return (YAMLReadResult(document: nil, readErrors: errors, composeErrors: []), sink)
        case .passed(let leadingTabs):
            tabs = leadingTabs
        }
        // A tab at the start of a line is indentation, which YAML forbids, unless it is inside
        // a scalar (a block scalar's line after its indentation, a quoted or plain scalar's
        // continuation) or a flow collection: libyaml's marks say where those are.
        if !tabs.isEmpty {
            let scan = TabScan.scan(among: tabs, in: bytes)
            if !scan.indentation.isEmpty {
                return (YAMLReadResult(document: nil, readErrors: scan.indentation.map(ReadError.tabIndentation), composeErrors: []), sink)
            }
            if let readable = scan.readable {
                // Tabs on blank and comment lines, which YAML allows and libyaml does not: it
                // reads them as spaces (the same length, so every place stays where it is).
                var composer = Composer(path: path, limits: limits, sink: sink)
                readable.withUnsafeBufferPointer { buffer in
                    composer.run(buffer)
                }
                return (composer.result(), composer.sink)
            }
        }
        var composer = Composer(path: path, limits: limits, sink: sink)
        bytes.withUnsafeBufferPointer { buffer in
            composer.run(buffer)
        }
        // libyaml decodes and validates every byte it reads, so a file it parsed to the end is
        // valid UTF-8; only a run that stopped early may have left bad bytes unread, and then
        // they are the problem to report (as a check before parsing would have).
        if !composer.readErrors.isEmpty || composer.aborted, let offset = firstInvalidUTF8(bytes) {
            return (
                YAMLReadResult(
                    document: nil, readErrors: [.invalidUTF8(location(ofByte: offset, in: bytes, path: path), byte: bytes[offset])],
                    composeErrors: []), composer.sink
            )
        }
        return (composer.result(), composer.sink)
    }

    // MARK: - Byte-level checks

    /// Whether the bytes start with a UTF-16 or UTF-32 byte-order mark (text not worth quoting).
    public static func startsWithUTF16or32ByteOrderMark(_ bytes: [UInt8]) -> Bool {
        bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF])
    }

    /// What the checks before parsing found: errors that stop the read, or the tabs among the
    /// leading whitespace of lines (for `TabScan` to tell indentation from content).
    enum Precheck {
        case refused([ReadError])
        case passed(leadingTabs: [LeadingTab])
    }

    static func precheck(_ bytes: [UInt8], path: String, limits: LoaderLimits) -> Precheck {
        if bytes.count > limits.maximumFileSize {
            return .refused([.tooLarge(path: path, size: bytes.count, limit: limits.maximumFileSize)])
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return .refused([.byteOrderMark(path: path, encoding: "UTF-8")]) }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            return .refused([.byteOrderMark(path: path, encoding: "UTF-32")])
        }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) {
            return .refused([.byteOrderMark(path: path, encoding: "UTF-16")])
        }
        // Valid UTF-8 is checked after parsing (see `read`), except before reporting tabs.
        if !bytes.contains(where: { $0 != 0x20 && $0 != 0x0A && $0 != 0x0D && $0 != 0x09 }) {
            return .refused([.empty(path: path)])
        }
        let hasTab = bytes.withUnsafeBufferPointer { buffer in buffer.baseAddress.map { memchr($0, 0x09, buffer.count) != nil } ?? false }
        if hasTab {
            if let offset = firstInvalidUTF8(bytes) {
                return .refused([.invalidUTF8(location(ofByte: offset, in: bytes, path: path), byte: bytes[offset])])
            }
            return .passed(leadingTabs: tabIndentations(bytes, path: path))
        }
        return .passed(leadingTabs: [])
    }

    /// The offset of the first byte that breaks UTF-8, or nil when the bytes are valid.
    static func firstInvalidUTF8(_ bytes: [UInt8]) -> Int? {
        if String(validating: bytes, as: UTF8.self) != nil { return nil }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let length: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch byte {
            case 0x00...0x7F: index += 1; continue
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; upper = 0x9F
            case 0xF0: length = 4; lower = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; upper = 0x8F
            default: return index
            }
            for continuation in 1..<length {
                guard index + continuation < bytes.count else { return index }
                let next = bytes[index + continuation]
                let (low, high) = continuation == 1 ? (lower, upper) : (UInt8(0x80), UInt8(0xBF))
                guard next >= low, next <= high else { return index }
            }
            index += length
        }
        return nil
    }

    /// Line and column (in scalars) of a byte offset; bytes before it are valid UTF-8.
    static func location(ofByte offset: Int, in bytes: [UInt8], path: String) -> SourceLocation {
        var line = 1
        var column = 1
        var index = 0
        while index < offset {
            let breakLength = LineBreaks.length(in: bytes, at: index)
            if breakLength > 0 {
                line += 1
                column = 1
                index += breakLength
                continue
            }
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return SourceLocation(file: path, line: line, column: column)
    }

    /// The first tab among the leading whitespace of each line that has one (indentation,
    /// unless `TabScan` finds it inside a scalar or a flow collection), and its byte offset.
    static func tabIndentations(_ bytes: [UInt8], path: String) -> [LeadingTab] {
        var result: [LeadingTab] = []
        var line = 1
        var column = 1
        var inIndentation = true
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            let breakLength = LineBreaks.length(in: bytes, at: index)
            if breakLength > 0 {
                line += 1
                column = 1
                inIndentation = true
                index += breakLength
                continue
            }
            if inIndentation {
                if byte == 0x09 {
                    result.append(LeadingTab(location: SourceLocation(file: path, line: line, column: column), offset: index))
                    inIndentation = false
                } else if byte != 0x20 {
                    inIndentation = false
                }
            }
            index += 1
            if byte & 0xC0 != 0x80 { column += 1 }
        }
        return result
    }
}

/// A tab among the leading whitespace of a line.
struct LeadingTab {
    var location: SourceLocation
    var offset: Int
}

/// Tells the tabs at the start of lines that are indentation (which YAML forbids) from those
/// that are content: a tab inside a scalar (a block scalar's line after its indentation, a
/// quoted or plain scalar's continuation line) or inside a flow collection is content.
/// libyaml's event marks say where scalars and flow collections are; where libyaml stops at a
/// tab that is indentation, the tab is set to a space and the scan goes on, so that every such
/// tab is found, not only the first.
enum TabScan {
    /// How many times a file is parsed at most (once, unless libyaml stops at a tab).
    static let maximumRounds = 16

    /// What the scan found: the tabs that are indentation, and when tabs start blank or
    /// comment lines (allowed by YAML, refused by libyaml), the bytes with those set to spaces.
    struct Result {
        var indentation: [SourceLocation] = []
        var readable: [UInt8]?
    }

    /// The tabs of `tabs` (in file order) that are indentation.
    static func indentation(among tabs: [LeadingTab], in original: [UInt8]) -> [SourceLocation] {
        scan(among: tabs, in: original).indentation
    }

    /// Whether the line of the tab at `offset` holds only whitespace, or a comment after it.
    static func isBlankOrComment(_ bytes: [UInt8], from offset: Int) -> Bool {
        var index = offset
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        return index == bytes.count || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == UInt8(ascii: "#")
    }

    static func scan(among tabs: [LeadingTab], in original: [UInt8]) -> Result {
        var bytes = original
        var result: [SourceLocation] = []
        var blankLines = false
        var next = 0
        var rounds = 0
        // Each round either ends the scan or passes at least one tab.
        while next < tabs.count {
            rounds += 1
            guard rounds <= maximumRounds else {
                // A file indented with tabs throughout: the rest are taken as indentation,
                // rather than parsing the file once per line.
                result += tabs[next...].filter { !isBlankOrComment(bytes, from: $0.offset) }.map(\.location)
                break
            }
            let (spans, stop) = bytes.withUnsafeBufferPointer { contentSpans($0) }
            var index = 0
            var reach = YAMLMark(line: 0, column: 0)
            var stoppedAtTab = false
            while next < tabs.count {
                let tab = tabs[next]
                let mark = YAMLMark(line: tab.location.line, column: tab.location.column)
                // Past a syntax error nothing is known; the tab it is at (or on the line of)
                // is its likely cause.
                if let stop, stop < mark, stop.line != mark.line { break }
                while index < spans.count, spans[index].start < mark {
                    reach = max(reach, spans[index].end)
                    index += 1
                }
                if !(mark < reach) {
                    if isBlankOrComment(bytes, from: tab.offset) {
                        // Not indentation: the line's leading tabs become spaces for libyaml.
                        var index = tab.offset
                        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { bytes[index] = 0x20; index += 1 }
                        blankLines = true
                    } else {
                        result.append(tab.location)
                        bytes[tab.offset] = 0x20
                    }
                    if let stop, stop.line == mark.line { stoppedAtTab = true }
                }
                next += 1
                if stoppedAtTab { break }
            }
            if stop == nil || !stoppedAtTab { break }
        }
        return Result(indentation: result, readable: result.isEmpty && blankLines ? bytes : nil)
    }

    /// Where scalars and flow collections start and end (sorted by start), and where libyaml
    /// stopped with an error (nil when it read to the end).
    static func contentSpans(_ buffer: UnsafeBufferPointer<UInt8>) -> ([(start: YAMLMark, end: YAMLMark)], YAMLMark?) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { return ([], YAMLMark(line: 0, column: 0)) }
        defer { yaml_parser_delete(&parser) }
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        func mark(_ mark: yaml_mark_t) -> YAMLMark { YAMLMark(line: Int(mark.line) + 1, column: Int(mark.column) + 1) }
        var spans: [(start: YAMLMark, end: YAMLMark)] = []
        var openFlows: [YAMLMark?] = []
        var event = yaml_event_t()
        while true {
            guard yaml_parser_parse(&parser, &event) == 1 else {
                return (spans.sorted { $0.start < $1.start }, mark(parser.problem_mark))
            }
            defer { yaml_event_delete(&event) }
            switch event.type {
            case YAML_SCALAR_EVENT:
                spans.append((mark(event.start_mark), mark(event.end_mark)))
            case YAML_SEQUENCE_START_EVENT:
                openFlows.append(event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE ? mark(event.start_mark) : nil)
            case YAML_MAPPING_START_EVENT:
                openFlows.append(event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE ? mark(event.start_mark) : nil)
            case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
                if let start = openFlows.popLast() ?? nil { spans.append((start, mark(event.end_mark))) }
            case YAML_STREAM_END_EVENT:
                return (spans.sorted { $0.start < $1.start }, nil)
            default:
                break
            }
        }
    }
}

// MARK: - Composer

/// Where a composed node goes: the document's root, an item of a sequence, the value of a
/// mapping key, or nowhere (the value of a dropped key; a node only an anchor names).
enum YAMLPlace {
    case root, item
    case value(key: YAMLScalar)
    case dropped
}

/// A scalar as libyaml reports it: its value is libyaml's UTF-8 bytes, valid only while a sink
/// handles it. A sink that keeps the scalar makes it a `YAMLScalar` (its value a string); the
/// locale decoder keeps a message's text as bytes (most as a range of the file's).
struct YAMLScalarEvent {
    var value: UnsafeBufferPointer<UInt8>
    var style: YAMLScalarStyle
    var tag: String?
    var start: YAMLMark
    var end: YAMLMark

    /// The scalar, its value made a string.
    var scalar: YAMLScalar {
        YAMLScalar(value: String(decoding: value, as: UTF8.self), style: style, tag: tag, start: start, end: end)
    }

    /// How many columns the scalar spans on its first line (`YAMLScalar.width`).
    var width: Int {
        end.line == start.line ? max(1, end.column - start.column) : 1
    }
}

/// Receives the nodes the composer accepted, in file order: what the YAML means once bad
/// keys, duplicate keys and tags are reported and dropped. `YAMLTreeBuilder` keeps them as a
/// tree; the locale decoder turns `messages` into messages as they arrive.
protocol YAMLNodeSink {
    /// What an anchor names (the node an alias stands for).
    associatedtype Anchor

    /// A scalar; returns what an anchor on it names when `anchored`.
    mutating func scalar(_ scalar: YAMLScalarEvent, at place: YAMLPlace, anchored: Bool) -> Anchor?
    mutating func startCollection(isMapping: Bool, start: YAMLMark, at place: YAMLPlace, anchored: Bool)
    /// The end of the innermost collection; returns what an anchor on it names when it had one.
    mutating func endCollection(end: YAMLMark) -> Anchor?
    /// An alias of a node seen before.
    mutating func alias(_ target: Anchor, at place: YAMLPlace)
    /// A key the innermost mapping already has (reported, its value dropped).
    mutating func duplicateKey(_ key: YAMLScalar, at location: SourceLocation, first: SourceLocation)
    /// The tree of what was kept.
    var tree: YAMLTreeBuilder { get }
}

/// Turns libyaml events into nodes for a `YAMLNodeSink` without recursion (depth is bounded
/// and checked), counting what aliases would expand to.
struct Composer<Sink: YAMLNodeSink> {
    /// An open collection. Only plain values (read on every event without reference
    /// counting): its anchor and key table, if any, are on stacks of their own.
    struct Frame {
        var isMapping: Bool
        /// Whether an anchor names it (the name is on `openAnchors`).
        var anchored: Bool
        /// Where this mapping's accepted keys start on `keyStack`.
        var keyStart: Int
        /// The key (a position on `keyStack`) whose value comes next.
        var pendingKey: Int?
        /// The value of the pending key is dropped (bad or duplicate key).
        var skipValue = false
        /// Whether the mapping has grown past `keyListLimit` keys: its keys are then found
        /// through the last table of `keyTables` (a small mapping searches `keyStack`).
        var hasKeyTable = false
        var size = 1
        /// Whether the collection is attached to its parent (whose size then includes it).
        var attached: Bool

        static var keyListLimit: Int { 12 }
    }

    let path: String
    let limits: LoaderLimits
    var sink: Sink
    var stack: [Frame] = []
    /// The keys of the open mappings.
    var keyStack: [YAMLScalar] = []
    /// The key tables of the open mappings that have one, innermost last.
    var keyTables: [KeyTable] = []
    /// The anchors of the open collections that have one, innermost last.
    var openAnchors: [String] = []
    var anchors: [String: (node: Sink.Anchor, size: Int)] = [:]
    var anchorMarkers: [YAMLDocument.Marker] = []
    var aliasMarkers: [YAMLDocument.Marker] = []
    var expanded = 0
    var documents = 0
    var readErrors: [ReadError] = []
    var composeErrors: [ComposeError] = []
    var aborted = false

    init(path: String, limits: LoaderLimits, sink: consuming Sink) {
        self.path = path
        self.limits = limits
        self.sink = sink
    }

    func location(_ mark: yaml_mark_t, length: Int = 1) -> SourceLocation {
        SourceLocation(file: path, line: Int(mark.line) + 1, column: Int(mark.column) + 1, length: length)
    }

    func yamlMark(_ mark: yaml_mark_t) -> YAMLMark {
        YAMLMark(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        guard let pointer else { return nil }
        return String(cString: pointer)
    }

    mutating func run(_ buffer: UnsafeBufferPointer<UInt8>) {
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else {
            readErrors.append(.unreadable(path: path, reason: "libyaml could not allocate a parser"))
            return
        }
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
        defer { yaml_parser_delete(&parser) }
        var event = yaml_event_t()
        while !aborted {
            guard yaml_parser_parse(&parser, &event) == 1 else {
                syntaxError(parser, buffer)
                return
            }
            let done = event.type == YAML_STREAM_END_EVENT
            handle(&event)
            yaml_event_delete(&event)
            if done { break }
        }
    }

    mutating func syntaxError(_ parser: yaml_parser_t, _ buffer: UnsafeBufferPointer<UInt8>) {
        let problem = parser.problem.map { String(cString: $0) } ?? "unknown problem"
        let context = parser.context.map { String(cString: $0) }
        var problemLocation = location(parser.problem_mark)
        // The reader's errors (a control character) come with a byte offset, not a mark.
        if parser.error == YAML_READER_ERROR, parser.problem_offset < buffer.count {
            problemLocation = YAMLReader.location(ofByte: parser.problem_offset, in: Array(buffer), path: path)
        }
        let contextLocation =
            context == nil
                || parser.context_mark.line == parser.problem_mark.line
                    && parser.context_mark.column == parser.problem_mark.column
            ? nil : location(parser.context_mark)
        let hint = YAMLSyntaxHint.hint(
            problem: problem, context: context, line: problemLocation.line, column: problemLocation.column,
            contextLine: context == nil ? nil : Int(parser.context_mark.line) + 1,
            contextColumn: context == nil ? nil : Int(parser.context_mark.column) + 1, text: String(decoding: buffer, as: UTF8.self))
        readErrors.append(.syntax(problemLocation, problem: problem, context: context, contextLocation: contextLocation, hint: hint))
    }

    mutating func handle(_ event: inout yaml_event_t) {
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documents += 1
            if documents > 1 {
                composeErrors.append(.multipleDocuments(location(event.start_mark, length: 3)))
                aborted = true
            }
        case YAML_SCALAR_EVENT:
            let data = event.data.scalar
            let value = UnsafeBufferPointer(start: data.value, count: data.value == nil ? 0 : data.length)
            let style: YAMLScalarStyle
            switch data.style {
            case YAML_SINGLE_QUOTED_SCALAR_STYLE: style = .singleQuoted
            case YAML_DOUBLE_QUOTED_SCALAR_STYLE: style = .doubleQuoted
            case YAML_LITERAL_SCALAR_STYLE: style = .literal
            case YAML_FOLDED_SCALAR_STYLE: style = .folded
            default: style = .plain
            }
            var tag = Self.string(data.tag)
            if let written = tag {
                if written == "tag:yaml.org,2002:str" || written == "!" {
                    tag = "!!str"
                } else {
                    composeErrors.append(.unsupportedTag(location(event.start_mark), tag: written.replacingPrefix("tag:yaml.org,2002:", with: "!!")))
                }
            }
            let scalar = YAMLScalarEvent(value: value, style: style, tag: tag, start: yamlMark(event.start_mark), end: yamlMark(event.end_mark))
            let anchor = Self.string(data.anchor)
            if let anchor { anchorMarkers.append(.init(name: anchor, mark: scalar.start)) }
            if awaitingKey {
                // An anchor on a key names the key's scalar (an alias may use it as a value).
                if let anchor, let node = sink.scalar(scalar, at: .dropped, anchored: true) { anchors[anchor] = (node, 1) }
                acceptKey(scalar.scalar, at: event.start_mark)
                return
            }
            let place = takePlace(size: 1)
            let node = sink.scalar(scalar, at: place, anchored: anchor != nil)
            if let anchor, let node { anchors[anchor] = (node, 1) }
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            let isMapping = event.type == YAML_MAPPING_START_EVENT
            if stack.count >= limits.maximumDepth {
                composeErrors.append(.nestingTooDeep(location(event.start_mark), limit: limits.maximumDepth))
                aborted = true
                return
            }
            let place: YAMLPlace
            if awaitingKey {
                composeErrors.append(.nonScalarKey(location(event.start_mark), kind: isMapping ? "a mapping" : "a sequence"))
                // The collection is no key, and the value that follows it is dropped.
                stack[stack.count - 1].skipValue = true
                place = .dropped
            } else {
                place = takePlace(size: 0)
            }
            let attached: Bool
            switch place {
            case .item, .value: attached = true
            case .root, .dropped: attached = false
            }
            let anchor = Self.string(isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor)
            let tag = Self.string(isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag)
            if let tag {
                composeErrors.append(.unsupportedTag(location(event.start_mark), tag: tag.replacingPrefix("tag:yaml.org,2002:", with: "!!")))
            }
            let start = yamlMark(event.start_mark)
            if let anchor {
                anchorMarkers.append(.init(name: anchor, mark: start))
                openAnchors.append(anchor)
            }
            stack.append(Frame(isMapping: isMapping, anchored: anchor != nil, keyStart: keyStack.count, attached: attached))
            sink.startCollection(isMapping: isMapping, start: start, at: place, anchored: anchor != nil)
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let frame = stack.popLast() else { return }
            keyStack.removeLast(keyStack.count - frame.keyStart)
            if frame.hasKeyTable { keyTables.removeLast() }
            let node = sink.endCollection(end: yamlMark(event.end_mark))
            if frame.anchored {
                let anchor = openAnchors.removeLast()
                if let node { anchors[anchor] = (node, frame.size) }
            }
            if frame.attached { stack[stack.count - 1].size += frame.size }
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor) ?? ""
            let here = location(event.start_mark, length: name.count + 1)
            aliasMarkers.append(.init(name: name, mark: yamlMark(event.start_mark)))
            if awaitingKey {
                composeErrors.append(.aliasAsKey(here, alias: name))
                stack[stack.count - 1].skipValue = true
                return
            }
            guard let target = anchors[name] else {
                composeErrors.append(.undefinedAlias(here, alias: name, known: Array(anchors.keys).sorted()))
                // Drop the entry (or item) rather than invent a value that would cause more errors.
                if !stack.isEmpty, stack[stack.count - 1].isMapping { stack[stack.count - 1].pendingKey = nil }
                return
            }
            expanded += target.size
            if expanded > limits.maximumAliasExpansion {
                composeErrors.append(.aliasBudgetExceeded(here, alias: name, limit: limits.maximumAliasExpansion))
                aborted = true
                return
            }
            sink.alias(target.node, at: takePlace(size: target.size))
        default:
            break
        }
    }

    /// Whether the innermost collection is a mapping waiting for a key.
    var awaitingKey: Bool {
        guard !stack.isEmpty else { return false }
        let top = stack.count - 1
        return stack[top].isMapping && stack[top].pendingKey == nil && !stack[top].skipValue
    }

    /// Where the next node (not a key) goes; the innermost collection takes it. `size` is the
    /// node's count for the alias budget (0 for a collection: counted when it ends).
    mutating func takePlace(size: Int) -> YAMLPlace {
        guard !stack.isEmpty else { return .root }
        let top = stack.count - 1
        if !stack[top].isMapping {
            stack[top].size += size
            return .item
        }
        if stack[top].skipValue {
            stack[top].skipValue = false
            return .dropped
        }
        guard let key = stack[top].pendingKey else { return .dropped }
        stack[top].pendingKey = nil
        stack[top].size += size
        return .value(key: keyStack[key])
    }

    /// The scalar of the top mapping's key equal to `key`, if it has one; `hash` is
    /// `KeyTable.hash(key)` when the mapping has a table.
    func firstKey(_ key: String, hash: UInt64) -> YAMLScalar? {
        let frame = stack.count - 1
        if stack[frame].hasKeyTable { return keyTables[keyTables.count - 1].find(key, hash: hash, in: keyStack).map { keyStack[$0] } }
        for position in stack[frame].keyStart..<keyStack.count where keyStack[position].value == key {
            return keyStack[position]
        }
        return nil
    }

    /// Records a key of the top mapping not seen before.
    mutating func addKey(_ scalar: YAMLScalar, hash: UInt64) {
        let top = stack.count - 1
        keyStack.append(scalar)
        if stack[top].hasKeyTable {
            keyTables[keyTables.count - 1].insert(keyStack.count - 1, hash: hash)
        } else if keyStack.count - stack[top].keyStart > Frame.keyListLimit {
            var table = KeyTable(capacity: 4 * Frame.keyListLimit)
            for position in stack[top].keyStart..<keyStack.count - 1 {
                table.insert(position, hash: KeyTable.hash(keyStack[position].value))
            }
            table.insert(keyStack.count - 1, hash: hash)
            keyTables.append(table)
            stack[top].hasKeyTable = true
        }
    }

    /// A scalar where the top mapping expects a key.
    mutating func acceptKey(_ key: YAMLScalar, at mark: yaml_mark_t) {
        let top = stack.count - 1
        if key.style == .plain, key.value == "<<" {
            composeErrors.append(.mergeKey(location(mark, length: 2)))
            stack[top].skipValue = true
            return
        }
        let hash = stack[top].hasKeyTable || keyStack.count - stack[top].keyStart >= Frame.keyListLimit ? KeyTable.hash(key.value) : 0
        if let first = firstKey(key.value, hash: hash)?.start {
            let here = location(mark, length: key.width)
            let firstLocation = SourceLocation(file: path, line: first.line, column: first.column, length: key.width)
            composeErrors.append(.duplicateKey(here, key: key.value, first: firstLocation))
            sink.duplicateKey(key, at: here, first: firstLocation)
            stack[top].skipValue = true
            return
        }
        addKey(key, hash: hash)
        stack[top].pendingKey = keyStack.count - 1
    }

    func result() -> YAMLReadResult {
        if !readErrors.isEmpty || aborted {
            return YAMLReadResult(document: nil, readErrors: readErrors, composeErrors: composeErrors)
        }
        let tree = sink.tree
        guard let root = tree.root, !(root.raw >= 0 && tree.scalars[Int(root.raw)].isNull) else {
            return YAMLReadResult(document: nil, readErrors: [.empty(path: path)], composeErrors: composeErrors)
        }
        var document = YAMLDocument(path: path, root: tree.finished().node(root), anchors: anchorMarkers, aliases: aliasMarkers)
        document.scalarCount = tree.scalars.count
        return YAMLReadResult(document: document, readErrors: [], composeErrors: composeErrors)
    }
}

/// Keeps the composed nodes as a `YAMLTree`. Children wait on one shared stack until their
/// collection ends, then move to the tree in one piece: no allocation per node.
struct YAMLTreeBuilder: YAMLNodeSink {
    struct Frame {
        var isMapping: Bool
        var start: YAMLMark
        var place: YAMLPlace
        /// Where this collection's finished children start on `pending`.
        var pendingStart: Int
    }

    private(set) var scalars: [YAMLScalar] = []
    private var collections: [YAMLTree.Collection] = []
    private var children: [YAMLNodeID] = []
    private var pending: [YAMLNodeID] = []
    private var stack: [Frame] = []
    private(set) var root: YAMLNodeID?

    /// `expectedSize` (the file's size) sizes the arrays: about one scalar per 32 bytes.
    init(expectedSize: Int) {
        let scalarEstimate = min(expectedSize / 32, 1 << 20)
        scalars.reserveCapacity(scalarEstimate)
        children.reserveCapacity(scalarEstimate)
    }

    var tree: YAMLTreeBuilder { self }

    func finished() -> YAMLTree {
        YAMLTree(scalars: scalars, collections: collections, children: children)
    }

    /// The node `id` names, for walking a part of the tree before it is finished.
    func node(_ id: YAMLNodeID) -> YAMLNode {
        finished().node(id)
    }

    mutating func scalar(_ scalar: YAMLScalarEvent, at place: YAMLPlace, anchored: Bool) -> YAMLNodeID? {
        scalars.append(scalar.scalar)
        let id = YAMLNodeID.scalar(scalars.count - 1)
        attach(id, at: place)
        return id
    }

    mutating func startCollection(isMapping: Bool, start: YAMLMark, at place: YAMLPlace, anchored: Bool) {
        stack.append(Frame(isMapping: isMapping, start: start, place: place, pendingStart: pending.count))
    }

    mutating func endCollection(end: YAMLMark) -> YAMLNodeID? {
        guard let frame = stack.popLast() else { return nil }
        let count = pending.count - frame.pendingStart
        collections.append(
            YAMLTree.Collection(
                isMapping: frame.isMapping, start: frame.start, end: end,
                first: children.count, count: count))
        children.append(contentsOf: pending[frame.pendingStart...])
        pending.removeLast(count)
        let id = YAMLNodeID.collection(collections.count - 1)
        attach(id, at: frame.place)
        return id
    }

    mutating func alias(_ target: YAMLNodeID, at place: YAMLPlace) {
        attach(target, at: place)
    }

    func duplicateKey(_ key: YAMLScalar, at location: SourceLocation, first: SourceLocation) {}

    private mutating func attach(_ node: YAMLNodeID, at place: YAMLPlace) {
        switch place {
        case .root:
            if root == nil { root = node }
        case .item:
            pending.append(node)
        case .value(let key):
            scalars.append(key)
            pending.append(.scalar(scalars.count - 1))
            pending.append(node)
        case .dropped:
            break
        }
    }
}

/// The keys of one large mapping, for finding duplicates: open addressing over FNV-1a hashes
/// of the keys' UTF-8 bytes (much cheaper than hashing with `Hasher` for short keys); slots
/// hold positions in the composer's key stack.
struct KeyTable {
    private var slots: [Int32]
    private var hashes: [UInt64]
    private var count = 0

    init(capacity: Int) {
        var size = 16
        while size < 2 * capacity { size *= 2 }
        slots = Array(repeating: -1, count: size)
        hashes = Array(repeating: 0, count: size)
    }

    static func hash(_ key: String) -> UInt64 {
        var key = key
        return key.withUTF8 { bytes in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }
    }

    /// The position of the scalar whose value is `key`, if any.
    func find(_ key: String, hash: UInt64, in keys: [YAMLScalar]) -> Int? {
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 {
            if hashes[slot] == hash, keys[Int(slots[slot])].value == key { return Int(slots[slot]) }
            slot = (slot + 1) & mask
        }
        return nil
    }

    /// Adds a key known not to be in the table.
    mutating func insert(_ position: Int, hash: UInt64) {
        if 2 * (count + 1) > slots.count { grow() }
        let mask = slots.count - 1
        var slot = Int(truncatingIfNeeded: hash) & mask
        while slots[slot] >= 0 { slot = (slot + 1) & mask }
        slots[slot] = Int32(position)
        hashes[slot] = hash
        count += 1
    }

    private mutating func grow() {
        let old = (slots, hashes)
        slots = Array(repeating: -1, count: 2 * old.0.count)
        hashes = Array(repeating: 0, count: slots.count)
        count = 0
        for (scalar, hash) in zip(old.0, old.1) where scalar >= 0 { insert(Int(scalar), hash: hash) }
    }
}

extension String {
    func replacingPrefix(_ prefix: String, with replacement: String) -> String {
        hasPrefix(prefix) ? replacement + dropFirst(prefix.count) : self
    }
}
