import Crypto
import HummingbirdBcrypt
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// How the server stores passwords, and checks them.
///
/// bcrypt reads at most 72 bytes of its input (and stops at a NUL byte), while the flow lets a
/// password be longer: passwords are first reduced to a fixed-size digest, then bcrypt-hashed
/// (as passlib's `bcrypt_sha256` does). The stored text is `bcrypt-sha256$1$` followed by the
/// bcrypt hash (`$2b$<cost>$...`) of Base64(HMAC-SHA256(key: "jump-forms password 1",
/// message: the password's UTF-8 bytes)): 44 ASCII characters, no NUL, every byte of the
/// password counts. A stored text that starts with `$2` is a plain bcrypt hash of the password
/// (the format before version 1) and still verifies, with bcrypt's limits. A stored text that
/// starts with `{` is a hash imported from another system (`ImportedPasswordHash`: Capture's
/// `{"type": "password-...", "value": ...}`), checked by its type's `PasswordHashScheme`.
/// Every other format is made again, in the current one, at the next successful sign-in.
enum PasswordHash {
    /// How a check of a password against a stored text ended.
    enum Verification: Sendable, Equatable {
        case matches, wrong
        /// Nothing could be compared: an imported type the server does not read, a value in no
        /// form its type is read in, or a stored text of no known format. Says which, never
        /// the hash.
        case unreadable(String)
    }

    /// The prefix of the current format (version 1).
    static let prefix = "bcrypt-sha256$1$"

    private static var preHashKey: SymmetricKey { SymmetricKey(data: Array("jump-forms password 1".utf8)) }

    /// The text to store for `password`, at bcrypt cost `cost` (4...31). Slow by design: run it
    /// off the event loops.
    static func make(_ password: String, cost: Int) -> String {
        prefix + Bcrypt.hash(preHash(password), cost: UInt8(cost))
    }

    /// Whether `password` is the one `stored` was made from (either format); false for a
    /// stored text of no known format.
    static func verify(_ password: String, stored: String) -> Bool {
        check(password, stored: stored) == .matches
    }

    /// Checks `password` against a stored text of any format the server reads.
    static func check(_ password: String, stored: String) -> Verification {
        if stored.hasPrefix(prefix) {
            return Bcrypt.verify(preHash(password), hash: String(stored.dropFirst(prefix.count))) ? .matches : .wrong
        }
        if stored.hasPrefix("$2") { return Bcrypt.verify(password, hash: stored) ? .matches : .wrong }
        guard let imported = ImportedPasswordHash(storedText: stored) else { return .unreadable("a stored password of no known format") }
        let type = String(imported.type.prefix(80)).debugDescription
        guard let scheme = PasswordHashSchemes.scheme(for: imported.type) else {
            return .unreadable("an imported password of type \(type), which the server does not read")
        }
        guard let matches = scheme.verify(password, imported) else {
            return .unreadable("an imported password of type \(type) whose value is in no form that type is read in")
        }
        return matches ? .matches : .wrong
    }

    /// Whether a stored text (one that verified) should be made again at cost `cost`: it is in
    /// the format before version 1, or its bcrypt cost (`$2b$<cost>$...`) is lower.
    static func needsUpgrade(_ stored: String, cost: Int) -> Bool {
        guard stored.hasPrefix(prefix) else { return true }
        let parts = stored.dropFirst(prefix.count).split(separator: "$", maxSplits: 2)
        guard parts.count == 3, let storedCost = Int(parts[1]) else { return true }
        return storedCost < cost
    }

    /// Base64 of the password's HMAC-SHA256: what bcrypt hashes in version 1.
    static func preHash(_ password: String) -> String {
        Data(HMAC<SHA256>.authenticationCode(for: Array(password.utf8), using: preHashKey)).base64EncodedString()
    }
}
