import Crypto

/// `password-md5-salted-left-base64` (MD5 of salt then password) and
/// `password-md5-salted-right-base64` (MD5 of password then salt). Capture does not document the
/// encoding; two forms are read:
/// - with a `salt` key (Janrain's dataload README): the salt's UTF-8 bytes, and the value the
///   digest in hexadecimal or base-64;
/// - without one: the value is base-64 of the digest followed by the salt's bytes, as LDAP's
///   `{SMD5}` (passlib's `ldap_salted_md5`, whose salt goes on the right) writes it; the
///   `{SMD5}` prefix may be there or not.
struct SaltedMD5Scheme: PasswordHashScheme {
    let captureType: String
    let saltFirst: Bool

    static let left = SaltedMD5Scheme(captureType: "password-md5-salted-left-base64", saltFirst: true)
    static let right = SaltedMD5Scheme(captureType: "password-md5-salted-right-base64", saltFirst: false)

    var summary: String {
        "MD5 of \(saltFirst ? "salt + password" : "password + salt"): salt key and hex or base-64 digest, or base-64 of digest + salt"
    }

    func verify(_ password: String, _ hash: ImportedPasswordHash) -> Bool? {
        let expected: [UInt8]
        let salt: [UInt8]
        if let text = hash.salt {
            let written = hash.value.utf8.count == 32 ? HashText.hex(hash.value) : HashText.base64(hash.value)
            guard let written, written.count == 16 else { return nil }
            (expected, salt) = (written, Array(text.utf8))
        } else {
            let value = hash.value.hasPrefix("{SMD5}") ? String(hash.value.dropFirst(6)) : hash.value
            guard let joined = HashText.base64(value), joined.count > 16 else { return nil }
            (expected, salt) = (Array(joined.prefix(16)), Array(joined.dropFirst(16)))
        }
        let secret = Array(password.utf8)
        let digest = Insecure.MD5.hash(data: saltFirst ? salt + secret : secret + salt)
        return HashText.equal(Array(digest), expected)
    }
}
