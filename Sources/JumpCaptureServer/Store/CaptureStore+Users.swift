import SQLKit
import JumpCapture
import JumpForms
#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Users, their records and linked identities.
extension CaptureStore {
    static let userColumns = "id, uuid, record, password_hash, email_normalized"

    static func user(from row: any SQLRow) throws -> StoredUser {
        StoredUser(
            id: try row.int64("id"), uuid: try row.string("uuid"), recordText: try row.optionalString("record") ?? "{}",
            passwordHash: try row.optionalString("password_hash"), emailNormalized: try row.optionalString("email_normalized"))
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
        try await read { db in try await Self.user(id: id, db) }
    }

    static func user(id: Int64, _ db: any SQLDatabase) async throws -> StoredUser? {
        try await db.raw("SELECT \(unsafeRaw: userColumns) FROM users WHERE id = \(bind: id)").first().map(Self.user)
    }

    func user(emailNormalized: String) async throws -> StoredUser? {
        try await read { db in
            try await db.raw("SELECT \(unsafeRaw: Self.userColumns) FROM users WHERE email_normalized = \(bind: emailNormalized)").first().map(
                Self.user)
        }
    }

    /// The user whose record holds `value` at `path` (case-insensitive), for username sign-in.
    func user(path: String, value: String) async throws -> StoredUser? {
        let engine = database.engine
        return try await read { db in
            try await db.raw(
                "SELECT \(unsafeRaw: Self.userColumns) FROM users WHERE lower(\(engine.recordText("record", path: path))) = lower(\(bind: value)) ORDER BY id LIMIT 1"
            ).first().map(Self.user)
        }
    }

    func user(provider: String, identifier: String) async throws -> StoredUser? {
        try await read { db in
            try await db.raw(
                """
                SELECT users.id, users.uuid, users.record, users.password_hash, users.email_normalized
                FROM users JOIN identities ON identities.user_id = users.id
                WHERE identities.provider = \(bind: provider) AND identities.identifier = \(bind: identifier)
                """
            ).first().map(Self.user)
        }
    }

    func identities(of userID: Int64) async throws -> [StoredIdentity] {
        try await read { db in try await Self.identities(of: userID, db) }
    }

    static func identities(of userID: Int64, _ db: any SQLDatabase) async throws -> [StoredIdentity] {
        try await db.raw("SELECT provider, identifier, verified_email FROM identities WHERE user_id = \(bind: userID) ORDER BY id").all().map {
            StoredIdentity(
                provider: try $0.string("provider"), identifier: try $0.string("identifier"), verifiedEmail: try $0.optionalString("verified_email"))
        }
    }

    /// Values that must be unique, as (field name, schema path, value), checked inside the write.
    typealias UniqueCheck = (field: String, path: String, value: String)

    func conflicts(_ checks: [UniqueCheck], excluding userID: Int64?, _ db: any SQLDatabase) async throws -> [String] {
        var taken: [String] = []
        for check in checks {
            let exists: Bool
            // By look-alike keys (CaptureStore+UniqueKeys); a path the flow does not name, as before.
            if let held = try await holds(check.path, check.value, excluding: userID, db) {
                exists = held
            } else if check.path == "email" {
                exists =
                    try await db.raw(
                        "SELECT 1 AS found FROM users WHERE email_normalized = \(bind: normalizeEmail(check.value)) AND id IS DISTINCT FROM \(bind: userID)"
                    ).first() != nil
            } else {
                exists =
                    try await db.raw(
                        """
                        SELECT 1 AS found FROM users WHERE lower(\(database.engine.recordText("record", path: check.path))) = lower(\(bind: check.value))
                        AND id IS DISTINCT FROM \(bind: userID)
                        """
                    ).first() != nil
            }
            if exists { taken.append(check.field) }
        }
        return taken
    }

