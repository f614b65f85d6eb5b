import JumpCapture
import JumpForms
import SQLKit

/// The Engage double's tokens.
extension CaptureStore {
    func issueEngageToken(_ grant: EngageGrant, now: Int) async throws -> String {
        let token = Self.randomToken()
        let hash = Self.hash(token)
        try await write { db in
            try await self.purgeIfDue(db, now: now)
            try await db.raw(
                """
                INSERT INTO engage_tokens (token_hash, provider, identifier, profile, expires_at)
                VALUES (\(bind: hash), \(bind: grant.provider), \(bind: grant.identifier), \(bind: grant.profile.serialized()), \(bind: grant.expiresAt))
                """
            ).run()
        }
        return token
    }

    /// Uses up unexpired Engage tokens, all of them or none: false (and none used up) when one
    /// was used already, has expired, or never was.
    func useEngageTokens(_ tokens: [String], now: Int) async throws -> Bool {
        do {
            try await write { db in try await Self.useEngageTokens(tokens, now: now, db) }
            return true
        } catch StoreConflict.engageTokenUsed {
            return false
        }
    }

    /// `useEngageTokens` inside the caller's transaction, which the error it throws rolls back.
    static func useEngageTokens(_ tokens: [String], now: Int, _ db: any SQLDatabase) async throws {
        for token in Set(tokens) where try await !useEngageToken(token, now: now, db) { throw StoreConflict.engageTokenUsed }
    }

    static func useEngageToken(_ token: String, now: Int, _ db: any SQLDatabase) async throws -> Bool {
        try await db.raw("DELETE FROM engage_tokens WHERE token_hash = \(bind: hash(token)) AND expires_at > \(bind: now) RETURNING 1 AS used")
            .all().count == 1
    }

    func engageGrant(_ token: String) async throws -> EngageGrant? {
        let hash = Self.hash(token)
        return try await read { db in
            guard
                let row = try await db.raw(
                    "SELECT provider, identifier, profile, expires_at, merge_user_id FROM engage_tokens WHERE token_hash = \(bind: hash)"
                ).first()
            else {
                return nil
            }
            return EngageGrant(
                provider: try row.string("provider"), identifier: try row.string("identifier"),
                profile: (try? JSONValue.parse(try row.string("profile"))) ?? [:], expiresAt: try row.int("expires_at"),
                mergeUserID: try row.optionalInt64("merge_user_id"))
        }
    }

    /// Binds an Engage token's pending merge to the account a 380 named.
    func bindMerge(_ token: String, to userID: Int64) async throws {
        let hash = Self.hash(token)
        try await write { db in
            try await db.raw("UPDATE engage_tokens SET merge_user_id = \(bind: userID) WHERE token_hash = \(bind: hash)").run()
        }
    }
}
