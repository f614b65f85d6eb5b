import Crypto
import GRDB
import JumpCapture
import JumpForms
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Access tokens: issued, read with their session, and rotated by refreshes.
extension CaptureStore {
    /// 32 random bytes as hex, from the C library's CSPRNG (`arc4random_buf`: glibc 2.36+ fills
    /// it from `getrandom(2)`): swift-crypto's `SymmetricKey(size:)` draws bytes as good but
    /// allocates a zeroing key store around them, for every token.
    static func randomToken() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
        return Hex.encode(bytes)
    }

    static func hash(_ token: String) -> String {
        Hex.encode(Array(SHA256.hash(data: Array(token.utf8))))
    }

    func seal(_ secret: RefreshSecret) throws -> [UInt8] {
        guard let combined = try AES.GCM.seal(Array(secret.value.utf8), using: SymmetricKey(data: secretsKey)).combined else { return [] }
        return Array(combined)
    }

    func open(_ sealed: [UInt8]) -> RefreshSecret? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed), let plain = try? AES.GCM.open(box, using: SymmetricKey(data: secretsKey)) else {
            return nil
        }
        return RefreshSecret(String(decoding: plain, as: UTF8.self))
    }

    /// A new access token for `userID`, signed in `now`; the refresh secret (when the client
    /// sent one) is kept sealed beside its hash.
    func issueToken(userID: Int64, refreshSecret: RefreshSecret?, lifetime: Int, now: Int) async throws -> (token: String, expiresAt: Int) {
        let token = Self.randomToken()
        let hash = Self.hash(token)
        let sealed = try refreshSecret.map(seal)
        let expiresAt = now + lifetime
        try await pool.write { db in
            try self.purgeIfDue(db, now: now)
            try db.cachedStatement(
                sql: """
                    INSERT INTO access_tokens (token_hash, user_id, refresh_secret, expires_at, created_at, signed_in_at) VALUES (?, ?, ?, ?, ?, ?)
                    """
            ).execute(arguments: [hash, userID, sealed.map { Data($0) }, expiresAt, now, now])
        }
        return (token, expiresAt)
    }

    /// An access token's row, with its refresh secret opened (refresh needs it).
    func token(_ token: String) async throws -> StoredToken? {
        let hash = Self.hash(token)
        guard let row = try tokens.token(hash: hash) else { return nil }
        return StoredToken(
            tokenHash: hash, userID: row.userID, expiresAt: row.expiresAt, refreshSecret: row.sealedSecret.flatMap { self.open($0) },
            signedInAt: row.signedInAt, chain: row.chain)
    }

    /// An access token's session, its user and, when asked, the user's identities: one SQL
    /// statement (one row per identity), so one snapshot without a transaction.
    func session(_ token: String, identities withIdentities: Bool) async throws -> (
        token: StoredToken, user: StoredUser, identities: [StoredIdentity]?
    )? {
        let hash = Self.hash(token)
        guard let session = try tokens.session(hash: hash) else { return nil }
        let stored = StoredToken(
            tokenHash: hash, userID: session.user.id, expiresAt: session.token.expiresAt, refreshSecret: nil,
            signedInAt: session.token.signedInAt, chain: session.token.chain)
        return (stored, session.user, withIdentities ? session.identities : nil)
    }

    /// A refresh's rotation: the old token's hash, and the new token's.
    struct Rotation: Sendable {
        var oldHash: String
        var newHash: String
        var expiresAt: Int
        var now: Int
    }

    /// Replaces a token by a new one with the same (sealed) refresh secret and sign-in, in a
    /// transaction that also checks the old token is still there: of concurrent refreshes of
    /// one token, one rotates it and the others get nil. Concurrent refreshes share one
    /// transaction (`GroupCommit`); each is answered once that transaction has committed. The
    /// new token expires after `lifetime`, or when the session can no longer be refreshed
    /// (`refreshLifetime` after its sign-in), whichever comes first.
    func rotate(_ old: StoredToken, lifetime: Int, now: Int) async throws -> (token: String, expiresAt: Int)? {
        let token = Self.randomToken()
        let hash = Self.hash(token)
        let expiresAt = min(now + lifetime, old.signedInAt + refreshLifetime)
        let rotated = try await rotations.submit(Rotation(oldHash: old.tokenHash, newHash: hash, expiresAt: expiresAt, now: now))
        return rotated ? (token, expiresAt) : nil
    }

    /// One rotation, inside the caller's transaction: false when the old token is gone.
    static func rotate(_ rotation: Rotation, purges: PurgeSchedule, refreshLifetime: Int = refreshWindow, _ db: Database) throws -> Bool {
        try purgeIfDue(db, now: rotation.now, purges, refreshLifetime: refreshLifetime)
        // The row takes the new hash in place: its user (and the index on it) and its sealed
        // secret stay as they are, so no foreign-key check and one row change instead of an
        // insert and a delete.
        try db.cachedStatement(sql: "UPDATE access_tokens SET token_hash = ?, expires_at = ?, created_at = ? WHERE token_hash = ?")
            .execute(arguments: [rotation.newHash, rotation.expiresAt, rotation.now, rotation.oldHash])
        return db.changesCount == 1
    }
}
