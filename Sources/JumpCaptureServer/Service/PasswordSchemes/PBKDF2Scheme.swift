import Crypto

/// `password-pbkdf2-sha1`, `-sha256`, `-sha512`: PBKDF2 (RFC 8018) with HMAC of that digest.
/// Capture does not document the encoding; two common ones are read:
/// - passlib's (`$pbkdf2$N$salt$hash` for SHA-1, `$pbkdf2-sha256$...`, `$pbkdf2-sha512$...`):
///   salt and hash in passlib's adapted base-64 (`.` for `+`, no padding);
/// - Django's (`pbkdf2_sha1$N$salt$hash`, `pbkdf2_sha256$...`): the salt used as its text, the
///   hash in standard base-64.
/// At most 10,000,000 rounds: more is taken for a damaged value, not worked through.
struct PBKDF2Scheme<Hash: HashFunction>: PasswordHashScheme {
    let captureType: String
    let passlibPrefix: String
    let djangoPrefix: String

    var summary: String { "PBKDF2: \(passlibPrefix)N$salt$hash (passlib) or \(djangoPrefix)N$salt$hash (Django)" }

    func verify(_ password: String, _ hash: ImportedPasswordHash) -> Bool? {
        let passlib = hash.value.hasPrefix(passlibPrefix)
        guard passlib || hash.value.hasPrefix(djangoPrefix) else { return nil }
        let parts = hash.value.dropFirst(passlib ? passlibPrefix.count : djangoPrefix.count)
            .split(separator: "$", omittingEmptySubsequences: false)
        guard parts.count == 3, let rounds = Int(parts[0]), (1...10_000_000).contains(rounds),
            let salt = passlib ? HashText.base64(String(parts[1]), adapted: true) : Array(parts[1].utf8),
            let expected = HashText.base64(String(parts[2]), adapted: passlib), !expected.isEmpty, expected.count <= 1024
        else { return nil }
        return HashText.equal(Self.derive(Array(password.utf8), salt: salt, rounds: rounds, count: expected.count), expected)
    }

    /// PBKDF2-HMAC of `password`: `count` bytes.
    static func derive(_ password: [UInt8], salt: [UInt8], rounds: Int, count: Int) -> [UInt8] {
        // HMAC's inner and outer states after the padded key, copied for each message.
        var key = password.count > Hash.blockByteCount ? Array(Hash.hash(data: password)) : password
        key += [UInt8](repeating: 0, count: Hash.blockByteCount - key.count)
        var inner = Hash(), outer = Hash()
        inner.update(data: key.map { $0 ^ 0x36 })
        outer.update(data: key.map { $0 ^ 0x5c })
        func hmac(_ message: [UInt8]) -> [UInt8] {
            var innerCopy = inner, outerCopy = outer
            innerCopy.update(data: message)
            outerCopy.update(data: Array(innerCopy.finalize()))
            return Array(outerCopy.finalize())
        }
        var out: [UInt8] = []
        var block: UInt32 = 1
        while out.count < count {
            var u = hmac(salt + [UInt8(block >> 24), UInt8(block >> 16 & 0xff), UInt8(block >> 8 & 0xff), UInt8(block & 0xff)])
            var t = u
            for _ in 1..<rounds {
                u = hmac(u)
                for index in t.indices { t[index] ^= u[index] }
            }
            out += t
            block += 1
        }
        return Array(out.prefix(count))
    }
}
