import Crypto

/// `password-crypt-md5`: Poul-Henning Kamp's MD5-crypt, `$1$salt$hash` (at most 8 characters
/// of salt, 1000 rounds).
struct MD5CryptScheme: PasswordHashScheme {
    let captureType = "password-crypt-md5"
    let summary = "MD5-crypt: $1$salt$hash"
    /// The order in which the digest's bytes are written, in groups of three.
    static let order = [12, 6, 0, 13, 7, 1, 14, 8, 2, 15, 9, 3, 5, 10, 4, 11]

    func verify(_ password: String, _ hash: ImportedPasswordHash) -> Bool? {
        guard hash.value.hasPrefix("$1$") else { return nil }
        let parts = hash.value.dropFirst(3).split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return nil }
        let made = HashText.hash64(Self.digest(Array(password.utf8), salt: Array(parts[0].utf8.prefix(8))).permuted(by: Self.order))
        return HashText.equal(made, Array(parts[1].utf8))
    }

    static func md5(_ parts: [UInt8]...) -> [UInt8] {
        var hasher = Insecure.MD5()
        for part in parts { hasher.update(data: part) }
        return Array(hasher.finalize())
    }

    static func digest(_ password: [UInt8], salt: [UInt8]) -> [UInt8] {
        let alternate = md5(password, salt, password)
        var first = Insecure.MD5()
        first.update(data: password)
        first.update(data: Array("$1$".utf8))
        first.update(data: salt)
        first.update(data: alternate.repeated(to: password.count))
        var length = password.count
        while length > 0 {
            // A zero byte for a set bit, else the password's first byte.
            first.update(data: length & 1 == 1 ? [0] : Array(password.prefix(1)))
            length >>= 1
        }
        var digest = Array(first.finalize())
        for round in 0..<1000 {
            var next = Insecure.MD5()
            next.update(data: round & 1 == 1 ? password : digest)
            if round % 3 != 0 { next.update(data: salt) }
            if round % 7 != 0 { next.update(data: password) }
            next.update(data: round & 1 == 1 ? digest : password)
            digest = Array(next.finalize())
        }
        return digest
    }
}
