import Crypto

/// `password-phpass-55` (phpass's portable hash, `$P$` or `$H$`: MD5) and
/// `password-phpass-sha512-truncated-55` (Drupal 7's `$S$`: SHA-512, the text cut to 55
/// characters). After the prefix: one character for log2 of the rounds (7...30), 8 of salt,
/// then the digest in crypt(3) base-64. A `U` before the prefix (Drupal 7's hashes upgraded
/// from MD5) means the hashed secret is the password's MD5 in lower-case hexadecimal.
struct PHPassScheme: PasswordHashScheme {
    let captureType: String
    let prefixes: [String]
    let usesSHA512: Bool

    static let md5 = PHPassScheme(captureType: "password-phpass-55", prefixes: ["$P$", "$H$"], usesSHA512: false)
    static let sha512 = PHPassScheme(captureType: "password-phpass-sha512-truncated-55", prefixes: ["$S$"], usesSHA512: true)

    var summary: String { "phpass: \(prefixes.joined(separator: " or "))<rounds><salt><hash>, 55 characters at most" }

    func verify(_ password: String, _ hash: ImportedPasswordHash) -> Bool? {
        let upgraded = hash.value.hasPrefix("U")
        let value = Array((upgraded ? hash.value.dropFirst() : Substring(hash.value)).utf8)
        guard value.count >= 12, prefixes.contains(where: { value.starts(with: $0.utf8) }),
            let log2 = HashText.crypt64Value(value[3]), (7...30).contains(log2)
        else { return nil }
        var secret = Array(password.utf8)
        if upgraded { secret = Array(Insecure.MD5.hash(data: secret).map { String($0, radix: 16).leftPadded(to: 2) }.joined().utf8) }
        let salt = Array(value[4..<12])
        var result = digest(salt + secret)
        for _ in 0..<(1 << log2) { result = digest(result + secret) }
        let made = Array((Array(value[0..<12]) + HashText.hash64(result)).prefix(55))
        return HashText.equal(made, value)
    }

    private func digest(_ bytes: [UInt8]) -> [UInt8] {
        usesSHA512 ? Array(SHA512.hash(data: bytes)) : Array(Insecure.MD5.hash(data: bytes))
    }
}

extension String {
    fileprivate func leftPadded(to count: Int) -> String { String(repeating: "0", count: max(0, count - self.count)) + self }
}
