/// Where lines break, the way YAML (and libyaml, whose line numbers the diagnostics carry)
/// sees it: LF, CR LF, a lone CR, NEL (U+0085), LS (U+2028) and PS (U+2029).
public enum LineBreaks {
    /// The length in bytes of the line break starting at `index` of UTF-8 `bytes`, or 0.
    @inlinable
    public static func length<Bytes: Collection<UInt8>>(in bytes: Bytes, at index: Bytes.Index) -> Int {
        switch bytes[index] {
        case 0x0A:
            return 1
        case 0x0D:
            let next = bytes.index(after: index)
            return next != bytes.endIndex && bytes[next] == 0x0A ? 2 : 1
        case 0xC2:
            let next = bytes.index(after: index)
            return next != bytes.endIndex && bytes[next] == 0x85 ? 2 : 0
        case 0xE2:
            let second = bytes.index(after: index)
            guard second != bytes.endIndex, bytes[second] == 0x80 else { return 0 }
            let third = bytes.index(after: second)
            return third != bytes.endIndex && (bytes[third] == 0xA8 || bytes[third] == 0xA9) ? 3 : 0
        default:
            return 0
        }
    }

    /// Byte offsets at which lines start (the first is 0).
    public static func lineStarts(_ bytes: [UInt8]) -> [Int] {
        var starts = [0]
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            // Only these bytes can start a break; skip the rest quickly.
            if byte == 0x0A || byte == 0x0D || byte == 0xC2 || byte == 0xE2 {
                let length = Self.length(in: bytes, at: index)
                if length > 0 {
                    index += length
                    starts.append(index)
                    continue
                }
            }
            index += 1
        }
        return starts
    }

    /// Whether a scalar breaks a line (CR LF counts as the CR).
    public static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}
