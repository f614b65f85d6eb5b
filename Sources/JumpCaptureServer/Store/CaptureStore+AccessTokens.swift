import Crypto
import SQLKit
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
        let sealed = try refreshSecret.map(seal).map { Data($0) }
        let expiresAt = now + lifetime
        _ = try await writeStatement(NewToken(tokenHash: hash, userID: userID, sealedSecret: sealed, expiresAt: expiresAt, now: now), now: now)
        return (token, expiresAt)
    }

    /// A new access token's row (a sign-in's write). Without a refresh secret (a NULL, which
    /// has no type of its own) it runs unnamed on PostgreSQL.
    struct NewToken: PreparedStatement {
        var tokenHash: String
        var userID: Int64
        var sealedSecret: Data?
        var expiresAt: Int
        var now: Int

        var query: SQLQueryString {
            """
            INSERT INTO access_tokens (token_hash, user_id, refresh_secret, expires_at, created_at, signed_in_at)
            VALUES (\(bind: tokenHash), \(bind: userID), \(bind: sealedSecret), \(bind: expiresAt), \(bind: now), \(bind: now))
            """
        }
    }

    /// A token replaced by a new one, if its row is still there (a refresh's write): the row
    /// takes the new hash in place, so its user (and the index on it) and its sealed secret
    /// stay as they are: no foreign-key check, and one row change instead of an insert and a
    /// delete. One row (`rotated`) when it rotated, none when the old token was gone.
    struct TokenRotation: PreparedStatement {
        var oldHash: String
        var newHash: String
        var expiresAt: Int
        var now: Int

        var query: SQLQueryString {
            """
            UPDATE access_tokens SET token_hash = \(bind: newHash), expires_at = \(bind: expiresAt), created_at = \(bind: now)
            WHERE token_hash = \(bind: oldHash) RETURNING 1 AS rotated
            """
        }
    }

    /// A token row's columns, as `token(_:)` and `session(_:identities:)` read them.
    private static let tokenColumns = """
        access_tokens.user_id, access_tokens.expires_at, coalesce(access_tokens.signed_in_at, access_tokens.created_at) AS signed_in_at,
        access_tokens.chain
        """

    /// An access token's row and its sealed refresh secret (a refresh's first statement).
    struct TokenRead: PreparedStatement {
        var tokenHash: String

        var query: SQLQueryString {
            "SELECT \(unsafeRaw: CaptureStore.tokenColumns), access_tokens.refresh_secret FROM access_tokens WHERE token_hash = \(bind: tokenHash)"
        }
    }

    /// An access token's session, its user and the user's identities, one row per identity
    /// (a record read's one statement).
    struct SessionRead: PreparedStatement {
        var tokenHash: String

        var query: SQLQueryString {
            """
            SELECT \(unsafeRaw: CaptureStore.tokenColumns), users.id, users.uuid, users.record, users.password_hash, users.email_normalized,
            identities.provider, identities.identifier, identities.verified_email
            FROM access_tokens JOIN users ON users.id = access_tokens.user_id
            LEFT JOIN identities ON identities.user_id = users.id
            WHERE access_tokens.token_hash = \(bind: tokenHash) ORDER BY identities.id
            """
        }
    }

    /// A `TokenRead` row as a token, its refresh secret opened.
    func storedToken(_ row: any SQLRow, hash: String) throws -> StoredToken {
        let sealed = try row.decodeNil(column: "refresh_secret") ? nil : try row.decode(column: "refresh_secret", as: Data.self)
        return StoredToken(
            tokenHash: hash, userID: try row.int64("user_id"), expiresAt: try row.int("expires_at"),
            refreshSecret: sealed.flatMap { self.open(Array($0)) }, signedInAt: try row.int("signed_in_at"), chain: try row.optionalString("chain"))
    }

    /// An access token's session, its user and, when asked, the user's identities: one SQL
    /// statement (one row per identity), so one snapshot without a transaction.
    func session(_ token: String, identities withIdentities: Bool) async throws -> (
        token: StoredToken, user: StoredUser, identities: [StoredIdentity]?
    )? {
        let hash = Self.hash(token)
        let rows = try await read { db in try await db.all(SessionRead(tokenHash: hash)) }
        guard let first = rows.first else { return nil }
        let stored = StoredToken(
            tokenHash: hash, userID: try first.int64("user_id"), expiresAt: try first.int("expires_at"), refreshSecret: nil,
            signedInAt: try first.int("signed_in_at"), chain: try first.optionalString("chain"))
        var identities: [StoredIdentity] = []
        for row in rows {
            guard let provider = try row.optionalString("provider") else { continue }
            identities.append(
                StoredIdentity(
                    provider: provider, identifier: try row.optionalString("identifier") ?? "",
                    verifiedEmail: try row.optionalString("verified_email")))
        }
        return (stored, try Self.user(from: first), withIdentities ? identities : nil)
    }

    /// A refresh: `token`'s row is read and `check`ed, and unless the check refuses (its
    /// refusal is returned, nothing is written) the token is replaced by a new one with the
    /// same (sealed) refresh secret and sign-in. The new token expires after `lifetime`, or when
    /// the session can no longer be refreshed (`refreshLifetime` after its sign-in), whichever
    /// comes first. The read and the rotation share one lease of a connection on PostgreSQL
    /// (`readThenWrite`); the rotation checks the old token is still there, so of concurrent
    /// refreshes of one token one rotates it and the others find it not valid.
    func refresh<Refusal: Sendable>(
        _ token: String, lifetime: Int, now: Int, check: @escaping @Sendable (StoredToken) -> Refusal?
    ) async throws -> Refreshed<Refusal> {
        let hash = Self.hash(token)
        let newToken = Self.randomToken()
        let newHash = Self.hash(newToken)
        let refreshLifetime = refreshLifetime
        let (outcome, rotated) = try await readThenWrite(now: now) { db -> (Refreshed<Refusal>, TokenRotation?) in
            guard let row = try await db.all(TokenRead(tokenHash: hash)).first else { return (.notValid, nil) }
            let stored = try self.storedToken(row, hash: hash)
            if let refusal = check(stored) { return (.refused(refusal), nil) }
            let expiresAt = min(now + lifetime, stored.signedInAt + refreshLifetime)
            return (.rotated(token: newToken, expiresAt: expiresAt), TokenRotation(oldHash: hash, newHash: newHash, expiresAt: expiresAt, now: now))
        }
        if case .rotated = outcome, rotated?.count != 1 { return .notValid }
        return outcome
    }

    /// What a refresh did.
    enum Refreshed<Refusal: Sendable>: Sendable {
        /// The token is not (or no longer: another refresh rotated it first) a token.
        case notValid
        /// The check refused the token's row; nothing was written.
        case refused(Refusal)
        /// The token was replaced by `token`.
        case rotated(token: String, expiresAt: Int)
    }
}
