import SQLKit

/// Ending sessions: one token at once (`/oauth/revoke`), or every session of an account but
/// the caller's (a password change) or all of them (a reset through the email link).
///
/// A session is a refresh chain: a Capture session is one `access_tokens` row (a refresh
/// rotates the row in place), an `/oauth/token` grant is the access and refresh tokens that
/// share a `chain`.
extension CaptureStore {
    /// What `revoke(_:)` ended.
    enum Revocation: Sendable, Hashable {
        /// An access token's session (and its refresh chain).
        case accessToken
        /// A refresh token's grant (its refresh and access tokens).
        case refreshToken
        /// The token is unknown (or was revoked or used already).
        case unknown
    }

    /// Ends the session of an access token or a refresh token, whichever `token` is, at once.
    /// `hint` (`access_token` or `refresh_token`) says which table to look in first.
    func revoke(_ token: String, hint: String? = nil) async throws -> Revocation {
        let hash = Self.hash(token)
        return try await write { db in
            let refreshFirst = hint == "refresh_token"
            for table in refreshFirst ? ["refresh_tokens", "access_tokens"] : ["access_tokens", "refresh_tokens"] {
                guard let row = try await db.raw("SELECT chain FROM \(ident: table) WHERE token_hash = \(bind: hash)").first() else { continue }
                let kind: Revocation = table == "access_tokens" ? .accessToken : .refreshToken
                guard let chain = try row.optionalString("chain") else {
                    try await db.raw("DELETE FROM \(ident: table) WHERE token_hash = \(bind: hash)").run()
                    return kind
                }
                try await db.raw("DELETE FROM access_tokens WHERE chain = \(bind: chain)").run()
                try await db.raw("DELETE FROM refresh_tokens WHERE chain = \(bind: chain)").run()
                return kind
            }
            return .unknown
        }
    }

    /// Ends every session of `userID` (access tokens, their refresh chains, the refresh tokens
    /// of `/oauth/token`) except `kept`'s, when given: the session that changed the password
    /// goes on (with its whole chain). The account's authorization codes that `/oauth/token`
    /// has not redeemed yet end too: a code is a session not yet begun. Returns how many rows
    /// it deleted.
    @discardableResult
    func revokeSessions(userID: Int64, keeping kept: StoredToken? = nil) async throws -> Int {
        let keptChain = kept?.chain
        let keptHash = kept?.tokenHash
        return try await write { db -> Int in
            func count(_ sql: SQLQueryString) async throws -> Int { try await db.raw(sql).all().count }
            let codes = try await count(
                "DELETE FROM authorization_codes WHERE user_id = \(bind: userID) AND redeemed_chain IS NULL RETURNING 1 AS gone")
            if let chain = keptChain {
                return try await count(
                    "DELETE FROM access_tokens WHERE user_id = \(bind: userID) AND chain IS DISTINCT FROM \(bind: chain) RETURNING 1 AS gone")
                    + count(
                        "DELETE FROM refresh_tokens WHERE user_id = \(bind: userID) AND chain IS DISTINCT FROM \(bind: chain) RETURNING 1 AS gone")
                    + codes
            }
            return try await count(
                "DELETE FROM access_tokens WHERE user_id = \(bind: userID) AND token_hash IS DISTINCT FROM \(bind: keptHash) RETURNING 1 AS gone")
                + count("DELETE FROM refresh_tokens WHERE user_id = \(bind: userID) RETURNING 1 AS gone") + codes
        }
    }

    /// Deletes the one-time codes of `userID`: of `kinds`, or all of them.
    func revokeCodes(userID: Int64, kinds: [String]? = nil) async throws {
        try await write { db in
            if let kinds {
                for kind in kinds { try await db.raw("DELETE FROM codes WHERE user_id = \(bind: userID) AND kind = \(bind: kind)").run() }
            } else {
                try await db.raw("DELETE FROM codes WHERE user_id = \(bind: userID)").run()
            }
        }
    }
}
