import JumpDiagnostics

// The parser of ICU MessageFormat patterns (the grammar is in MessagePattern.swift).

/// Reads the UTF-8 bytes of a message. Every syntax character is ASCII, so the parser looks
/// at bytes and decodes a scalar only where a non-ASCII one matters: in identifiers and in
/// whitespace (Pattern_White_Space and Pattern_Syntax have non-ASCII members). Text nodes are
/// runs of the source's bytes. Offsets are converted to Unicode scalars as they are reported.
struct MessageParser {
    struct Output {
        var nodes: [MessageNode]
        var argumentUses: [MessageArgumentUse]
        var selectors: [MessageSelectorUse]
    }

    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    /// The message as a string; nil when only the argument uses are wanted (`buildsTree` false).
    private let source: String?
    /// Whether the parser makes the tree (text nodes, cases) and the selectors; without it,
    /// it checks the syntax and collects the argument uses only, allocating nothing else.
    private let buildsTree: Bool
    /// With ASCII only, byte and scalar offsets are the same.
    private let isASCII: Bool
    /// Byte index into `bytes`.
    private var index = 0
    /// A byte index and its scalar offset: offsets are mostly asked in increasing order, so
    /// each conversion counts scalars from the previous one.
    private var knownByte = 0
    private var knownScalar = 0
    /// The apostrophe (scalar offset) of a quote that ran to the end of the message, if any.
    private var unclosedQuote: Int?
    /// Text that is not one run of the source (quotes, doubled apostrophes), being assembled.
    private var pieces: [UInt8] = []
    private var argumentUses: [MessageArgumentUse] = []
    private var selectors: [MessageSelectorUse] = []

    /// `bytes` must be non-empty and stay valid while the parser runs. Without `source` the
    /// parser builds no tree: `parse` finds the same syntax errors and argument uses, with no
    /// nodes and no selectors.
    init(_ bytes: UnsafeBufferPointer<UInt8>, source: String?) {
        self.bytes = bytes.baseAddress!
        self.count = bytes.count
        self.source = source
        self.buildsTree = source != nil
        self.isASCII = Self.isAllASCII(bytes)
    }

    /// Appends to an array that starts with room for `capacity` elements: one allocation for
    /// most messages, where growing one by one takes several.
    private static func append<Element>(_ element: Element, to array: inout [Element], capacity: Int) {
        if array.capacity == 0 { array.reserveCapacity(capacity) }
        array.append(element)
    }

    mutating func parse() throws(MessageSyntaxError) -> Output {
        let nodes = try parseMessage(depth: 0, inPlural: false, open: nil)
        return Output(nodes: nodes, argumentUses: argumentUses, selectors: selectors)
    }

    // MARK: Byte scans

