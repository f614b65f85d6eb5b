/// The scheme, host and port of a URL as a browser reads them: the WHATWG URL Standard's basic
/// URL parser (https://url.spec.whatwg.org/#concept-basic-url-parser), without a base URL, up
/// to the end of the authority. What decides where a browser sends a redirect is the host it
/// parses, not the one a naive split finds: in `http://[::1]@evil.net/` the `[::1]` is a user
/// name, in `https://evil.net\.example.com/` the backslash ends the host (`evil.net`), and
/// `https://%65vil.net`, `HTTPS://EVIL.NET.`, `http://0x7f.1/` and tabs or newlines inside the
/// URL are read as the browser reads them.
///
/// Followed as the standard says: leading and trailing C0 controls and spaces are stripped and
/// tabs and newlines removed; a special scheme (`http`, `https`, `ws`, `wss`, `ftp`) skips any
/// run of `/` and `\` after the colon, and its authority ends at `/`, `\`, `?` or `#` (another
/// scheme's at `/`, `?` or `#`); the host is what follows the authority's last `@`; a port is
/// digits up to 65535 (the scheme's default port is dropped); a host in brackets is an IPv6
/// address, serialized compressed (`[::1]`); a special scheme's host is percent-decoded,
/// lower-cased, refused when it holds a forbidden domain code point, and parsed as an IPv4
/// address when its last label is a number (`0x7f.1` is `127.0.0.1`); another scheme's host is
/// opaque (kept as written, percent-encoded, forbidden host code points refused).
///
/// One departure, on the safe side: a special scheme's host that is not ASCII once
/// percent-decoded (which a browser maps through IDNA/UTS #46, full-width dots included) is
/// not parsed (nil): write such a domain in its Punycode form (`xn--...`), which is taken as
/// written. `file:` URLs are not parsed either (they have no host a token could go to).
struct BrowserURL: Sendable, Hashable {
    /// The scheme, lower-cased (`https`).
    var scheme: String
    /// The serialized host: a lower-case domain (`example.com`, `example.com.` with its
    /// trailing dot), an IPv4 address (`127.0.0.1`), an IPv6 address in brackets (`[::1]`), an
    /// opaque host of another scheme (`SimpleCaptureDemo`), or `""` (`myapp:///x`); nil when the
    /// URL has no authority (`mailto:x`, `javascript:...`).
    var host: String?
    /// The port, nil when none is given or it is the scheme's default.
    var port: Int?
    /// Whether `host` is an IP address (v4 or v6) rather than a name.
    var hostIsAddress = false

    static let specialSchemes: [String: Int?] = ["http": 80, "https": 443, "ws": 80, "wss": 443, "ftp": 21]

    /// Whether the scheme is one of the standard's special schemes (`file` aside).
    var isSpecial: Bool { Self.specialSchemes[scheme] != nil }

    /// Whether the scheme is `http` or `https`.
    var isHTTP: Bool { scheme == "http" || scheme == "https" }

