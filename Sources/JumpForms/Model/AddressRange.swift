/// An IP address range in CIDR notation (`10.0.0.0/8`, `127.0.0.1`, `fd00::/8`, `::1`): what
/// `server.metricsAllow` lists. A plain address is a range of one. IPv4 addresses also match
/// their IPv4-mapped IPv6 form (`::ffff:10.1.2.3`), as a dual-stack socket reports them.
public struct AddressRange: Sendable, Hashable, CustomStringConvertible {
    /// The network's address bytes (4 for IPv4, 16 for IPv6), host bits cleared.
    public let bytes: [UInt8]
    /// The prefix length in bits.
    public let prefixLength: Int

    /// The range `text` writes, or nil when it is not an address with an optional `/bits`
    /// (0...32 for IPv4, 0...128 for IPv6).
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = Self.address(String(parts[0])) else { return nil }
        let bits = address.count * 8
        var length = bits
        if parts.count == 2 {
            guard !parts[1].isEmpty, parts[1].utf8.allSatisfy({ (48...57).contains($0) }), parts[1].count <= 3, let value = Int(parts[1]),
                value <= bits
            else { return nil }
            length = value
        }
        self.prefixLength = length
        self.bytes = Self.masked(address, length)
    }

    public var description: String {
        "\(Self.text(bytes))/\(prefixLength)"
    }

    /// Whether `address` (an IPv4 or IPv6 address as text) is in the range; text that is no
    /// address is in none.
    public func contains(_ address: String) -> Bool {
        guard var parsed = Self.address(address) else { return false }
        // An IPv4-mapped IPv6 address is its IPv4 address.
        if parsed.count == 16, bytes.count == 4, parsed[0..<10].allSatisfy({ $0 == 0 }), parsed[10] == 0xFF, parsed[11] == 0xFF {
            parsed = Array(parsed[12...])
        }
        guard parsed.count == bytes.count else { return false }
        return Self.masked(parsed, prefixLength) == bytes
    }

    static func masked(_ address: [UInt8], _ length: Int) -> [UInt8] {
        address.enumerated().map { index, byte in
            let kept = min(8, max(0, length - index * 8))
            return kept == 0 ? 0 : byte & UInt8(truncatingIfNeeded: 0xFF << (8 - kept))
        }
    }

    /// The bytes of an IPv4 (dotted quad) or IPv6 address (with `::`, and a dotted quad at the end).
    static func address(_ text: String) -> [UInt8]? {
        if !text.contains(":") { return ipv4(Substring(text)) }
        var head: [UInt8] = []
        var tail: [UInt8] = []
        let halves = text.split(separator: "::", omittingEmptySubsequences: false).map(String.init)
        guard halves.count <= 2 else { return nil }
        func groups(_ part: String, into bytes: inout [UInt8]) -> Bool {
            guard !part.isEmpty else { return true }
            let pieces = part.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains(".") {
                    guard let four = ipv4(piece) else { return false }
                    bytes += four
                    continue
                }
                guard (1...4).contains(piece.count), let value = UInt16(piece, radix: 16) else { return false }
                bytes += [UInt8(value >> 8), UInt8(value & 0xFF)]
            }
            return true
        }
        guard groups(halves[0], into: &head) else { return nil }
        if halves.count == 2 {
            guard groups(halves[1], into: &tail), head.count + tail.count <= 14 else { return nil }
            return head + [UInt8](repeating: 0, count: 16 - head.count - tail.count) + tail
        }
        return head.count == 16 ? head : nil
    }

    static func ipv4(_ text: Substring) -> [UInt8]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4 else { return nil }
        var bytes: [UInt8] = []
        for part in parts {
            guard (1...3).contains(part.count), part.utf8.allSatisfy({ (48...57).contains($0) }), let value = UInt8(part) else { return nil }
            bytes.append(value)
        }
        return bytes
    }

    static func text(_ bytes: [UInt8]) -> String {
        if bytes.count == 4 { return bytes.map(String.init).joined(separator: ".") }
        return stride(from: 0, to: 16, by: 2).map { String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
    }
}
