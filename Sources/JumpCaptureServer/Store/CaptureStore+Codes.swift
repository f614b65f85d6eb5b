import GRDB
import JumpCapture
import JumpForms

/// One-time codes: the links of password-reset and verification emails, and `/oauth/token`'s
/// authorization codes and refresh tokens.
extension CaptureStore {
    /// A new one-time code for `userID`, stored hashed, with the locale of the email that
    /// carries it (the page the link opens speaks it).
    func issueCode(userID: Int64, kind: String, locale: String, lifetime: Int, now: Int) async throws -> String {
        let code = Self.randomToken()
        try await pool.write { db in
            try self.purgeIfDue(db, now: now)
            // Only the newest link of a kind works: an older email's link stops working.
            try db.execute(sql: "DELETE FROM codes WHERE user_id = ? AND kind = ?", arguments: [userID, kind])
            try db.execute(
                sql: "INSERT INTO codes (code_hash, user_id, kind, expires_at, locale) VALUES (?, ?, ?, ?, ?)",
                arguments: [Self.hash(code), userID, kind, now + lifetime, locale])
        }
        return code
    }

    /// The user a valid code belongs to; the code is used up.
    func consumeCode(_ code: String, kind: String, now: Int) async throws -> Int64? {
        try await pool.write { db in
            let hash = Self.hash(code)
            guard
                let row = try Row.fetchOne(db, sql: "SELECT user_id, expires_at FROM codes WHERE code_hash = ? AND kind = ?", arguments: [hash, kind])
            else {
                return nil
            }
            try db.execute(sql: "DELETE FROM codes WHERE code_hash = ?", arguments: [hash])
            let expires: Int = row["expires_at"]
            return expires > now ? row["user_id"] : nil
        }
    }

    /// A valid code, without using it up: what its email said.
    struct PendingCode: Sendable {
        /// The locale of the email (nil for codes issued before it was stored).
        var locale: String?
    }

    /// A valid code, without using it up; nil when it is not valid.
    func peekCode(_ code: String, kind: String, now: Int) async throws -> PendingCode? {
        try quickRead { db in
            try Row.fetchOne(
                db, sql: "SELECT locale FROM codes WHERE code_hash = ? AND kind = ? AND expires_at > ?",
                arguments: [Self.hash(code), kind, now]
            ).map { PendingCode(locale: $0["locale"]) }
        }
    }

    // MARK: OAuth authorization codes and refresh tokens (`/oauth/token`)

    /// A new authorization code for `userID`, stored hashed with the redirect URI of the call
    /// that made it (the one `/oauth/token` compares).
    func issueAuthorizationCode(userID: Int64, redirectURI: String?, lifetime: Int, now: Int) async throws -> String {
        let code = Self.randomToken()
        try await pool.write { db in
            try self.purgeIfDue(db, now: now)
            try db.execute(
                sql: "INSERT INTO authorization_codes (code_hash, user_id, redirect_uri, expires_at) VALUES (?, ?, ?, ?)",
                arguments: [Self.hash(code), userID, redirectURI, now + lifetime])
        }
        return code
    }

    /// What redeeming a code or a refresh token came to.
    enum Redemption: Sendable, Equatable {
        /// The new access token (lifetime `accessLifetime`) and refresh token.
        case issued(accessToken: String, refreshToken: String, expiresAt: Int)
        /// Unknown, or used already.
        case invalid
        /// Used already: a replay, and the grant it belongs to has ended (its access and
        /// refresh tokens are revoked).
        case replayed
        /// The code expired (it is used up).
        case expired
        /// The redirect URI differs from the one the code was made for (the code stays usable).
        case redirectMismatch
    }

