#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

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
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress, !buffer.isEmpty else { return [0] }
            // Most files break lines with LF alone: then memchr finds every break.
            if !hasOtherBreak(buffer) {
                var starts = [0]
                var offset = 0
                while offset < buffer.count, let found = memchr(base + offset, 0x0A, buffer.count - offset) {
                    offset = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
                    starts.append(offset)
                }
                return starts
            }
            var starts = [0]
            var index = 0
            while index < buffer.count {
                let byte = buffer[index]
                // Only these bytes can start a break; skip the rest quickly.
                if byte == 0x0A || byte == 0x0D || byte == 0xC2 || byte == 0xE2 {
                    let length = Self.length(in: buffer, at: index)
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
    }

    /// Whether any break other than LF is in the bytes: CR, NEL (C2 85), LS or PS (E2 80 A8/A9).
    private static func hasOtherBreak(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return false }
        if memchr(base, 0x0D, buffer.count) != nil { return true }
        for (lead, isBreak) in [
            (UInt8(0xC2), { (next: UnsafeBufferPointer<UInt8>) in next.first == 0x85 }),
            (UInt8(0xE2), { (next: UnsafeBufferPointer<UInt8>) in next.count >= 2 && next[0] == 0x80 && (next[1] == 0xA8 || next[1] == 0xA9) })
        ] {
            var offset = 0
            while offset < buffer.count, let found = memchr(base + offset, Int32(lead), buffer.count - offset) {
                offset = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
                if isBreak(UnsafeBufferPointer(rebasing: buffer[offset...])) { return true }
            }
        }
        return false
    }

    /// Whether a scalar breaks a line (CR LF counts as the CR).
    public static func isBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: true
        default: false
        }
    }
}
