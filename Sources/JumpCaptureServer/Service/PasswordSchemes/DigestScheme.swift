import Crypto

/// `password-md5`, `password-sha` (SHA-1), `password-sha-256`, `password-sha-512`: one unsalted
/// digest of the password's UTF-8 bytes, written in hexadecimal (either case; Janrain's dataload
/// samples) or in standard base-64.
struct DigestScheme<Hash: HashFunction>: PasswordHashScheme {
    let captureType: String

    var summary: String { "\(Hash.Digest.byteCount * 8)-bit digest, hexadecimal or base-64" }

    func verify(_ password: String, _ hash: ImportedPasswordHash) -> Bool? {
        let size = Hash.Digest.byteCount
        let written = hash.value.utf8.count == 2 * size ? HashText.hex(hash.value) : HashText.base64(hash.value)
        guard let expected = written, expected.count == size else { return nil }
        return HashText.equal(Array(Hash.hash(data: Array(password.utf8))), expected)
    }
}