    /// Whether the text has a `{`, `}` or `'`: eight bytes at a time, with the usual
    /// "has a zero byte" test on the word XOR each character.
    static func containsBraceOrApostrophe(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return false }
        let count = buffer.count
        let ones: UInt64 = 0x0101_0101_0101_0101
        let openBraces = ones &* 0x7B, closeBraces = ones &* 0x7D, apostrophes = ones &* 0x27
        guard count >= 8 else {
            for i in 0..<count {
                let byte = base[i]
                if byte == 0x7B || byte == 0x7D || byte == 0x27 { return true }
            }
            return false
        }
        var i = 0
        while true {
            let word = UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            let a = word ^ openBraces, b = word ^ closeBraces, c = word ^ apostrophes
            if (((a &- ones) & ~a) | ((b &- ones) & ~b) | ((c &- ones) & ~c)) & 0x8080_8080_8080_8080 != 0 { return true }
            if i == count - 8 { return false }
            // The last word may overlap the one before.
            i = min(i + 8, count - 8)
        }
    }

    private static func isAllASCII(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        let count = buffer.count
        var bits: UInt64 = 0
        var i = 0
        while i + 8 <= count {
            bits |= UnsafeRawPointer(base + i).loadUnaligned(as: UInt64.self)
            i += 8
        }
        while i < count {
            bits |= UInt64(base[i])
            i += 1
        }
        return bits & 0x8080_8080_8080_8080 == 0
    }

    /// The scalar offset of the byte index `byte` (a scalar boundary).
    private mutating func scalarOffset(_ byte: Int) -> Int {
        if isASCII { return byte }
        var scalars = knownScalar
        if byte >= knownByte {
            // Every byte but a continuation byte (10xxxxxx) starts a scalar.
            for i in knownByte..<byte where bytes[i] & 0xC0 != 0x80 { scalars += 1 }
            knownByte = byte
            knownScalar = scalars
        } else {
            for i in byte..<knownByte where bytes[i] & 0xC0 != 0x80 { scalars -= 1 }
        }
        return scalars
    }

    /// The scalar starting at byte `i` and its length in bytes (the text is valid UTF-8).
    private func scalar(at i: Int) -> (scalar: Unicode.Scalar, length: Int) {
        let lead = UInt32(bytes[i])
        if lead < 0x80 { return (Unicode.Scalar(UInt8(lead)), 1) }
        let value: UInt32, length: Int
        if lead < 0xE0 {
            value = (lead & 0x1F) << 6 | UInt32(bytes[i + 1] & 0x3F)
            length = 2
        } else if lead < 0xF0 {
            value = (lead & 0x0F) << 12 | UInt32(bytes[i + 1] & 0x3F) << 6 | UInt32(bytes[i + 2] & 0x3F)
            length = 3
        } else {
            value = (lead & 0x07) << 18 | UInt32(bytes[i + 1] & 0x3F) << 12 | UInt32(bytes[i + 2] & 0x3F) << 6 | UInt32(bytes[i + 3] & 0x3F)
            length = 4
        }
        return (Unicode.Scalar(value) ?? "\u{FFFD}", length)
    }

    /// The text of bytes `start..<end` (scalar boundaries); the source itself when it is all.
    private func string(_ start: Int, _ end: Int) -> String {
        if start == 0 && end == count, let source { return source }
        return String(decoding: UnsafeBufferPointer(start: bytes + start, count: end - start), as: UTF8.self)
    }

    private func bytesAreASCII(_ start: Int, _ end: Int) -> Bool {
        for i in start..<end where bytes[i] >= 0x80 { return false }
        return true
    }

    /// Whether bytes `start..<end` are `word` (lowercase ASCII) once ASCII letters are lowercased.
    private func equalsLowercased(_ start: Int, _ end: Int, _ word: StaticString) -> Bool {
        guard end - start == word.utf8CodeUnitCount else { return false }
        let letters = word.utf8Start
        for position in 0..<(end - start) {
            var byte = bytes[start + position]
            if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
            if byte != letters[position] { return false }
        }
        return true
    }

    /// Whether bytes `start..<end` are exactly `word`.
    private func equals(_ start: Int, _ end: Int, _ word: StaticString) -> Bool {
        guard end - start == word.utf8CodeUnitCount else { return false }
        let letters = word.utf8Start
        for position in 0..<(end - start) where bytes[start + position] != letters[position] { return false }
        return true
    }

    // MARK: Messages

    /// Parses message text up to the `}` closing the case opened at `open` (a scalar offset),
    /// or to the end when `open` is nil.
    mutating func parseMessage(depth: Int, inPlural: Bool, open: Int?) throws(MessageSyntaxError) -> [MessageNode] {
        var nodes: [MessageNode] = []
        // The text so far is `pieces` followed by the source bytes `run..<index`.
        var run = index
        while index < count {
            switch bytes[index] {
            case UInt8(ascii: "'"):
                let next = index + 1
                guard next < count else {
                    index = next
                    continue
                }
                let following = bytes[next]
                if following == UInt8(ascii: "'") {
                    // `''`: keep the first apostrophe, drop the second.
                    appendPiece(run, next)
                    index = next + 1
                    run = index
                } else if following == UInt8(ascii: "{") || following == UInt8(ascii: "}") || (inPlural && following == UInt8(ascii: "#")) {
                    // Quoted literal text, up to the next lone apostrophe or the end.
                    let quote = index
                    appendPiece(run, index)
                    run = next
                    index = next + 1
                    while true {
                        guard index < count else {
                            unclosedQuote = scalarOffset(quote)
                            break
                        }
                        if bytes[index] == UInt8(ascii: "'") {
                            if index + 1 < count && bytes[index + 1] == UInt8(ascii: "'") {
                                appendPiece(run, index + 1)
                                index += 2
                                run = index
                            } else {
                                appendPiece(run, index)
                                index += 1
                                run = index
                                break
                            }
                        } else {
                            index += 1
                        }
                    }
                } else {
                    index = next
                }
            case UInt8(ascii: "{"):
                flushText(run, into: &nodes)
                let argument = try parseArgument(depth: depth)
                if buildsTree { Self.append(argument, to: &nodes, capacity: 4) }
                run = index
            case UInt8(ascii: "}"):
                guard open != nil else {
                    throw error("unmatched '}'; quote it as '}' for a literal brace", at: scalarOffset(index))
                }
                flushText(run, into: &nodes)
                index += 1
                return nodes
            case UInt8(ascii: "#") where inPlural:
                flushText(run, into: &nodes)
                if buildsTree { Self.append(.pound(offset: scalarOffset(index)), to: &nodes, capacity: 4) }
                index += 1
                run = index
            default:
                index += 1
            }
        }
        if let open { throw unmatched(open) }
        flushText(run, into: &nodes)
        return nodes
    }

    private mutating func addUse(_ use: MessageArgumentUse) {
        // Most messages with arguments have one or two.
        Self.append(use, to: &argumentUses, capacity: 2)
    }

    private mutating func appendPiece(_ start: Int, _ end: Int) {
        guard buildsTree else { return }
        pieces.append(contentsOf: UnsafeBufferPointer(start: bytes + start, count: end - start))
    }

    /// Ends the text node made of `pieces` and the bytes `run..<index`, if it is not empty.
    private mutating func flushText(_ run: Int, into nodes: inout [MessageNode]) {
        guard buildsTree else { return }
        if pieces.isEmpty {
            if index > run { Self.append(.text(string(run, index)), to: &nodes, capacity: 4) }
        } else {
            appendPiece(run, index)
            Self.append(.text(String(decoding: pieces, as: UTF8.self)), to: &nodes, capacity: 4)
            pieces.removeAll(keepingCapacity: true)
        }
    }

    // MARK: Arguments

    private enum ArgumentType {
        case number, date, time, plural, selectordinal, select, choice, unknown
    }

    /// The argument type named by bytes `start..<end`, matched case-insensitively.
    private func argumentType(_ start: Int, _ end: Int) -> ArgumentType {
        if bytesAreASCII(start, end) {
            if equalsLowercased(start, end, "number") { return .number }
            if equalsLowercased(start, end, "date") { return .date }
            if equalsLowercased(start, end, "time") { return .time }
            if equalsLowercased(start, end, "plural") { return .plural }
            if equalsLowercased(start, end, "selectordinal") { return .selectordinal }
            if equalsLowercased(start, end, "select") { return .select }
            if equalsLowercased(start, end, "choice") { return .choice }
            return .unknown
        }
        // Unicode lowercasing, as String does it.
        switch string(start, end).lowercased() {
        case "number": return .number
        case "date": return .date
        case "time": return .time
        case "plural": return .plural
        case "selectordinal": return .selectordinal
        case "select": return .select
        case "choice": return .choice
        default: return .unknown
        }
    }

    /// Parses the argument whose `{` is at `index`.
    private mutating func parseArgument(depth: Int) throws(MessageSyntaxError) -> MessageNode {
        let open = scalarOffset(index)
        index += 1
        skipWhiteSpace()
        guard index < count else { throw unmatched(open) }
        let nameStart = index
        let nameOffset = scalarOffset(index)
        let first = bytes[index]
        if first == UInt8(ascii: "}") || first == UInt8(ascii: ",") { throw error("empty argument name", at: nameOffset) }
        skipIdentifier()
        if index == nameStart { throw error("expected an argument name after '{' but found '\(scalar(at: index).scalar)'", at: nameOffset) }
        try validateArgumentName(nameStart, index, at: nameOffset)
        let name = string(nameStart, index)

        skipWhiteSpace()
        guard index < count else { throw unmatched(open) }
        if bytes[index] == UInt8(ascii: "}") {
            index += 1
            addUse(MessageArgumentUse(name: name, kind: .simple, offset: open, nameOffset: nameOffset))
            return .argument(MessageSimpleArgument(name: name, kind: .simple, offset: open, nameOffset: nameOffset))
        }
        guard bytes[index] == UInt8(ascii: ",") else { throw error("expected ',' or '}' after argument name", at: scalarOffset(index)) }
        index += 1

        skipWhiteSpace()
        guard index < count else { throw unmatched(open) }
        let typeStart = index
        let typeOffset = scalarOffset(index)
        skipIdentifier()
        if index == typeStart { throw error("expected an argument type after ','", at: typeOffset) }

        switch argumentType(typeStart, index) {
        case .number:
            let numberStyle: MessageNumberStyle
            if let style = try parseSimpleStyle(type: "number", open: open) {
                let text = string(style.lowerBound, style.upperBound)
                let integer =
                    bytesAreASCII(style.lowerBound, style.upperBound)
                    ? equalsLowercased(style.lowerBound, style.upperBound, "integer") : text.lowercased() == "integer"
                numberStyle = integer ? .integer : .other(text)
            } else {
                numberStyle = .plain
            }
            addUse(MessageArgumentUse(name: name, kind: .number, offset: open, nameOffset: nameOffset))
            return .number(MessageNumberArgument(name: name, style: numberStyle, offset: open, nameOffset: nameOffset))
        case .date:
            let style = try parseSimpleStyle(type: "date", open: open).map { string($0.lowerBound, $0.upperBound) }
            addUse(MessageArgumentUse(name: name, kind: .date, offset: open, nameOffset: nameOffset))
            return .argument(MessageSimpleArgument(name: name, kind: .date, style: style, offset: open, nameOffset: nameOffset))
        case .time:
            let style = try parseSimpleStyle(type: "time", open: open).map { string($0.lowerBound, $0.upperBound) }
            addUse(MessageArgumentUse(name: name, kind: .time, offset: open, nameOffset: nameOffset))
            return .argument(MessageSimpleArgument(name: name, kind: .time, style: style, offset: open, nameOffset: nameOffset))
        case .plural:
            return .plural(try parsePlural(name: name, nameOffset: nameOffset, ordinal: false, open: open, depth: depth))
        case .selectordinal:
            return .plural(try parsePlural(name: name, nameOffset: nameOffset, ordinal: true, open: open, depth: depth))
        case .select:
            return .select(try parseSelect(name: name, nameOffset: nameOffset, open: open, depth: depth))
        case .choice:
            throw error("the 'choice' argument type is not supported; use plural or select", at: typeOffset)
        case .unknown:
            let typeName = string(typeStart, index)
            throw error(
                "unknown argument type '\(typeName)'; expected number, date, time, plural, select or selectordinal", at: typeOffset,
                hint: Suggestion.hint(for: typeName, among: ["number", "date", "time", "plural", "select", "selectordinal"]))
        }
    }

    /// ICU's rule: a name starting with a digit is an argument number, with no leading zeros.
    private func validateArgumentName(_ start: Int, _ end: Int, at offset: Int) throws(MessageSyntaxError) {
        let first = bytes[start]
        guard Self.isASCIIDigit(first) else { return }
        // As ICU: a name with a non-digit (`1a`, `0x`) is a name like any other.
        for i in start..<end where !Self.isASCIIDigit(bytes[i]) { return }
        if first == UInt8(ascii: "0") && end - start > 1 {
            throw error("invalid argument number '\(string(start, end))'; it must not have leading zeros", at: offset)
        }
        // ICU stores argument numbers in 15 bits and refuses larger ones.
        var value = 0
        for i in start..<end {
            value = value * 10 + Int(bytes[i] - 0x30)
            if value > 32767 {
                throw error("argument number '\(string(start, end))' is too large; ICU accepts argument numbers up to 32767", at: offset)
            }
        }
    }

    /// After `{name, number|date|time`: `}` or `, style }`. Returns the bytes of the trimmed style.
    private mutating func parseSimpleStyle(type: String, open: Int) throws(MessageSyntaxError) -> Range<Int>? {
        skipWhiteSpace()
        guard index < count else { throw unmatched(open) }
        if bytes[index] == UInt8(ascii: "}") {
            index += 1
            return nil
        }
        guard bytes[index] == UInt8(ascii: ",") else { throw error("expected ',' or '}' after '\(type)'", at: scalarOffset(index)) }
        index += 1
        let start = index
        var nested = 0
        while true {
            guard index < count else { throw unmatched(open) }
            let c = bytes[index]
            if c == UInt8(ascii: "'") {
                // As in ICU: quoted text inside a style is kept, apostrophes included.
                let quote = index
                index += 1
                while index < count && bytes[index] != UInt8(ascii: "'") { index += 1 }
                guard index < count else {
                    throw error("the quote in this \(type) style is never closed", at: scalarOffset(quote))
                }
            } else if c == UInt8(ascii: "{") {
                nested += 1
            } else if c == UInt8(ascii: "}") {
                if nested == 0 { break }
                nested -= 1
            }
            index += 1
        }
        var begin = start
        var end = index
        while begin < end {
            let length = whiteSpaceLength(at: begin)
            if length == 0 { break }
            begin += length
        }
        while end > begin {
            var last = end - 1
            while bytes[last] & 0xC0 == 0x80 { last -= 1 }
            if whiteSpaceLength(at: last) == 0 { break }
            end = last
        }
        guard begin < end else { throw error("expected a \(type) style after ','", at: scalarOffset(index)) }
        index += 1
        return begin..<end
    }

    private mutating func parsePlural(name: String, nameOffset: Int, ordinal: Bool, open: Int, depth: Int) throws(MessageSyntaxError)
        -> MessagePluralArgument
    {
        let type = ordinal ? "selectordinal" : "plural"
        try expectCasesComma(type: type, open: open, depth: depth)
        // Outer before nested: the uses are recorded before the cases are parsed.
        addUse(MessageArgumentUse(name: name, kind: ordinal ? .selectordinal : .plural, offset: open, nameOffset: nameOffset))
        let selector = selectors.count
        if buildsTree {
            selectors.append(
                MessageSelectorUse(
                    name: name, kind: ordinal ? .selectordinal : .plural, offset: open, nameOffset: nameOffset, pluralOffset: 0, keys: []))
        }
        var cases: [MessagePluralCase] = []
        var caseCount = 0
        var categories = CategorySet()
        var exactValues = SeenStrings()
        var pluralOffset: Int?
        while true {
            skipWhiteSpace()
            guard index < count else { throw unmatched(open) }
            let keyOffset = scalarOffset(index)
            let c = bytes[index]
            if c == UInt8(ascii: "}") {
                guard categories.contains(.other) else {
                    throw error("\(type) argument '\(name)' has no 'other' case", at: keyOffset)
                }
                index += 1
                if buildsTree {
                    selectors[selector].pluralOffset = pluralOffset ?? 0
                    selectors[selector].keys = cases.map { item -> MessageSelectorUse.Key in
                        let category: PluralCategory? = if case .category(let category) = item.key { category } else { nil }
                        return .init(text: item.key.description, offset: item.keyOffset, category: category)
                    }
                }
                return MessagePluralArgument(
                    name: name, isOrdinal: ordinal, pluralOffset: pluralOffset ?? 0, cases: cases, offset: open, nameOffset: nameOffset)
            }
            if equals(index, min(index + 7, count), "offset:") {
                if pluralOffset != nil {
                    throw error("\(type) argument '\(name)' has more than one 'offset:'", at: keyOffset)
                }
                if caseCount > 0 { throw error("'offset:' must come before the first case", at: keyOffset) }
                index += 7
                skipWhiteSpace()
                guard index < count else { throw unmatched(open) }
                pluralOffset = try scanOffsetValue()
                continue
            }
            let key: MessagePluralKey
            if c == UInt8(ascii: "=") {
                index += 1
                let number = try scanExactNumber()
                guard exactValues.insert(Self.normalizedExactNumber(number)) else {
                    throw error("\(type) argument '\(name)' has the case '=\(number)' twice", at: keyOffset)
                }
                key = .exact(number)
            } else {
                let wordStart = index
                skipIdentifier()
                if index == wordStart {
                    throw error("expected a case key or '}' in \(type) argument '\(name)' but found '\(scalar(at: index).scalar)'", at: keyOffset)
                }
                guard let category = pluralCategory(wordStart, index) else {
                    let word = string(wordStart, index)
                    throw error(
                        "unknown plural category '\(word)'; expected zero, one, two, few, many, other or an exact match such as =0", at: keyOffset,
                        hint: Suggestion.hint(for: word, among: PluralCategory.allCases.map(\.rawValue)))
                }
                guard categories.insert(category) else {
                    throw error("\(type) argument '\(name)' has the case '\(string(wordStart, index))' twice", at: keyOffset)
                }
                key = .category(category)
            }
            let message = try parseCaseMessage(key: key.description, open: open, depth: depth, inPlural: true)
            caseCount += 1
            if buildsTree { Self.append(MessagePluralCase(key: key, keyOffset: keyOffset, message: message), to: &cases, capacity: 8) }
        }
    }

    /// The CLDR category named by bytes `start..<end`, compared as `PluralCategory(rawValue:)` does.
    private func pluralCategory(_ start: Int, _ end: Int) -> PluralCategory? {
        guard bytesAreASCII(start, end) else { return PluralCategory(rawValue: string(start, end)) }
        if equals(start, end, "other") { return .other }
        if equals(start, end, "one") { return .one }
        if equals(start, end, "few") { return .few }
        if equals(start, end, "many") { return .many }
        if equals(start, end, "two") { return .two }
        if equals(start, end, "zero") { return .zero }
        return nil
    }

    /// `=N` keys compare by value: `=1` and `=1.0` are the same case.
    private static func normalizedExactNumber(_ number: String) -> String {
        // Digits without a leading zero are already normal.
        let utf8 = number.utf8
        if let first = utf8.first, first != UInt8(ascii: "0") || utf8.count == 1, utf8.allSatisfy(isASCIIDigit) { return number }
        return DecimalNumber(number)?.normalized.plainText ?? number
    }

    private mutating func parseSelect(name: String, nameOffset: Int, open: Int, depth: Int) throws(MessageSyntaxError) -> MessageSelectArgument {
        try expectCasesComma(type: "select", open: open, depth: depth)
        addUse(MessageArgumentUse(name: name, kind: .select, offset: open, nameOffset: nameOffset))
        let selector = selectors.count
        if buildsTree {
            selectors.append(MessageSelectorUse(name: name, kind: .select, offset: open, nameOffset: nameOffset, pluralOffset: 0, keys: []))
        }
        var cases: [MessageSelectCase] = []
        var keys = SeenStrings()
        while true {
            skipWhiteSpace()
            guard index < count else { throw unmatched(open) }
            let keyOffset = scalarOffset(index)
            let c = bytes[index]
            if c == UInt8(ascii: "}") {
                guard keys.contains("other") else {
                    throw error("select argument '\(name)' has no 'other' case", at: keyOffset)
                }
                index += 1
                if buildsTree { selectors[selector].keys = cases.map { MessageSelectorUse.Key(text: $0.key, offset: $0.keyOffset, category: nil) } }
                return MessageSelectArgument(name: name, cases: cases, offset: open, nameOffset: nameOffset)
            }
            if c == UInt8(ascii: "=") {
                throw error("'=' cases are only allowed in plural and selectordinal arguments", at: keyOffset)
            }
            let keyStart = index
            skipIdentifier()
            if index == keyStart {
                throw error("expected a case key or '}' in select argument '\(name)' but found '\(scalar(at: index).scalar)'", at: keyOffset)
            }
            let key = string(keyStart, index)
            if key == "offset" && index < count && bytes[index] == UInt8(ascii: ":") {
                throw error("'offset:' is only allowed in plural and selectordinal arguments", at: keyOffset)
            }
            guard keys.insert(key) else {
                throw error("select argument '\(name)' has the case '\(key)' twice", at: keyOffset)
            }
            let message = try parseCaseMessage(key: key, open: open, depth: depth, inPlural: false)
            if buildsTree { Self.append(MessageSelectCase(key: key, keyOffset: keyOffset, message: message), to: &cases, capacity: 8) }
        }
    }

    /// After the type of a plural, selectordinal or select: the `,` that starts the cases.
    private mutating func expectCasesComma(type: String, open: Int, depth: Int) throws(MessageSyntaxError) {
        if depth >= MessagePattern.maximumNestingDepth {
            throw error("plural and select arguments are nested more than \(MessagePattern.maximumNestingDepth) levels deep", at: open)
        }
        skipWhiteSpace()
        guard index < count else { throw unmatched(open) }
        guard bytes[index] == UInt8(ascii: ",") else { throw error("expected ',' and the cases after '\(type)'", at: scalarOffset(index)) }
        index += 1
    }

    /// After a case key: `{ message }`.
    private mutating func parseCaseMessage(key: @autoclosure () -> String, open: Int, depth: Int, inPlural: Bool) throws(MessageSyntaxError)
        -> [MessageNode]
    {
        skipWhiteSpace()
        guard index < count else { throw unmatched(open) }
        guard bytes[index] == UInt8(ascii: "{") else { throw error("expected '{' after case '\(key())'", at: scalarOffset(index)) }
        let caseOpen = scalarOffset(index)
        index += 1
        return try parseMessage(depth: depth + 1, inPlural: inPlural, open: caseOpen)
    }

    /// The value after `offset:`: a non-negative integer.
    private mutating func scanOffsetValue() throws(MessageSyntaxError) -> Int {
        let start = index
        var value = 0
        var overflow = false
        while index < count && Self.isASCIIDigit(bytes[index]) {
            if !overflow {
                let (times, o1) = value.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(Int(bytes[index] - 0x30))
                overflow = o1 || o2
                value = sum
            }
            index += 1
        }
        if index == start || (index < count && (isIdentifier(at: index) || bytes[index] == UInt8(ascii: "."))) {
            throw error("expected a non-negative integer after 'offset:'", at: scalarOffset(start))
        }
        if overflow { throw error("the value after 'offset:' is too large", at: scalarOffset(start)) }
        return value
    }

    /// The number after `=` in an exact-match key: `-?digits(.digits)?([eE][+-]?digits)?`.
    private mutating func scanExactNumber() throws(MessageSyntaxError) -> String {
        let start = index
        if index < count && bytes[index] == UInt8(ascii: "-") { index += 1 }
        let digitsStart = index
        while index < count && Self.isASCIIDigit(bytes[index]) { index += 1 }
        guard index > digitsStart else {
            throw error("expected a number after '=', as in '=0'", at: scalarOffset(digitsStart))
        }
        if index + 1 < count && bytes[index] == UInt8(ascii: ".") && Self.isASCIIDigit(bytes[index + 1]) {
            index += 1
            while index < count && Self.isASCIIDigit(bytes[index]) { index += 1 }
        }
        // An exponent, as ICU reads `=1e3` (1000).
        if index < count && (bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E")) {
            var end = index + 1
            if end < count && (bytes[end] == UInt8(ascii: "+") || bytes[end] == UInt8(ascii: "-")) { end += 1 }
            let exponentStart = end
            while end < count && Self.isASCIIDigit(bytes[end]) { end += 1 }
            if end > exponentStart && end - exponentStart <= 3 { index = end }
        }
        return string(start, index)
    }

    // MARK: Scanning

    /// The length in bytes of the Pattern_White_Space scalar at byte `i`, or 0.
    private func whiteSpaceLength(at i: Int) -> Int {
        switch bytes[i] {
        case 0x09...0x0D, 0x20:
            return 1
        case 0xC2:  // U+0085
            return bytes[i + 1] == 0x85 ? 2 : 0
        case 0xE2:  // U+200E, U+200F, U+2028, U+2029
            guard bytes[i + 1] == 0x80 else { return 0 }
            switch bytes[i + 2] {
            case 0x8E, 0x8F, 0xA8, 0xA9: return 3
            default: return 0
            }
        default:
            return 0
        }
    }

    private mutating func skipWhiteSpace() {
        while index < count {
            let length = whiteSpaceLength(at: index)
            if length == 0 { return }
            index += length
        }
    }

    /// Skips an ICU "pattern identifier": scalars that are neither Pattern_White_Space nor
    /// Pattern_Syntax. Does not move when there is none.
    private mutating func skipIdentifier() {
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                guard Self.isASCIIIdentifier(byte) else { return }
                index += 1
            } else {
                let (scalar, length) = scalar(at: index)
                guard Self.isIdentifierScalar(scalar) else { return }
                index += length
            }
        }
    }

    private func isIdentifier(at i: Int) -> Bool {
        let byte = bytes[i]
        return byte < 0x80 ? Self.isASCIIIdentifier(byte) : Self.isIdentifierScalar(scalar(at: i).scalar)
    }

    private func error(_ message: String, at offset: Int, hint: String? = nil) -> MessageSyntaxError {
        MessageSyntaxError(message: message, offset: offset, hint: hint)
    }

    /// The error for an argument or case whose `{` at `open` never closes.
    private func unmatched(_ open: Int) -> MessageSyntaxError {
        if let quote = unclosedQuote {
            return error(
                "this apostrophe starts quoted text that is never closed, so a '{' before the end is unmatched; write '' for a literal apostrophe",
                at: quote)
        }
        return error("unmatched '{'", at: open)
    }

    private static func isASCIIDigit(_ byte: UInt8) -> Bool {
        byte >= 0x30 && byte <= 0x39
    }

    /// `isIdentifierScalar` for an ASCII byte, as two 64-bit masks: controls other than
    /// 0x09-0x0D, digits, letters, `_` and DEL.
    static func isASCIIIdentifier(_ byte: UInt8) -> Bool {
        let low: UInt64 = 0x03FF_0000_FFFF_C1FF
        let high: UInt64 = 0x87FF_FFFE_87FF_FFFE
        return ((byte < 64 ? low : high) >> UInt64(byte & 63)) & 1 != 0
    }

    static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
        !isPatternWhiteSpace(scalar) && !isPatternSyntax(scalar)
    }

    /// Unicode Pattern_White_Space.
    static func isPatternWhiteSpace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0x200E, 0x200F, 0x2028, 0x2029: true
        default: false
        }
    }

    /// Unicode Pattern_Syntax (stable since Unicode 4.1).
    static func isPatternSyntax(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        if v < 0x80 {
            switch v {
            case 0x21...0x2F, 0x3A...0x40, 0x5B...0x5E, 0x60, 0x7B...0x7E: return true
            default: return false
            }
        }
        switch v {
        case 0xA1...0xA7, 0xA9, 0xAB, 0xAC, 0xAE, 0xB0, 0xB1, 0xB6, 0xBB, 0xBF, 0xD7, 0xF7,
            0x2010...0x2027, 0x2030...0x203E, 0x2041...0x2053, 0x2055...0x205E,
            0x2190...0x245F, 0x2500...0x2775, 0x2794...0x2BFF, 0x2E00...0x2E7F,
            0x3001...0x3003, 0x3008...0x3020, 0x3030, 0xFD3E, 0xFD3F, 0xFE45, 0xFE46:
            return true
        default:
            return false
        }
    }
}

/// Plural categories seen so far, one bit each.
private struct CategorySet {
    private var bits: UInt8 = 0

    private static func bit(_ category: PluralCategory) -> UInt8 {
        switch category {
        case .zero: 1
        case .one: 2
        case .two: 4
        case .few: 8
        case .many: 16
        case .other: 32
        }
    }

    /// Adds `category`; false when it was there already.
    mutating func insert(_ category: PluralCategory) -> Bool {
        let bit = Self.bit(category)
        defer { bits |= bit }
        return bits & bit == 0
    }

    func contains(_ category: PluralCategory) -> Bool { bits & Self.bit(category) != 0 }
}

/// Case keys seen so far, compared as `String`s (canonical equivalence): a short list, or a
/// set once there are many.
private struct SeenStrings {
    private var list: [String] = []
    private var set: Set<String>?

    /// Adds `text`; false when it was there already.
    mutating func insert(_ text: String) -> Bool {
        if set != nil { return set!.insert(text).inserted }
        if list.contains(text) { return false }
        list.append(text)
        if list.count > 16 {
            set = Set(list)
            list = []
        }
        return true
    }

    func contains(_ text: String) -> Bool {
        set?.contains(text) ?? list.contains(text)
    }
}
