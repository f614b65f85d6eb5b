import GRDB
import JumpCapture
import JumpForms

/// The Engage double's tokens.
extension CaptureStore {
    func issueEngageToken(_ grant: EngageGrant, now: Int) async throws -> String {
        let token = Self.randomToken()
        try await pool.write { db in
            try self.purgeIfDue(db, now: now)
            try db.execute(
                sql: "INSERT INTO engage_tokens (token_hash, provider, identifier, profile, expires_at) VALUES (?, ?, ?, ?, ?)",
                arguments: [Self.hash(token), grant.provider, grant.identifier, grant.profile.serialized(), grant.expiresAt])
        }
        return token
    }

    /// Uses up unexpired Engage tokens, all of them or none: false (and none used up) when one
    /// was used already, has expired, or never was.
    func useEngageTokens(_ tokens: [String], now: Int) async throws -> Bool {
        do {
            try await pool.write { db in try Self.useEngageTokens(tokens, now: now, db) }
            return true
        } catch StoreConflict.engageTokenUsed {
            return false
        }
    }

    /// `useEngageTokens` inside the caller's transaction, which the error it throws rolls back.
    static func useEngageTokens(_ tokens: [String], now: Int, _ db: Database) throws {
        for token in Set(tokens) where try !useEngageToken(token, now: now, db) { throw StoreConflict.engageTokenUsed }
    }

    static func useEngageToken(_ token: String, now: Int, _ db: Database) throws -> Bool {
        try db.execute(sql: "DELETE FROM engage_tokens WHERE token_hash = ? AND expires_at > ?", arguments: [hash(token), now])
        return db.changesCount == 1
    }

    func engageGrant(_ token: String) async throws -> EngageGrant? {
        try quickRead { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM engage_tokens WHERE token_hash = ?", arguments: [Self.hash(token)]) else {
                return nil
            }
            let profile: String = row["profile"]
            return EngageGrant(
                provider: row["provider"], identifier: row["identifier"],
                profile: (try? JSONValue.parse(profile)) ?? [:], expiresAt: row["expires_at"],
                mergeUserID: row["merge_user_id"])
        }
    }

    /// Binds an Engage token's pending merge to the account a 380 named.
    func bindMerge(_ token: String, to userID: Int64) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE engage_tokens SET merge_user_id = ? WHERE token_hash = ?", arguments: [userID, Self.hash(token)])
        }
    }
}
