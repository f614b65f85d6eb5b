import GRDB
import JumpCapture
import JumpForms
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Users, their records and linked identities.
extension CaptureStore {
    static func user(from row: Row) -> StoredUser {
        StoredUser(
            id: row["id"], uuid: row["uuid"], recordText: row["record"] ?? "{}",
            passwordHash: row["password_hash"], emailNormalized: row["email_normalized"])
    }

    /// A stored record's JSON text as a value (the server wrote it; an empty record if not JSON).
    /// Reads only: a write decodes with `decodedRecord`, which refuses such a record.
    static func record(fromText text: String?) -> JSONValue {
        text.flatMap { try? JSONValue.parse($0) } ?? [:]
    }

    /// A stored record's JSON text as a value, for a write: a text the reader refuses (a
    /// record an older version stored too deep) throws `StoreConflict.undecodableRecord`, so
    /// that no write replaces the record with what it could not read.
    static func decodedRecord(_ text: String) throws -> JSONValue {
        do {
            let record = try JSONValue.parse(text)
            guard case .object = record else { throw StoreConflict.undecodableRecord("it is \(record.kindDescription), not an object") }
            return record
        } catch let error as JSONParseError {
            throw StoreConflict.undecodableRecord(error.message)
        }
    }

    func user(id: Int64) async throws -> StoredUser? {
        try quickRead { db in try Self.user(id: id, db) }
    }

    static func user(id: Int64, _ db: Database) throws -> StoredUser? {
        try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM users WHERE id = ?"), arguments: [id]).map(Self.user)
    }

    func user(emailNormalized: String) async throws -> StoredUser? {
        try quickRead { db in
            try Row.fetchOne(db.cachedStatement(sql: "SELECT * FROM users WHERE email_normalized = ?"), arguments: [emailNormalized]).map(Self.user)
        }
    }

    /// The user whose record holds `value` at `path` (case-insensitive), for username sign-in.
    func user(path: String, value: String) async throws -> StoredUser? {
        try await pool.read { db in
            try Row.fetchOne(
                db, sql: "SELECT * FROM users WHERE lower(json_extract(record, ?)) = lower(?)",
                arguments: ["$." + path, value]
            ).map(Self.user)
        }
    }

    func user(provider: String, identifier: String) async throws -> StoredUser? {
        try quickRead { db in
            try Row.fetchOne(
                db,
                sql: """
                    SELECT users.* FROM users JOIN identities ON identities.user_id = users.id
                    WHERE identities.provider = ? AND identities.identifier = ?
                    """, arguments: [provider, identifier]
            ).map(Self.user)
        }
    }

    func identities(of userID: Int64) async throws -> [StoredIdentity] {
        try quickRead { db in try Self.identities(of: userID, db) }
    }

    static func identities(of userID: Int64, _ db: Database) throws -> [StoredIdentity] {
        try Row.fetchAll(
            db.cachedStatement(sql: "SELECT provider, identifier, verified_email FROM identities WHERE user_id = ? ORDER BY id"), arguments: [userID]
        )
        .map { StoredIdentity(provider: $0["provider"], identifier: $0["identifier"], verifiedEmail: $0["verified_email"]) }
    }

    /// Values that must be unique, as (field name, schema path, value), checked inside the write.
    typealias UniqueCheck = (field: String, path: String, value: String)

    func conflicts(_ checks: [UniqueCheck], excluding userID: Int64?, _ db: Database) throws -> [String] {
        var taken: [String] = []
        for check in checks {
            let exists: Bool
            // By look-alike keys (CaptureStore+UniqueKeys); a path the flow does not name, as before.
            if let held = try holds(check.path, check.value, excluding: userID, db) {
                exists = held
            } else if check.path == "email" {
                exists =
                    try Row.fetchOne(
                        db, sql: "SELECT 1 FROM users WHERE email_normalized = ? AND id IS NOT ?",
                        arguments: [normalizeEmail(check.value), userID]) != nil
            } else {
                exists =
                    try Row.fetchOne(
                        db, sql: "SELECT 1 FROM users WHERE lower(json_extract(record, ?)) = lower(?) AND id IS NOT ?",
                        arguments: ["$." + check.path, check.value, userID]) != nil
            }
            if exists { taken.append(check.field) }
        }
        return taken
    }