    /// Redeems an authorization code: in one transaction the code is checked (unexpired, made
    /// for `redirectURI`), marked redeemed with the grant it starts, and an access token and a
    /// refresh token are issued. A code redeemed before ends that grant (`replayed`): whoever
    /// presents it again may have stolen it, and the tokens it bought may be theirs.
    func redeemAuthorizationCode(
        _ code: String, redirectURI: String, accessLifetime: Int, refreshLifetime: Int,
        now: Int
    ) async throws -> Redemption {
        let hash = Self.hash(code)
        return try await pool.write { db in
            try self.purgeIfDue(db, now: now)
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT user_id, redirect_uri, expires_at, redeemed_chain FROM authorization_codes WHERE code_hash = ?",
                    arguments: [hash])
            else { return .invalid }
            if let chain: String = row["redeemed_chain"] {
                try Self.endGrant(chain, db)
                return .replayed
            }
            let expiresAt: Int = row["expires_at"]
            if expiresAt <= now {
                try db.execute(sql: "DELETE FROM authorization_codes WHERE code_hash = ?", arguments: [hash])
                return .expired
            }
            if let expected: String = row["redirect_uri"], expected != redirectURI { return .redirectMismatch }
            // A new grant: its refresh chain starts now and ends `refreshLifetime` later.
            let chain = Self.randomToken()
            try db.execute(sql: "UPDATE authorization_codes SET redeemed_chain = ? WHERE code_hash = ?", arguments: [chain, hash])
            return try Self.issueOAuthTokens(
                userID: row["user_id"], chain: chain, signedInAt: now, accessLifetime: accessLifetime,
                refreshLifetime: refreshLifetime, now: now, db)
        }
    }

    /// Redeems a refresh token: marked used, and a new access token and refresh token issued, in
    /// one transaction. The new ones belong to the same grant: the chain still ends
    /// `refreshLifetime` after the grant began. A refresh token used before ends its whole
    /// grant (`replayed`, OAuth 2.0 Security BCP section 4.14.2): of two concurrent
    /// redemptions one wins, and the other ends the grant the winner continues.
    func redeemRefreshToken(_ token: String, accessLifetime: Int, refreshLifetime: Int, now: Int) async throws -> Redemption {
        let hash = Self.hash(token)
        return try await pool.write { db in
            try self.purgeIfDue(db, now: now)
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT user_id, expires_at, chain, signed_in_at, used_at FROM refresh_tokens WHERE token_hash = ?",
                    arguments: [hash])
            else {
                return .invalid
            }
            let chain: String = row["chain"] ?? hash
            if row["used_at"] as Int? != nil {
                try Self.endGrant(chain, db)
                return .replayed
            }
            let expiresAt: Int = row["expires_at"]
            let signedInAt: Int = row["signed_in_at"] ?? now
            if expiresAt <= now || signedInAt + refreshLifetime <= now {
                try db.execute(sql: "DELETE FROM refresh_tokens WHERE token_hash = ?", arguments: [hash])
                return .expired
            }
            try db.execute(sql: "UPDATE refresh_tokens SET used_at = ? WHERE token_hash = ?", arguments: [now, hash])
            return try Self.issueOAuthTokens(
                userID: row["user_id"], chain: chain, signedInAt: signedInAt,
                accessLifetime: accessLifetime, refreshLifetime: refreshLifetime, now: now, db)
        }
    }

    /// Ends the `/oauth/token` grant `chain`: its access tokens and refresh tokens (used ones
    /// too: the grant is over).
    private static func endGrant(_ chain: String, _ db: Database) throws {
        try db.execute(sql: "DELETE FROM access_tokens WHERE chain = ?", arguments: [chain])
        try db.execute(sql: "DELETE FROM refresh_tokens WHERE chain = ?", arguments: [chain])
    }

    /// An access token and a refresh token of the grant `chain`, begun at `signedInAt`: the
    /// refresh token lasts until the chain ends, the access token `accessLifetime` (or less).
    private static func issueOAuthTokens(
        userID: Int64, chain: String, signedInAt: Int, accessLifetime: Int, refreshLifetime: Int,
        now: Int, _ db: Database
    ) throws -> Redemption {
        let access = randomToken()
        let refresh = randomToken()
        let chainEnd = signedInAt + refreshLifetime
        let expiresAt = min(now + accessLifetime, chainEnd)
        try db.execute(
            sql: """
                INSERT INTO access_tokens (token_hash, user_id, refresh_secret, expires_at, created_at, signed_in_at, chain) VALUES (?, ?, NULL, ?, ?, ?, ?)
                """, arguments: [hash(access), userID, expiresAt, now, signedInAt, chain])
        try db.execute(
            sql: "INSERT INTO refresh_tokens (token_hash, user_id, expires_at, signed_in_at, chain) VALUES (?, ?, ?, ?, ?)",
            arguments: [hash(refresh), userID, chainEnd, signedInAt, chain])
        return .issued(accessToken: access, refreshToken: refresh, expiresAt: expiresAt)
    }
}
