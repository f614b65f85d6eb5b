import Crypto
import JumpForms
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The client's refresh secret: 40 hexadecimal characters from a CSPRNG, made at every
/// sign-in or registration and never shown.
public struct RefreshSecret: Sendable, Hashable {
    public let value: String

    /// A new secret: 20 random bytes from swift-crypto's secure generator, as hex.
    public static func generate() -> RefreshSecret {
        let key = SymmetricKey(size: SymmetricKeySize(bitCount: 160))
        let hex = key.withUnsafeBytes { bytes in bytes.map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined() }
        return RefreshSecret(unchecked: hex)
    }

    /// A secret read back from storage; nil unless it is 40 hexadecimal characters.
    public init?(_ value: String) {
        guard value.utf8.count == 40, value.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) }) else {
            return nil
        }
        self.value = value
    }

    private init(unchecked value: String) {
        self.value = value
    }
}

/// The refresh signature: Base64(HMAC-SHA1(key: refresh_secret,
/// message: "refresh_access_token\n<date>\n<access_token>\n")), date in UTC `yyyy-MM-dd HH:mm:ss`.
public enum RefreshSignature {
    public static func sign(accessToken: String, date: String, secret: RefreshSecret) -> String {
        String(decoding: signatureBytes(accessToken: accessToken, date: date, secret: secret), as: UTF8.self)
    }

    /// Whether `signature` signs `accessToken` at `date` with `secret` (compared in constant time).
    public static func verify(_ signature: String, accessToken: String, date: String, secret: RefreshSecret) -> Bool {
        let expected = signatureBytes(accessToken: accessToken, date: date, secret: secret)
        var given = signature
        return given.withUTF8 { given in
            guard expected.count == given.count else { return false }
            var difference: UInt8 = 0
            for index in 0..<expected.count { difference |= expected[index] ^ given[index] }
            return difference == 0
        }
    }

    /// The signature as Base64 text (UTF-8 bytes), signed over the message's bytes (no
    /// intermediate strings: a server checks one for every refresh). HMAC (RFC 2104) is put
    /// together here from swift-crypto's SHA-1 on byte buffers: its generic
    /// `HMAC<Insecure.SHA1>` with a `SymmetricKey` cost a refresh ~5 µs of the server's CPU,
    /// most of it generic metadata look-ups and the key's zeroing storage.
    static func signatureBytes(accessToken: String, date: String, secret: RefreshSecret) -> [UInt8] {
        var message: [UInt8] = []
        message.reserveCapacity(22 + date.utf8.count + accessToken.utf8.count)
        message += "refresh_access_token\n".utf8
        message += date.utf8
        message.append(UInt8(ascii: "\n"))
        message += accessToken.utf8
        message.append(UInt8(ascii: "\n"))
        return base64(hmacSHA1(key: Array(secret.value.utf8), message: message))
    }

    /// HMAC-SHA1 of `message` under `key` (RFC 2104; SHA-1's block is 64 bytes).
    static func hmacSHA1(key: [UInt8], message: [UInt8]) -> [UInt8] {
        let block = 64
        var key = key
        if key.count > block { key = Array(Insecure.SHA1.hash(data: key)) }
        var inner = [UInt8](repeating: 0x36, count: block)
        var outer = [UInt8](repeating: 0x5C, count: block)
        for index in key.indices {
            inner[index] ^= key[index]
            outer[index] ^= key[index]
        }
        var innerHash = Insecure.SHA1()
        inner.withUnsafeBytes { innerHash.update(bufferPointer: $0) }
        message.withUnsafeBytes { innerHash.update(bufferPointer: $0) }
        let innerDigest = innerHash.finalize()
        var outerHash = Insecure.SHA1()
        outer.withUnsafeBytes { outerHash.update(bufferPointer: $0) }
        innerDigest.withUnsafeBytes { outerHash.update(bufferPointer: $0) }
        return outerHash.finalize().withUnsafeBytes { Array($0) }
    }

    private static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Standard Base64 (RFC 4648, with padding) as UTF-8 bytes.
    static func base64(_ bytes: [UInt8]) -> [UInt8] {
        let alphabet = base64Alphabet
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            let b0 = UInt32(bytes[index])
            let b1 = count > 1 ? UInt32(bytes[index + 1]) : 0
            let b2 = count > 2 ? UInt32(bytes[index + 2]) : 0
            let group = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(group >> 18 & 63)])
            out.append(alphabet[Int(group >> 12 & 63)])
            out.append(count > 1 ? alphabet[Int(group >> 6 & 63)] : UInt8(ascii: "="))
            out.append(count > 2 ? alphabet[Int(group & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return out
    }

    /// `yyyy-MM-dd HH:mm:ss` in UTC for seconds since 1970.
    public static func dateString(epochSeconds: Int) -> String {
        var time = time_t(epochSeconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int32, _ width: Int = 2) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday)) \(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))"
    }

    /// Seconds since 1970 of a `yyyy-MM-dd HH:mm:ss` UTC date; nil when it is not one.
    public static func epochSeconds(of date: String) -> Int? {
        let bytes = Array(date.utf8)
        guard bytes.count == 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: " "),
              bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":") else { return nil }
        func number(_ range: Range<Int>) -> Int? { Int(String(decoding: bytes[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
              CivilDate(year: year, month: month, day: day) != nil, hour < 24, minute < 60, second < 60 else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        return Int(timegm(&parts))
    }

    /// Now, in seconds since 1970.
    public static var now: Int { Int(time(nil)) }
}