    /// The fields of `checks` whose values another record (than `userID`) holds: a read, for
    /// the answer that lists every invalid field (the writes check again in their transaction).
    func taken(_ checks: [UniqueCheck], excluding userID: Int64?) throws -> [String] {
        if checks.isEmpty { return [] }
        return try quickRead { db in try self.conflicts(checks, excluding: userID, db) }
    }

    /// Creates a user (and its first identity) in one transaction; unique values are checked
    /// in the same transaction, with the unique indexes as the last word.
    /// An Engage token given in `consuming` is used up in the same transaction (the account is
    /// not created when it was used already).
    func createUser(
        record: JSONValue, passwordHash: String?, identity: StoredIdentity?, unique: [UniqueCheck], now: Int,
        consuming engageToken: String? = nil
    ) async throws -> StoredUser {
        let uuid = UUIDText.random()
        let timestamp = Timestamps.capture(now)
        let stamped = record.setting("uuid", .string(uuid)).setting("created", .string(timestamp)).setting("lastUpdated", .string(timestamp))
        let email = record["email"]?.stringValue.map(normalizeEmail)
        do {
            return try await pool.write { db in
                let taken = try self.conflicts(unique, excluding: nil, db)
                if !taken.isEmpty { throw StoreConflict.notUnique(taken) }
                if let identity,
                    try Row.fetchOne(
                        db, sql: "SELECT 1 FROM identities WHERE provider = ? AND identifier = ?",
                        arguments: [identity.provider, identity.identifier]) != nil
                {
                    throw StoreConflict.identityTaken
                }
                if let engageToken, try !Self.useEngageToken(engageToken, now: now, db) { throw StoreConflict.engageTokenUsed }
                try db.execute(
                    sql: "INSERT INTO users (uuid, email_normalized, password_hash, record, created, last_updated) VALUES (?, ?, ?, ?, ?, ?)",
                    arguments: [uuid, email, passwordHash, "{}", timestamp, timestamp])
                let id = db.lastInsertedRowID
                let value = stamped.setting("id", .integer(Int(id)))
                let full = value.serialized()
                // Thrown inside the transaction: the row is not kept.
                if let problem = self.recordLimits.problem(text: full, record: value) { throw problem }
                try db.execute(sql: "UPDATE users SET record = ? WHERE id = ?", arguments: [full, id])
                try self.storeUniqueKeys(userID: id, record: stamped, emailNormalized: email, db)
                if let identity {
                    try db.execute(
                        sql: "INSERT INTO identities (user_id, provider, identifier, verified_email) VALUES (?, ?, ?, ?)",
                        arguments: [id, identity.provider, identity.identifier, identity.verifiedEmail])
                }
                return StoredUser(id: id, uuid: uuid, recordText: full, passwordHash: passwordHash, emailNormalized: email)
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            // Another writer won between our check and our insert (cannot happen with one pool,
            // but the index stays the last word).
            throw StoreConflict.notUnique(unique.filter { $0.path == "email" }.map(\.field))
        }
    }

    /// Changes a user's record (and password) in one transaction, checking unique values.
    func updateUser(
        id: Int64, unique: [UniqueCheck], now: Int, passwordHash: String?? = .none,
        change: @escaping @Sendable (JSONValue) -> JSONValue
    ) async throws -> StoredUser {
        try await editRecord(id: id, unique: unique, now: now, passwordHash: passwordHash) { record, _ in change(record) }
    }

    /// `updateUser` for the entity calls: the change also gets the record's element ids, to
    /// number new plural elements (the next id is kept with the record), and may throw (the
    /// transaction is rolled back).
    ///
    /// Every write leaves a record the server can read back: one over `recordLimits` is
    /// refused (`StoreConflict.recordTooLarge`, `.recordTooDeep`), and a stored record that
    /// cannot be decoded is never replaced (`.undecodableRecord`; a password alone may still
    /// change, when the change leaves an empty record as it is).
    func editRecord(
        id: Int64, unique: [UniqueCheck], now: Int, passwordHash: String?? = .none,
        change: @escaping @Sendable (JSONValue, inout ElementIDs) throws -> JSONValue
    ) async throws -> StoredUser {
        do {
            return try await updateUserRow(id: id, unique: unique, now: now, passwordHash: passwordHash, change: change)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            // The email index: a change wrote an address another record holds.
            let fields = unique.filter { $0.path == "email" }.map(\.field)
            throw StoreConflict.notUnique(fields.isEmpty ? ["email"] : fields)
        }
    }

    private func updateUserRow(
        id: Int64, unique: [UniqueCheck], now: Int, passwordHash: String??,
        change: @escaping @Sendable (JSONValue, inout ElementIDs) throws -> JSONValue
    ) async throws -> StoredUser {
        try await pool.write { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM users WHERE id = ?", arguments: [id]) else { throw StoreConflict.notUnique([]) }
            let taken = try self.conflicts(unique, excluding: id, db)
            if !taken.isEmpty { throw StoreConflict.notUnique(taken) }
            var user = Self.user(from: row)
            let timestamp = Timestamps.capture(now)
            let stored: JSONValue
            do {
                stored = try Self.decodedRecord(user.recordText)
            } catch StoreConflict.undecodableRecord(let reason) {
                // The password alone may change; the record stays as it is.
                var scratch = ElementIDs(next: ElementIDs.first)
                guard case .some(let hash) = passwordHash, try change([:], &scratch) == [:] else { throw StoreConflict.undecodableRecord(reason) }
                user.passwordHash = hash
                try db.execute(sql: "UPDATE users SET password_hash = ? WHERE id = ?", arguments: [hash, id])
                return user
            }
            let next: Int = row["next_element_id"] ?? 1
            var ids = ElementIDs(next: max(next, (self.recordModel?.largestElementID(in: stored) ?? 0) + 1))
            let record = try change(stored, &ids).setting("lastUpdated", .string(timestamp))
            let text = record.serialized()
            if let problem = self.recordLimits.problem(text: text, record: record, previousSize: user.recordText.utf8.count) { throw problem }
            user.recordText = text
            user.emailNormalized = record["email"]?.stringValue.map(normalizeEmail)
            if case .some(let hash) = passwordHash { user.passwordHash = hash }
            try db.execute(
                sql: "UPDATE users SET record = ?, email_normalized = ?, password_hash = ?, last_updated = ?, next_element_id = ? WHERE id = ?",
                arguments: [user.recordText, user.emailNormalized, user.passwordHash, timestamp, ids.next, id])
            try self.storeUniqueKeys(userID: id, record: record, emailNormalized: user.emailNormalized, db)
            return user
        }
    }

    /// Replaces a user's password hash while it is still `old` (a password set in the meantime
    /// stays), leaving the record as it is.
    func replacePasswordHash(userID: Int64, old: String, new: String) async throws {
        try await pool.write { db in
            try db.execute(sql: "UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?", arguments: [new, userID, old])
        }
    }

    /// Links an identity to a user, using up the Engage tokens that stand for it (the merge
    /// token, and a social sign-in's own) in the same transaction: all of them or none.
    func link(userID: Int64, identity: StoredIdentity, consuming engageTokens: [String], now: Int) async throws {
        do {
            try await pool.write { db in
                try Self.useEngageTokens(engageTokens, now: now, db)
                try db.execute(
                    sql: "INSERT INTO identities (user_id, provider, identifier, verified_email) VALUES (?, ?, ?, ?)",
                    arguments: [userID, identity.provider, identity.identifier, identity.verifiedEmail])
            }
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            throw StoreConflict.identityTaken
        }
    }

    /// What `unlink` did.
    enum UnlinkOutcome: Sendable, Hashable {
        case removed
        /// The user has no such identity.
        case notFound
        /// It is the last identity of an account without a password: kept.
        case lastIdentity
    }

    /// Removes an identity unless it is the last way into an account that has no password.
    /// The check and the delete are one transaction: of two concurrent unlinks of the two
    /// identities of a password-less account, one removes its identity and the other is refused.
    func unlink(userID: Int64, identifier: String) async throws -> UnlinkOutcome {
        try await pool.write { db in
            guard let owner = try Row.fetchOne(db, sql: "SELECT password_hash FROM users WHERE id = ?", arguments: [userID]) else {
                return .notFound
            }
            let hasPassword = (owner["password_hash"] as String?) != nil
            let identifiers = try String.fetchAll(db, sql: "SELECT identifier FROM identities WHERE user_id = ?", arguments: [userID])
            guard identifiers.contains(identifier) else { return .notFound }
            if !hasPassword, Set(identifiers).subtracting([identifier]).isEmpty { return .lastIdentity }
            try db.execute(sql: "DELETE FROM identities WHERE user_id = ? AND identifier = ?", arguments: [userID, identifier])
            return .removed
        }
    }
}