    /// Whether `text` holds nothing a browser strips or reads otherwise than written: no C0
    /// control, space, DEL, other white space or backslash (a browser reads `java\tscript:` as
    /// `javascript:` and `\` as `/`). Where a URL decides a redirect, such a URL is refused
    /// rather than interpreted.
    static func isWrittenPlainly(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && $0 != "\\" && !$0.properties.isWhitespace }
    }

    /// Whether a special URL's host is this machine: `localhost` (with or without its trailing
    /// dot), an IPv4 address in 127.0.0.0/8, or `[::1]`.
    var isLoopback: Bool {
        guard isSpecial, let host else { return false }
        if hostIsAddress { return host == "[::1]" || host.hasPrefix("127.") }
        return host == "localhost" || host == "localhost."
    }

    /// Whether the host is `other`'s host or, when that is a name, a subdomain of it. Names are
    /// compared without one trailing dot (`example.com.` is `example.com` in DNS); an address
    /// matches only itself; an opaque host (another scheme's) matches only itself, ignoring case.
    func hostIsWithin(_ other: BrowserURL) -> Bool {
        guard let host, let allowed = other.host, !host.isEmpty, !allowed.isEmpty else { return false }
        if hostIsAddress || other.hostIsAddress { return hostIsAddress == other.hostIsAddress && host == allowed }
        guard isSpecial, other.isSpecial else { return host.lowercased() == allowed.lowercased() }
        let name = host.hasSuffix(".") ? String(host.dropLast()) : host
        let domain = allowed.hasSuffix(".") ? String(allowed.dropLast()) : allowed
        guard !name.isEmpty, !domain.isEmpty else { return false }
        return name == domain || name.hasSuffix("." + domain)
    }

    /// Parses `text` as a browser would, up to the end of its authority; nil where the browser
    /// would fail to parse it (and for non-ASCII hosts and `file:` URLs, see above).
    init?(_ text: String) {
        // Strip leading and trailing C0 controls and spaces; remove every tab and newline.
        var bytes = Array(text.utf8)
        while let first = bytes.first, first <= 0x20 { bytes.removeFirst() }
        while let last = bytes.last, last <= 0x20 { bytes.removeLast() }
        bytes.removeAll { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
        // Scheme: an ASCII letter, then letters, digits, `+`, `-`, `.`, up to `:`.
        guard let first = bytes.first, Self.isLetter(first) else { return nil }
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        let schemeBytes = bytes[..<colon]
        guard
            schemeBytes.allSatisfy({
                Self.isLetter($0) || Self.isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".")
            })
        else { return nil }
        scheme = String(decoding: schemeBytes.map(Self.lowercased), as: UTF8.self)
        guard scheme != "file" else { return nil }
        var rest = bytes[(colon + 1)...]
        let special = Self.specialSchemes[scheme] != nil
        if special {
            // Special authority (ignore) slashes: any run of `/` and `\`.
            while let byte = rest.first, byte == UInt8(ascii: "/") || byte == UInt8(ascii: "\\") { rest.removeFirst() }
        } else {
            // Path or authority: only `//` starts an authority; anything else has no host.
            guard rest.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")]) else {
                host = nil
                port = nil
                return
            }
            rest.removeFirst(2)
        }
        // Authority: up to `/`, `?`, `#` (and `\` for a special scheme); the host follows its last `@`.
        let isEnd: (UInt8) -> Bool = { byte in
            byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") || (special && byte == UInt8(ascii: "\\"))
        }
        let authority = rest.prefix { !isEnd($0) }
        var hostAndPort = authority[...]
        if let at = authority.lastIndex(of: UInt8(ascii: "@")) {
            hostAndPort = authority[(at + 1)...]
            // Credentials and no host.
            guard !hostAndPort.isEmpty else { return nil }
        }
        // Host: up to a `:` outside brackets.
        var insideBrackets = false
        var hostEnd = hostAndPort.endIndex
        for index in hostAndPort.indices {
            let byte = hostAndPort[index]
            if byte == UInt8(ascii: "[") { insideBrackets = true }
            if byte == UInt8(ascii: "]") { insideBrackets = false }
            if byte == UInt8(ascii: ":"), !insideBrackets {
                hostEnd = index
                break
            }
        }
        let hostBytes = Array(hostAndPort[..<hostEnd])
        if hostEnd < hostAndPort.endIndex {
            // A `:` needs a host before it.
            guard !hostBytes.isEmpty else { return nil }
            let digits = hostAndPort[(hostEnd + 1)...]
            guard digits.allSatisfy(Self.isDigit) else { return nil }
            if !digits.isEmpty {
                // Leading zeros are allowed (`:0080`); the value must fit in 16 bits.
                let significant = digits.drop { $0 == UInt8(ascii: "0") }
                guard significant.count <= 5,
                    let value = Int(String(decoding: significant.isEmpty ? [UInt8(ascii: "0")][...] : significant, as: UTF8.self)),
                    value <= 65535
                else { return nil }
                port = Self.specialSchemes[scheme].flatMap { $0 } == value ? nil : value
            }
        }
        if special {
            guard !hostBytes.isEmpty, let parsed = Self.specialHost(hostBytes) else { return nil }
            (host, hostIsAddress) = parsed
        } else if hostBytes.first == UInt8(ascii: "[") {
            guard let address = Self.bracketedIPv6(hostBytes) else { return nil }
            (host, hostIsAddress) = (address, true)
        } else {
            guard let opaque = Self.opaqueHost(hostBytes) else { return nil }
            host = opaque
        }
    }

    // MARK: hosts

    /// A special scheme's host: an IPv6 address in brackets, or a domain (percent-decoded,
    /// lower-cased), which is an IPv4 address when it ends in a number.
    static func specialHost(_ input: [UInt8]) -> (host: String, isAddress: Bool)? {
        if input.first == UInt8(ascii: "[") {
            return bracketedIPv6(input).map { ($0, true) }
        }
        let decoded = percentDecoded(input)
        // Domain to ASCII: an ASCII domain is lower-cased (Punycode labels taken as written);
        // anything else would go through UTS #46, which this parser leaves to the browser.
        guard !decoded.isEmpty, decoded.allSatisfy({ $0 < 0x80 }) else { return nil }
        let domain = decoded.map(lowercased)
        guard !domain.contains(where: isForbiddenInDomain) else { return nil }
        if endsInANumber(domain) {
            return ipv4(domain).map { (serialize(ipv4: $0), true) }
        }
        return (String(decoding: domain, as: UTF8.self), false)
    }

    /// Another scheme's host: as written, C0 controls, space and non-ASCII bytes
    /// percent-encoded; a forbidden host code point refuses it.
    static func opaqueHost(_ input: [UInt8]) -> String? {
        guard !input.contains(where: isForbiddenInHost) else { return nil }
        var out = ""
        for byte in input {
            if byte < 0x20 || byte >= 0x7F {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded(to: 2)
            } else {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            }
        }
        return out
    }

    /// `[...]`: the IPv6 address inside, serialized in brackets.
    static func bracketedIPv6(_ input: [UInt8]) -> String? {
        guard input.count >= 2, input.first == UInt8(ascii: "["), input.last == UInt8(ascii: "]") else { return nil }
        return ipv6(Array(input.dropFirst().dropLast())).map { "[" + serialize(ipv6: $0) + "]" }
    }

    /// The forbidden host code points: NUL, tab, LF, CR, space, `#`, `/`, `:`, `<`, `>`, `?`,
    /// `@`, `[`, `\`, `]`, `^`, `|`.
    static func isForbiddenInHost(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x00, 0x09, 0x0A, 0x0D, 0x20, 0x23, 0x2F, 0x3A, 0x3C, 0x3E, 0x3F, 0x40, 0x5B, 0x5C, 0x5D, 0x5E, 0x7C: true
        default: false
        }
    }

    /// The forbidden domain code points: the forbidden host code points, C0 controls, `%` and DEL.
    static func isForbiddenInDomain(_ byte: UInt8) -> Bool {
        isForbiddenInHost(byte) || byte < 0x20 || byte == 0x25 || byte == 0x7F
    }

    static func percentDecoded(_ input: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            if input[index] == UInt8(ascii: "%"), index + 2 < input.count, let high = hexValue(input[index + 1]), let low = hexValue(input[index + 2])
            {
                out.append(UInt8(high * 16 + low))
                index += 3
            } else {
                out.append(input[index])
                index += 1
            }
        }
        return out
    }

    // MARK: IPv4

    /// Whether the domain's last label (before one trailing dot) is a number, so that the
    /// domain must parse as an IPv4 address.
    static func endsInANumber(_ domain: [UInt8]) -> Bool {
        var parts = domain.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true {
            if parts.count == 1 { return false }
            parts.removeLast()
        }
        guard let last = parts.last else { return false }
        if !last.isEmpty, last.allSatisfy(isDigit) { return true }
        return ipv4Number(Array(last)) != nil
    }

    /// One part of an IPv4 address: decimal, `0x` hexadecimal or `0` octal; nil when it is not a
    /// number. Values past 2^32 are kept as 2^32 (they fail the range checks all the same).
    static func ipv4Number(_ input: [UInt8]) -> UInt64? {
        guard !input.isEmpty else { return nil }
        var digits = input[...]
        var radix: UInt64 = 10
        if digits.count >= 2, digits.first == UInt8(ascii: "0"), digits[digits.startIndex + 1] | 0x20 == UInt8(ascii: "x") {
            digits = digits.dropFirst(2)
            radix = 16
        } else if digits.count >= 2, digits.first == UInt8(ascii: "0") {
            digits = digits.dropFirst()
            radix = 8
        }
        var value: UInt64 = 0
        for byte in digits {
            guard let digit = hexValue(byte).map(UInt64.init), digit < radix else { return nil }
            value = min(value * radix + digit, 1 << 32)
        }
        return value
    }

    /// The IPv4 parser: one to four numbers, the last filling the bytes the others leave.
    static func ipv4(_ input: [UInt8]) -> UInt32? {
        var parts = input.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        if parts.last?.isEmpty == true, parts.count > 1 { parts.removeLast() }
        guard parts.count <= 4 else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            guard let number = ipv4Number(Array(part)) else { return nil }
            numbers.append(number)
        }
        guard let last = numbers.last, numbers.dropLast().allSatisfy({ $0 <= 255 }) else { return nil }
        guard last < UInt64(1) << (8 * (5 - numbers.count)) else { return nil }
        var address = last
        for (index, number) in numbers.dropLast().enumerated() {
            address += number << (8 * (3 - index))
        }
        return UInt32(address)
    }

    static func serialize(ipv4 address: UInt32) -> String {
        (0..<4).map { String((address >> (8 * (3 - $0))) & 0xFF) }.joined(separator: ".")
    }

    // MARK: IPv6

    /// The IPv6 parser: eight 16-bit pieces, `::` once, a dotted IPv4 tail.
    static func ipv6(_ input: [UInt8]) -> [UInt16]? {
        var address = [UInt16](repeating: 0, count: 8)
        var pieceIndex = 0
        var compress: Int?
        var pointer = 0
        func at(_ index: Int) -> UInt8? { index < input.count ? input[index] : nil }
        if at(pointer) == UInt8(ascii: ":") {
            guard at(pointer + 1) == UInt8(ascii: ":") else { return nil }
            pointer += 2
            pieceIndex += 1
            compress = pieceIndex
        }
        while let c = at(pointer) {
            guard pieceIndex < 8 else { return nil }
            if c == UInt8(ascii: ":") {
                guard compress == nil else { return nil }
                pointer += 1
                pieceIndex += 1
                compress = pieceIndex
                continue
            }
            var value: UInt32 = 0
            var length = 0
            while length < 4, let byte = at(pointer), let digit = hexValue(byte) {
                value = value * 16 + UInt32(digit)
                pointer += 1
                length += 1
            }
            if at(pointer) == UInt8(ascii: ".") {
                guard length > 0 else { return nil }
                pointer -= length
                guard pieceIndex <= 6 else { return nil }
                var numbersSeen = 0
                while at(pointer) != nil {
                    var piece: UInt32?
                    if numbersSeen > 0 {
                        guard at(pointer) == UInt8(ascii: "."), numbersSeen < 4 else { return nil }
                        pointer += 1
                    }
                    guard let byte = at(pointer), isDigit(byte) else { return nil }
                    while let byte = at(pointer), isDigit(byte) {
                        let number = UInt32(byte - UInt8(ascii: "0"))
                        if let current = piece {
                            guard current != 0 else { return nil }
                            piece = current * 10 + number
                        } else {
                            piece = number
                        }
                        guard piece! <= 255 else { return nil }
                        pointer += 1
                    }
                    address[pieceIndex] = address[pieceIndex] &* 0x100 &+ UInt16(piece!)
                    numbersSeen += 1
                    if numbersSeen == 2 || numbersSeen == 4 { pieceIndex += 1 }
                }
                guard numbersSeen == 4 else { return nil }
                break
            } else if at(pointer) == UInt8(ascii: ":") {
                pointer += 1
                guard at(pointer) != nil else { return nil }
            } else if at(pointer) != nil {
                return nil
            }
            address[pieceIndex] = UInt16(value)
            pieceIndex += 1
        }
        if let compress {
            var swaps = pieceIndex - compress
            pieceIndex = 7
            while pieceIndex != 0, swaps > 0 {
                address.swapAt(pieceIndex, compress + swaps - 1)
                pieceIndex -= 1
                swaps -= 1
            }
        } else if pieceIndex != 8 {
            return nil
        }
        return address
    }

    /// Lower-case hexadecimal pieces, the first longest run of two or more zero pieces as `::`.
    static func serialize(ipv6 address: [UInt16]) -> String {
        var compress: Int?
        var longest = 1
        var index = 0
        while index < 8 {
            guard address[index] == 0 else {
                index += 1
                continue
            }
            var end = index
            while end < 8, address[end] == 0 { end += 1 }
            if end - index > longest {
                longest = end - index
                compress = index
            }
            index = end
        }
        var out = ""
        var ignoreZero = false
        for index in 0..<8 {
            if ignoreZero, address[index] == 0 { continue }
            ignoreZero = false
            if compress == index {
                out += index == 0 ? "::" : ":"
                ignoreZero = true
                continue
            }
            out += String(address[index], radix: 16)
            if index != 7 { out += ":" }
        }
        return out
    }

    // MARK: bytes

    static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    static func lowercased(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }

    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte - 0x30)
        case 0x41...0x46: Int(byte - 0x41 + 10)
        case 0x61...0x66: Int(byte - 0x61 + 10)
        default: nil
        }
    }
}

private extension String {
    func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
