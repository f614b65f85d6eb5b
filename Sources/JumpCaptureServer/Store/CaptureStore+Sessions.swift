import GRDB

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
        return try await pool.write { db in
            let refreshFirst = hint == "refresh_token"
            for table in refreshFirst ? ["refresh_tokens", "access_tokens"] : ["access_tokens", "refresh_tokens"] {
                guard let row = try Row.fetchOne(db, sql: "SELECT chain FROM \(table) WHERE token_hash = ?", arguments: [hash]) else { continue }
                let kind: Revocation = table == "access_tokens" ? .accessToken : .refreshToken
                guard let chain: String = row["chain"] else {
                    try db.execute(sql: "DELETE FROM \(table) WHERE token_hash = ?", arguments: [hash])
                    return kind
                }
                try db.execute(sql: "DELETE FROM access_tokens WHERE chain = ?", arguments: [chain])
                try db.execute(sql: "DELETE FROM refresh_tokens WHERE chain = ?", arguments: [chain])
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
        return try await pool.write { db -> Int in
            try db.execute(sql: "DELETE FROM authorization_codes WHERE user_id = ? AND redeemed_chain IS NULL", arguments: [userID])
            let codes = db.changesCount
            if let chain = kept?.chain {
                try db.execute(sql: "DELETE FROM access_tokens WHERE user_id = ? AND chain IS NOT ?", arguments: [userID, chain])
                var count = db.changesCount
                try db.execute(sql: "DELETE FROM refresh_tokens WHERE user_id = ? AND chain IS NOT ?", arguments: [userID, chain])
                count += db.changesCount
                return count + codes
            }
            try db.execute(sql: "DELETE FROM access_tokens WHERE user_id = ? AND token_hash IS NOT ?", arguments: [userID, kept?.tokenHash])
            var count = db.changesCount
            try db.execute(sql: "DELETE FROM refresh_tokens WHERE user_id = ?", arguments: [userID])
            count += db.changesCount
            return count + codes
        }
    }

    /// Deletes the one-time codes of `userID`: of `kinds`, or all of them.
    func revokeCodes(userID: Int64, kinds: [String]? = nil) async throws {
        try await pool.write { db in
            if let kinds {
                for kind in kinds { try db.execute(sql: "DELETE FROM codes WHERE user_id = ? AND kind = ?", arguments: [userID, kind]) }
            } else {
                try db.execute(sql: "DELETE FROM codes WHERE user_id = ?", arguments: [userID])
            }
        }
    }
}
