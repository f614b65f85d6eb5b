import CYAML

/// Input handed to libyaml already decoded, so that its reader does no work.
///
/// libyaml's reader decodes every character of UTF-8 input, checks it and encodes it again into
/// a second buffer, 16 KiB at a time (`yaml_parser_update_buffer` was 6% of the samples of
/// `locales check`). When the bytes are valid UTF-8 made only of characters YAML allows (what
/// the reader would have accepted), they are the reader's output already. `init` copies them
/// once into a buffer ending in NUL (as the reader ends its own at the end of input), counts
/// their characters and marks the input as read to the end, so `yaml_parser_update_buffer`
/// returns at once and the scanner sees the same characters, marks and offsets. Other input is
/// left to the reader, which reports its problem as before.
struct DecodedInput {
    /// Zero bytes after the terminating NUL: the scanner's look-ahead past the end stays in the
    /// buffer (it looks at most four characters ahead).
    private static let padding = 16

    private let storage: UnsafeMutablePointer<UInt8>
    private let savedBuffer: (start: UnsafeMutablePointer<yaml_char_t>?, end: UnsafeMutablePointer<yaml_char_t>?,
                              pointer: UnsafeMutablePointer<yaml_char_t>?, last: UnsafeMutablePointer<yaml_char_t>?)

    /// Hands `bytes` to `parser` decoded, or returns nil (and leaves the parser as it was) when
    /// they hold something the reader must judge. The parser must be fresh, its input set.
    /// Call `uninstall`, once, before `yaml_parser_delete`.
    init?(_ bytes: UnsafeBufferPointer<UInt8>, into parser: inout yaml_parser_t) {
        guard let characters = Self.characterCount(bytes) else { return nil }
        let capacity = bytes.count + 1 + Self.padding
        storage = .allocate(capacity: capacity)
        if let base = bytes.baseAddress { storage.initialize(from: base, count: bytes.count) }
        (storage + bytes.count).initialize(repeating: 0, count: capacity - bytes.count)
        savedBuffer = (parser.buffer.start, parser.buffer.end, parser.buffer.pointer, parser.buffer.last)
        parser.buffer.start = storage
        parser.buffer.pointer = storage
        parser.buffer.last = storage + bytes.count + 1
        parser.buffer.end = storage + capacity
        parser.unread = characters + 1
        parser.encoding = YAML_UTF8_ENCODING
        parser.offset = bytes.count
        parser.eof = 1
    }

    /// Gives the parser its own buffer back (libyaml frees it) and frees the copy.
    func uninstall(from parser: inout yaml_parser_t) {
        parser.buffer.start = savedBuffer.start
        parser.buffer.end = savedBuffer.end
        parser.buffer.pointer = savedBuffer.pointer
        parser.buffer.last = savedBuffer.last
        storage.deallocate()
    }

    /// The number of characters (Unicode scalars) in `bytes` when they are valid UTF-8 holding
    /// only characters YAML 1.1 allows: tab, line feed, carriage return, U+0020-U+007E, U+0085,
    /// U+00A0-U+D7FF, U+E000-U+FFFD and U+10000-U+10FFFF (libyaml's reader rejects all else).
    /// Nil otherwise.
    static func characterCount(_ bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard let base = bytes.baseAddress else { return 0 }
        let count = bytes.count
        let raw = UnsafeRawPointer(base)
        let high: UInt64 = 0x8080_8080_8080_8080
        let ones: UInt64 = 0x0101_0101_0101_0101
        var index = 0
        var characters = 0
        while index < count {
            let lead = base[index]
            if lead < 0x80 {
                // Eight printable ASCII bytes at a time: no high bit, none below 0x20, none 0x7F.
                if index + 8 <= count {
                    let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    let belowSpace = (word &- ones &* 0x20) & ~word & high
                    let delete = word ^ (ones &* 0x7F)
                    let hasDelete = (delete &- ones) & ~delete & high
                    if (word & high) | belowSpace | hasDelete == 0 {
                        index += 8
                        characters += 8
                        continue
                    }
                }
                guard lead >= 0x20 && lead != 0x7F || lead == 0x09 || lead == 0x0A || lead == 0x0D else { return nil }
                index += 1
            } else if lead >= 0xC3 && lead <= 0xDF {
                // Two bytes, U+00C0-U+07FF: all allowed.
                guard index + 1 < count, base[index + 1] & 0xC0 == 0x80 else { return nil }
                index += 2
            } else if lead >= 0xE1 && lead <= 0xEC || lead == 0xEE {
                // Three bytes, U+1000-U+CFFF and U+E000-U+EFFF: all allowed.
                guard index + 2 < count, base[index + 1] & 0xC0 == 0x80, base[index + 2] & 0xC0 == 0x80 else { return nil }
                index += 3
            } else {
                guard let width = scalarWidth(base, at: index, count: count) else { return nil }
                index += width
            }
            characters += 1
        }
        return characters
    }

    /// The length of the allowed character at `index`, or nil when it is not allowed or not
    /// valid UTF-8.
    @inline(__always)
    private static func scalarWidth(_ base: UnsafePointer<UInt8>, at index: Int, count: Int) -> Int? {
        let lead = base[index]
        if lead < 0x80 {
            return lead >= 0x20 && lead != 0x7F || lead == 0x09 || lead == 0x0A || lead == 0x0D ? 1 : nil
        }
        func continuation(_ offset: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> UInt8? {
            guard index + offset < count else { return nil }
            let byte = base[index + offset]
            return range.contains(byte) ? byte : nil
        }
        switch lead {
        case 0xC2:
            // U+0080-U+00BF: of the C1 controls only U+0085 is allowed.
            guard let second = continuation(1), second >= 0xA0 || second == 0x85 else { return nil }
            return 2
        case 0xC3...0xDF:
            return continuation(1) == nil ? nil : 2
        case 0xE0, 0xE1...0xEC, 0xED, 0xEE:
            let range: ClosedRange<UInt8> = lead == 0xE0 ? 0xA0...0xBF : lead == 0xED ? 0x80...0x9F : 0x80...0xBF
            return continuation(1, range) == nil || continuation(2) == nil ? nil : 3
        case 0xEF:
            // U+FFFE and U+FFFF are not allowed.
            guard let second = continuation(1), let third = continuation(2) else { return nil }
            return second == 0xBF && third >= 0xBE ? nil : 3
        case 0xF0...0xF4:
            let range: ClosedRange<UInt8> = lead == 0xF0 ? 0x90...0xBF : lead == 0xF4 ? 0x80...0x8F : 0x80...0xBF
            return continuation(1, range) == nil || continuation(2) == nil || continuation(3) == nil ? nil : 4
        default:
            return nil
        }
    }
}
