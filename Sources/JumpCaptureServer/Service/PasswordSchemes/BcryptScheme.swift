import HummingbirdBcrypt

/// `password-bcrypt`: a bcrypt hash, `$2a$`, `$2b$` or `$2y$` (PHP's name for what OpenBSD
/// calls `$2b$`, checked as such), then the cost and 53 characters of salt and hash.
struct BcryptScheme: PasswordHashScheme {
    let captureType = "password-bcrypt"
    let summary = "bcrypt: $2a$, $2b$ or $2y$"

    func verify(_ password: String, _ hash: ImportedPasswordHash) -> Bool? {
        let value = hash.value
        guard value.utf8.count == 60 else { return nil }
        if value.hasPrefix("$2a$") || value.hasPrefix("$2b$") { return Bcrypt.verify(password, hash: value) }
        if value.hasPrefix("$2y$") { return Bcrypt.verify(password, hash: "$2b$" + value.dropFirst(4)) }
        return nil
    }
}
