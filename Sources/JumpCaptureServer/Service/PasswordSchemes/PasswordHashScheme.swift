import Crypto
import JumpForms

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A password hash made by another system and imported with its record, as Capture holds one:
/// Capture's type name (`password-md5`), the value, and for some types a separate salt
/// (`{"type": "password-md5-salted-right-base64", "value": "...", "salt": "S41t"}`).
struct ImportedPasswordHash: Sendable, Hashable {
    /// Capture's name of the type, lower-cased (`password-crypt-sha512`).
    var type: String
    var value: String
    var salt: String?

    init(type: String, value: String, salt: String? = nil) {
        self.type = type.lowercased()
        self.value = value
        self.salt = salt
    }

    /// Reads Capture's password object (an owner's record, an export line, a dataload cell):
    /// an object with string `type` and `value` and an optional string `salt`; nil otherwise.
    init?(captureAttribute: JSONValue) {
        guard case .string(let type)? = captureAttribute["type"], case .string(let value)? = captureAttribute["value"] else { return nil }
        var salt: String?
        switch captureAttribute["salt"] {
        case nil, .null?: salt = nil
        case .string(let text)?: salt = text
        default: return nil
        }
        self.init(type: type, value: value, salt: salt)
    }

    /// Reads the stored text (`storedText`); nil for a text of another format.
    init?(storedText: String) {
        guard storedText.hasPrefix("{"), let object = try? JSONValue.parse(storedText) else { return nil }
        self.init(captureAttribute: object)
    }

    /// What the users table keeps in place of the server's own hash: Capture's object as JSON
    /// text. It begins with `{`, which no hash of the server's own does (`PasswordHash`).
    var storedText: String {
        var entries: [(key: String, value: JSONValue)] = [("type", .string(type)), ("value", .string(value))]
        if let salt { entries.append(("salt", .string(salt))) }
        return JSONValue.object(entries).serialized()
    }
}

/// One kind of imported password hash: how a value of its Capture type is read and checked.
/// The kinds the server reads are the list `PasswordHashSchemes.all`.
protocol PasswordHashScheme: Sendable {
    /// Capture's name of the type (`password-crypt-sha512`).
    var captureType: String { get }
    /// The forms of the value read, in a few words (docs and tests).
    var summary: String { get }
    /// Whether `password` is the one `hash` was made from; nil when the value (or salt) is in no
    /// form this scheme reads. Comparisons take the same time wherever the texts differ.
    func verify(_ password: String, _ hash: ImportedPasswordHash) -> Bool?
}

/// The imported password types the server checks at sign-in: every type Capture lists for
/// imported passwords (docs/local-server.md, "Imported password hashes"), and `password-sha`
/// (SHA-1 hex), which Janrain's dataload samples use.
enum PasswordHashSchemes {
    static let all: [any PasswordHashScheme] = [
        BcryptScheme(),
        SHACryptScheme<SHA256>.sha256,
        SHACryptScheme<SHA512>.sha512,
        MD5CryptScheme(),
        DESCryptScheme(),
        DigestScheme<Insecure.MD5>(captureType: "password-md5"),
        DigestScheme<Insecure.SHA1>(captureType: "password-sha"),
        DigestScheme<SHA256>(captureType: "password-sha-256"),
        DigestScheme<SHA512>(captureType: "password-sha-512"),
        SaltedMD5Scheme.left,
        SaltedMD5Scheme.right,
        PBKDF2Scheme<Insecure.SHA1>(captureType: "password-pbkdf2-sha1", passlibPrefix: "$pbkdf2$", djangoPrefix: "pbkdf2_sha1$"),
        PBKDF2Scheme<SHA256>(captureType: "password-pbkdf2-sha256", passlibPrefix: "$pbkdf2-sha256$", djangoPrefix: "pbkdf2_sha256$"),
        PBKDF2Scheme<SHA512>(captureType: "password-pbkdf2-sha512", passlibPrefix: "$pbkdf2-sha512$", djangoPrefix: "pbkdf2_sha512$"),
        PHPassScheme.md5,
        PHPassScheme.sha512
    ]

    private static let byType: [String: any PasswordHashScheme] = Dictionary(
        all.map { ($0.captureType, $0) }, uniquingKeysWith: { first, _ in first })

    /// The scheme for a Capture type name (any case); nil for a type the server does not read.
    static func scheme(for type: String) -> (any PasswordHashScheme)? { byType[type.lowercased()] }
}

/// Encodings that hashes are written in.
enum HashText {
    /// The alphabet of crypt(3)'s base-64 (`./0-9A-Za-z`).
    static let crypt64 = Array("./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    /// The value (0...63) of a crypt(3) base-64 character; nil for another byte.
    static func crypt64Value(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "."): 0
        case UInt8(ascii: "/"): 1
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0")) + 2
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): Int(byte - UInt8(ascii: "A")) + 12
        case UInt8(ascii: "a")...UInt8(ascii: "z"): Int(byte - UInt8(ascii: "a")) + 38
        default: nil
        }
    }

    /// crypt(3)'s base-64 of `bytes`, three at a time, little-endian, the low 6 bits first
    /// (phpass's `encode64`; MD5-crypt and SHA-crypt write their digests this way after
    /// reordering the bytes). A last group of one or two bytes gives two or three characters.
    static func hash64(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            var value = 0
            for offset in 0..<count { value |= Int(bytes[index + offset]) << (8 * offset) }
            for _ in 0...count {
                out.append(crypt64[value & 63])
                value >>= 6
            }
            index += 3
        }
        return out
    }

    /// The bytes of hexadecimal text (either case); nil for anything else.
    static func hex(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count % 2 == 0 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = hexValue(digits[index]), let low = hexValue(digits[index + 1]) else { return nil }
            out.append(high << 4 | low)
            index += 2
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// The bytes of standard base-64 text, padded or not; with `adapted`, passlib's variant
    /// (`.` in place of `+`, no padding). Nil for anything else.
    static func base64(_ text: String, adapted: Bool = false) -> [UInt8]? {
        var text = adapted ? String(text.map { $0 == "." ? "+" : $0 }) : text
        guard !text.isEmpty else { return nil }
        while text.utf8.count % 4 != 0 { text += "=" }
        return Data(base64Encoded: text).map { Array($0) }
    }

    /// Whether two byte strings are equal, in a time that depends on their lengths only.
    static func equal(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices { difference |= a[index] ^ b[index] }
        return difference == 0
    }
}
