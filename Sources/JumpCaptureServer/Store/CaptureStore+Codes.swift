import SQLKit
import JumpCapture
import JumpForms

/// One-time codes: the links of password-reset and verification emails, and `/oauth/token`'s
/// authorization codes and refresh tokens.
extension CaptureStore {
    /// A new one-time code for `userID`, stored hashed, with the locale of the email that
    /// carries it (the page the link opens speaks it).
    func issueCode(userID: Int64, kind: String, locale: String, lifetime: Int, now: Int) async throws -> String {
        let code = Self.randomToken()
        try await write { db in
            try await self.purgeIfDue(db, now: now)
            // Only the newest link of a kind works: an older email's link stops working.
            try await db.raw("DELETE FROM codes WHERE user_id = \(bind: userID) AND kind = \(bind: kind)").run()
            try await db.raw(
                """
                INSERT INTO codes (code_hash, user_id, kind, expires_at, locale)
                VALUES (\(bind: Self.hash(code)), \(bind: userID), \(bind: kind), \(bind: now + lifetime), \(bind: locale))
                """
            ).run()
        }
        return code
    }

    /// The user a valid code belongs to; the code is used up.
    func consumeCode(_ code: String, kind: String, now: Int) async throws -> Int64? {
        let hash = Self.hash(code)
        return try await write { db in
            // One statement: of two uses of one code, one gets its row.
            guard
                let row = try await db.raw("DELETE FROM codes WHERE code_hash = \(bind: hash) AND kind = \(bind: kind) RETURNING user_id, expires_at")
                    .first()
            else {
                return nil
            }
            return try row.int("expires_at") > now ? try row.int64("user_id") : nil
        }
    }

    /// A valid code, without using it up: what its email said.
    struct PendingCode: Sendable {
        /// The locale of the email (nil for codes issued before it was stored).
        var locale: String?
    }

    /// A valid code, without using it up; nil when it is not valid.
    func peekCode(_ code: String, kind: String, now: Int) async throws -> PendingCode? {
        let hash = Self.hash(code)
        return try await read { db in
            try await db.raw("SELECT locale FROM codes WHERE code_hash = \(bind: hash) AND kind = \(bind: kind) AND expires_at > \(bind: now)")
                .first().map { PendingCode(locale: try $0.optionalString("locale")) }
        }
    }

    // MARK: OAuth authorization codes and refresh tokens (`/oauth/token`)

    /// A new authorization code for `userID`, stored hashed with the redirect URI of the call
    /// that made it (the one `/oauth/token` compares).
    func issueAuthorizationCode(userID: Int64, redirectURI: String?, lifetime: Int, now: Int) async throws -> String {
        let code = Self.randomToken()
        try await write { db in
            try await self.purgeIfDue(db, now: now)
            try await db.raw(
                """
                INSERT INTO authorization_codes (code_hash, user_id, redirect_uri, expires_at)
                VALUES (\(bind: Self.hash(code)), \(bind: userID), \(bind: redirectURI), \(bind: now + lifetime))
                """
            ).run()
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
        let lock = database.engine == .postgres ? " FOR UPDATE" : ""
        return try await write { db in
            try await self.purgeIfDue(db, now: now)
            // PostgreSQL: FOR UPDATE makes concurrent redemptions of one code take turns.
            guard
                let row = try await db.raw(
                    """
                    SELECT user_id, redirect_uri, expires_at, redeemed_chain FROM authorization_codes WHERE code_hash = \(bind: hash)\(unsafeRaw: lock)
                    """
                ).first()
            else { return .invalid }
            if let chain = try row.optionalString("redeemed_chain") {
                try await Self.endGrant(chain, db)
                return .replayed
            }
            if try row.int("expires_at") <= now {
                try await db.raw("DELETE FROM authorization_codes WHERE code_hash = \(bind: hash)").run()
                return .expired
            }
            if let expected = try row.optionalString("redirect_uri"), expected != redirectURI { return .redirectMismatch }
            // A new grant: its refresh chain starts now and ends `refreshLifetime` later.
            let chain = Self.randomToken()
            try await db.raw("UPDATE authorization_codes SET redeemed_chain = \(bind: chain) WHERE code_hash = \(bind: hash)").run()
            return try await Self.issueOAuthTokens(
                userID: try row.int64("user_id"), chain: chain, signedInAt: now, accessLifetime: accessLifetime,
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
        let lock = database.engine == .postgres ? " FOR UPDATE" : ""
        return try await write { db in
            try await self.purgeIfDue(db, now: now)
            guard
                let row = try await db.raw(
                    "SELECT user_id, expires_at, chain, signed_in_at, used_at FROM refresh_tokens WHERE token_hash = \(bind: hash)\(unsafeRaw: lock)"
                ).first()
            else {
                return .invalid
            }
            let chain = try row.optionalString("chain") ?? hash
            if try row.optionalInt("used_at") != nil {
                try await Self.endGrant(chain, db)
                return .replayed
            }
            let expiresAt = try row.int("expires_at")
            let signedInAt = try row.optionalInt("signed_in_at") ?? now
            if expiresAt <= now || signedInAt + refreshLifetime <= now {
                try await db.raw("DELETE FROM refresh_tokens WHERE token_hash = \(bind: hash)").run()
                return .expired
            }
            try await db.raw("UPDATE refresh_tokens SET used_at = \(bind: now) WHERE token_hash = \(bind: hash)").run()
            return try await Self.issueOAuthTokens(
                userID: try row.int64("user_id"), chain: chain, signedInAt: signedInAt,
                accessLifetime: accessLifetime, refreshLifetime: refreshLifetime, now: now, db)
        }
    }

    /// Ends the `/oauth/token` grant `chain`: its access tokens and refresh tokens (used ones
    /// too: the grant is over).
    private static func endGrant(_ chain: String, _ db: any SQLDatabase) async throws {
        try await db.raw("DELETE FROM access_tokens WHERE chain = \(bind: chain)").run()
        try await db.raw("DELETE FROM refresh_tokens WHERE chain = \(bind: chain)").run()
    }

    /// An access token and a refresh token of the grant `chain`, begun at `signedInAt`: the
    /// refresh token lasts until the chain ends, the access token `accessLifetime` (or less).
    private static func issueOAuthTokens(
        userID: Int64, chain: String, signedInAt: Int, accessLifetime: Int, refreshLifetime: Int,
        now: Int, _ db: any SQLDatabase
    ) async throws -> Redemption {
        let access = randomToken()
        let refresh = randomToken()
        let chainEnd = signedInAt + refreshLifetime
        let expiresAt = min(now + accessLifetime, chainEnd)
        try await db.raw(
            """
            INSERT INTO access_tokens (token_hash, user_id, refresh_secret, expires_at, created_at, signed_in_at, chain)
            VALUES (\(bind: hash(access)), \(bind: userID), NULL, \(bind: expiresAt), \(bind: now), \(bind: signedInAt), \(bind: chain))
            """
        ).run()
        try await db.raw(
            """
            INSERT INTO refresh_tokens (token_hash, user_id, expires_at, signed_in_at, chain)
            VALUES (\(bind: hash(refresh)), \(bind: userID), \(bind: chainEnd), \(bind: signedInAt), \(bind: chain))
            """
        ).run()
        return .issued(accessToken: access, refreshToken: refresh, expiresAt: expiresAt)
    }
}