    /// The fields of `checks` whose values another record (than `userID`) holds: a read, for
    /// the answer that lists every invalid field (the writes check again in their transaction).
    func taken(_ checks: [UniqueCheck], excluding userID: Int64?) async throws -> [String] {
        if checks.isEmpty { return [] }
        let checks = checks.map { UniqueValue(field: $0.field, path: $0.path, value: $0.value) }
        return try await read { db in try await self.conflicts(checks.map { ($0.field, $0.path, $0.value) }, excluding: userID, db) }
    }

    /// `UniqueCheck` as a value that can cross into a transaction (tuples are not `Sendable`).
    struct UniqueValue: Sendable {
        var field: String
        var path: String
        var value: String
    }

    /// PostgreSQL: the writes that check unique values take turns (a transaction-level
    /// advisory lock), so that two instances cannot both find a value free and both store it
    /// (the email also has its unique index; the flow's other unique values have none). SQLite
    /// writes take turns already.
    func lockRecordWrites(_ db: any SQLDatabase) async throws {
        if database.engine == .postgres { try await db.raw("SELECT pg_advisory_xact_lock(\(literal: Self.recordWriteLock))").run() }
    }

    static let recordWriteLock = 0x6A75_7277

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
        let checks = unique.map { UniqueValue(field: $0.field, path: $0.path, value: $0.value) }
        do {
            return try await write { db in
                try await self.lockRecordWrites(db)
                let taken = try await self.conflicts(checks.map { ($0.field, $0.path, $0.value) }, excluding: nil, db)
                if !taken.isEmpty { throw StoreConflict.notUnique(taken) }
                if let identity,
                    try await db.raw(
                        "SELECT 1 AS found FROM identities WHERE provider = \(bind: identity.provider) AND identifier = \(bind: identity.identifier)"
                    ).first() != nil
                {
                    throw StoreConflict.identityTaken
                }
                if let engageToken, try await !Self.useEngageToken(engageToken, now: now, db) { throw StoreConflict.engageTokenUsed }
                guard
                    let inserted = try await db.raw(
                        """
                        INSERT INTO users (uuid, email_normalized, password_hash, record, created, last_updated)
                        VALUES (\(bind: uuid), \(bind: email), \(bind: passwordHash), '{}', \(bind: timestamp), \(bind: timestamp)) RETURNING id
                        """
                    ).first()
                else { throw StoreUnavailable(reason: "the new user's id was not returned") }
                let id = try inserted.int64("id")
                let value = stamped.setting("id", .integer(Int(id)))
                let full = value.serialized()
                // Thrown inside the transaction: the row is not kept.
                if let problem = self.recordLimits.problem(text: full, record: value) { throw problem }
                try await db.raw("UPDATE users SET record = \(bind: full) WHERE id = \(bind: id)").run()
                try await self.storeUniqueKeys(userID: id, record: stamped, emailNormalized: email, db)
                if let identity {
                    try await db.raw(
                        """
                        INSERT INTO identities (user_id, provider, identifier, verified_email)
                        VALUES (\(bind: id), \(bind: identity.provider), \(bind: identity.identifier), \(bind: identity.verifiedEmail))
                        """
                    ).run()
                }
                return StoredUser(id: id, uuid: uuid, recordText: full, passwordHash: passwordHash, emailNormalized: email)
            }
        } catch let error where StoreDatabase.isUniqueViolation(error) {
            // Another writer won between our check and our insert: the index is the last word.
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
        } catch let error where StoreDatabase.isUniqueViolation(error) {
            // The email index: a change wrote an address another record holds.
            let fields = unique.filter { $0.path == "email" }.map(\.field)
            throw StoreConflict.notUnique(fields.isEmpty ? ["email"] : fields)
        }
    }

    private func updateUserRow(
        id: Int64, unique: [UniqueCheck], now: Int, passwordHash: String??,
        change: @escaping @Sendable (JSONValue, inout ElementIDs) throws -> JSONValue
    ) async throws -> StoredUser {
        let checks = unique.map { UniqueValue(field: $0.field, path: $0.path, value: $0.value) }
        let newHash = passwordHash
        return try await write { db in
            try await self.lockRecordWrites(db)
            guard let row = try await db.raw("SELECT \(unsafeRaw: Self.userColumns), next_element_id FROM users WHERE id = \(bind: id)").first()
            else { throw StoreConflict.notUnique([]) }
            let taken = try await self.conflicts(checks.map { ($0.field, $0.path, $0.value) }, excluding: id, db)
            if !taken.isEmpty { throw StoreConflict.notUnique(taken) }
            var user = try Self.user(from: row)
            let timestamp = Timestamps.capture(now)
            let stored: JSONValue
            do {
                stored = try Self.decodedRecord(user.recordText)
            } catch StoreConflict.undecodableRecord(let reason) {
                // The password alone may change; the record stays as it is.
                var scratch = ElementIDs(next: ElementIDs.first)
                guard case .some(let hash) = newHash, try change([:], &scratch) == [:] else { throw StoreConflict.undecodableRecord(reason) }
                user.passwordHash = hash
                try await db.raw("UPDATE users SET password_hash = \(bind: hash) WHERE id = \(bind: id)").run()
                return user
            }
            let next = try row.optionalInt("next_element_id") ?? 1
            var ids = ElementIDs(next: max(next, (self.recordModel?.largestElementID(in: stored) ?? 0) + 1))
            let record = try change(stored, &ids).setting("lastUpdated", .string(timestamp))
            let text = record.serialized()
            if let problem = self.recordLimits.problem(text: text, record: record, previousSize: user.recordText.utf8.count) { throw problem }
            user.recordText = text
            user.emailNormalized = record["email"]?.stringValue.map(normalizeEmail)
            if case .some(let hash) = newHash { user.passwordHash = hash }
            try await db.raw(
                """
                UPDATE users SET record = \(bind: user.recordText), email_normalized = \(bind: user.emailNormalized),
                password_hash = \(bind: user.passwordHash), last_updated = \(bind: timestamp), next_element_id = \(bind: ids.next)
                WHERE id = \(bind: id)
                """
            ).run()
            try await self.storeUniqueKeys(userID: id, record: record, emailNormalized: user.emailNormalized, db)
            return user
        }
    }

    /// Replaces a user's password hash while it is still `old` (a password set in the meantime
    /// stays), leaving the record as it is.
    func replacePasswordHash(userID: Int64, old: String, new: String) async throws {
        try await write { db in
            try await db.raw("UPDATE users SET password_hash = \(bind: new) WHERE id = \(bind: userID) AND password_hash = \(bind: old)").run()
        }
    }

    /// Links an identity to a user, using up the Engage tokens that stand for it (the merge
    /// token, and a social sign-in's own) in the same transaction: all of them or none.
    func link(userID: Int64, identity: StoredIdentity, consuming engageTokens: [String], now: Int) async throws {
        do {
            try await write { db in
                try await Self.useEngageTokens(engageTokens, now: now, db)
                try await db.raw(
                    """
                    INSERT INTO identities (user_id, provider, identifier, verified_email)
                    VALUES (\(bind: userID), \(bind: identity.provider), \(bind: identity.identifier), \(bind: identity.verifiedEmail))
                    """
                ).run()
            }
        } catch let error where StoreDatabase.isUniqueViolation(error) {
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
        try await write { db in
            // PostgreSQL: FOR UPDATE makes concurrent unlinks of one account take turns.
            let lock = self.database.engine == .postgres ? " FOR UPDATE" : ""
            guard let owner = try await db.raw("SELECT password_hash FROM users WHERE id = \(bind: userID)\(unsafeRaw: lock)").first() else {
                return .notFound
            }
            let hasPassword = try owner.optionalString("password_hash") != nil
            let identifiers = try await db.raw("SELECT identifier FROM identities WHERE user_id = \(bind: userID)").all().map {
                try $0.string("identifier")
            }
            guard identifiers.contains(identifier) else { return .notFound }
            if !hasPassword, Set(identifiers).subtracting([identifier]).isEmpty { return .lastIdentity }
            try await db.raw("DELETE FROM identities WHERE user_id = \(bind: userID) AND identifier = \(bind: identifier)").run()
            return .removed
        }
    }
}
