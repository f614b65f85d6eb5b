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
        let hex = key.withUnsafeBytes { bytes in
            bytes.map { byte in
                let digits = Array("0123456789abcdef")
                return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
            }.joined()
        }
        return RefreshSecret(unchecked: hex)
    }

    /// A secret read back from storage; nil unless it is 40 hexadecimal characters.
    public init?(_ value: String) {
        guard value.utf8.count == 40,
            value.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) || (0x41...0x46).contains($0) })
        else {
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
        let message = Data("refresh_access_token\n\(date)\n\(accessToken)\n".utf8)
        let key = SymmetricKey(data: Data(secret.value.utf8))
        return Data(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: key)).base64EncodedString()
    }

    /// Whether `signature` signs `accessToken` at `date` with `secret` (compared in constant time).
    public static func verify(_ signature: String, accessToken: String, date: String, secret: RefreshSecret) -> Bool {
        let expected = Array(sign(accessToken: accessToken, date: date, secret: secret).utf8)
        let given = Array(signature.utf8)
        guard expected.count == given.count else { return false }
        return zip(expected, given).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
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
        return
            """
            \(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday)) \(pad(parts.tm_hour)):\(pad(parts.tm_min)):\
            \(pad(parts.tm_sec))
            """
    }

    /// Seconds since 1970 of a `yyyy-MM-dd HH:mm:ss` UTC date; nil when it is not one.
    public static func epochSeconds(of date: String) -> Int? {
        let bytes = Array(date.utf8)
        guard bytes.count == 19, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: " "),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int? { Int(String(decoding: bytes[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            CivilDate(year: year, month: month, day: day) != nil, hour < 24, minute < 60, second < 60
        else { return nil }
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
