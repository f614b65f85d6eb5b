import JumpForms
import Logging
import NIOCore
import SQLKit
import Synchronization

/// How `users import` runs.
public struct UserImportOptions: Sendable {
    /// What happens to a record the store holds already (the same `uuid`).
    public enum OnConflict: String, Sendable, CaseIterable {
        /// Left as it is (the default): importing a file twice changes nothing.
        case skip
        /// Replaced by the file's record and password (an identical one is left as it is).
        case update
        /// The import stops there; the records before it stay imported.
        case fail
    }

    public var format: ImportFormat
    /// Checks every record against the store as an import would, and writes nothing.
    public var dryRun = false
    public var onConflict: OnConflict = .skip
    /// Records per transaction.
    public var batchSize = 1000

    public init(format: ImportFormat, dryRun: Bool = false, onConflict: OnConflict = .skip) {
        self.format = format
        self.dryRun = dryRun
        self.onConflict = onConflict
    }
}

/// What became of one record of the file.
public struct UserImportOutcome: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        case imported, updated, skipped, refused, stopped
    }

    public var line: Int
    public var kind: Kind
    /// The record's Capture id and uuid (as stored, or as the file gives them).
    public var id: Int64?
    public var uuid: String?
    /// Why it was refused, skipped or stopped at.
    public var refusal: ImportRefusal?
}

/// The counts of an import: records by what became of them, imported passwords by Capture
/// type (of the records imported or updated; `none` for records without a password).
public struct UserImportSummary: Sendable, Hashable {
    public var counts: [UserImportOutcome.Kind: Int] = [:]
    public var passwordTypes: [String: Int] = [:]
    /// Imported password types the server does not check (their sign-ins fail until reset).
    public var unreadPasswordTypes: Set<String> = []
    /// The line `--on-conflict fail` stopped at.
    public var stoppedAtLine: Int?
    public var dryRun = false
    public var bytesRead: Int64 = 0

    public var records: Int { counts.values.reduce(0, +) }
    public func count(_ kind: UserImportOutcome.Kind) -> Int { counts[kind] ?? 0 }
}

/// `jump-forms users import`: records from a JSON Lines or CSV file into the server's store,
/// with Capture's ids, uuids, timestamps, plural element ids and password hashes. Each record
/// is checked (`ImportRecordCheck`), then written in a transaction of a batch, every record
/// all or nothing (a savepoint when it takes more than one statement); the file is read a
/// chunk at a time. Unique values (email, the flow's unique fields, the schema's) are checked
/// with the look-alike keys sign-up uses, against the store and the records imported before.
public final class UserImport: Sendable {
    let store: CaptureStore
    let check: ImportRecordCheck
    let options: UserImportOptions

    public init(setup: CaptureServerSetup, options: UserImportOptions, logger: Logger) throws {
        let recordModel =
            setup.schema.map(RecordModel.schema)
            ?? .flow(
                RecordAttributes(
                    flow: setup.flow,
                    preferredForms: [setup.config.editProfileFormName.value, setup.config.captureTraditionalRegistrationFormName.value]))
        let uniquePaths = CaptureStore.uniquePaths(of: setup.flow)
        store = try CaptureStore(
            location: setup.database ?? .sqlite(path: setup.databasePath), keyPath: setup.databasePath + ".key",
            maximumRecordSize: setup.settings.maximumRecordSize, refreshLifetime: setup.settings.refreshLifetime,
            uniquePaths: uniquePaths, recordModel: recordModel, migrate: setup.migrate, logger: logger)
        check = ImportRecordCheck(
            model: recordModel, uniquePaths: uniquePaths, limits: RecordLimits(maximumSize: setup.settings.maximumRecordSize), now: setup.clock())
        self.options = options
    }

    /// The import a running server's just-in-time migration writes with: its store and
    /// record model, records skipped when the store holds them already.
    init(store: CaptureStore, model: RecordModel, now: Int) {
        self.store = store
        check = ImportRecordCheck(model: model, uniquePaths: store.uniquePaths, limits: store.recordLimits, now: now)
        options = UserImportOptions(format: .jsonl, onConflict: .skip)
    }

    /// Just-in-time migration: one record as the legacy Capture's `/entity.find` gives it,
    /// checked and written as an import writes it (ids, uuid, plural element ids, profiles,
    /// timestamps), in one transaction, with `replacingPassword` (the server's own hash of the
    /// password just checked) in place of the imported one when given. A record the store
    /// holds already (another sign-in moved it first) is skipped.
    func move(_ record: JSONValue, replacingPassword: String?) async throws -> UserImportOutcome {
        let user: ImportedUser
        switch check.check(record) {
        case .failure(let refusal): return UserImportOutcome(line: 1, kind: .refused, refusal: refusal)
        case .success(let checked): user = checked
        }
        let (kind, refusal, id) = try await store.database.transaction { db in
            try await self.store.lockRecordWrites(db)
            let given: String?? = replacingPassword.map { .some($0) } ?? .none
            let saved = try await self.save(user, passwordHash: given, db)
            try await self.advanceIDSequence(db)
            return saved
        }
        return UserImportOutcome(line: 1, kind: kind, id: id ?? user.id, uuid: user.uuid, refusal: refusal)
    }

    /// Imports the records of the open file `descriptor` (closed at the end unless it is
    /// standard input). `progress` hears the records and bytes done after each batch;
    /// `outcome` every record's fate, in file order, once its batch is committed (a dry run:
    /// as it is checked, possibly on another task). Throws when the file or the database
    /// cannot be read or written (what was committed before stays).
    public func run(
        descriptor: Int32, progress: @escaping @Sendable (Int, Int64) -> Void = { _, _ in },
        outcome: @escaping @Sendable (UserImportOutcome) -> Void
    ) async throws -> UserImportSummary {
        let check = check
        let reader = ImportRecordReader(
            descriptor: descriptor, format: options.format, maximumLineBytes: max(store.recordLimits.maximumSize * 2, 1 << 16),
            cellValue: { names, text in check.cellValue(names, text) })
        defer { reader.finish() }
        try await store.prepare()
        let tally = ImportTally(dryRun: options.dryRun)
        let report: @Sendable (UserImportOutcome, ImportedUser?) -> Void = { result, user in
            tally.add(result, user)
            outcome(result)
        }
        if options.dryRun {
            // One transaction, rolled back: the checks see the records before, as an import would.
            do {
                try await store.database.transaction { db in
                    try await self.store.lockRecordWrites(db)
                    while try await self.importBatch(reader, db, report: report) {
                        progress(tally.records, reader.bytesRead)
                    }
                    throw DryRunEnd()
                }
            } catch is DryRunEnd {}
        } else {
            // The next batch is read and checked while this one is written.
            var next = Task { try await self.readAndCheck(reader) }
            while true {
                guard let checked = try await next.value else { break }
                next = Task { try await self.readAndCheck(reader) }
                let (outcomes, more) = try await store.database.transaction { db in
                    try await self.store.lockRecordWrites(db)
                    let saved = try await self.saveBatch(checked, db)
                    try await self.advanceIDSequence(db)
                    return saved
                }
                // Said once committed (and outside the database's tasks).
                for (result, user) in outcomes { report(result, user) }
                progress(tally.records, reader.bytesRead)
                if !more { break }
            }
            _ = try? await next.value
        }
        var summary = tally.summary
        summary.bytesRead = reader.bytesRead
        return summary
    }

    private struct DryRunEnd: Error {}

    /// Reads, checks and stores one batch in `db`; false at the end of the file or when the
    /// import stopped.
    private func importBatch(
        _ reader: ImportRecordReader, _ db: any SQLDatabase, report: @escaping @Sendable (UserImportOutcome, ImportedUser?) -> Void
    ) async throws -> Bool {
        guard let checked = try await readAndCheck(reader) else { return false }
        let (outcomes, more) = try await saveBatch(checked, db)
        for (result, user) in outcomes { report(result, user) }
        return more
    }

    /// The next batch of the file, each record checked (on as many tasks as there are cores);
    /// nil at the end of the file.
    private func readAndCheck(_ reader: ImportRecordReader) async throws -> [(Int, Result<ImportedUser, ImportRefusal>)]? {
        let lines = try reader.next(options.batchSize)
        if lines.isEmpty { return nil }
        let check = check
        let parts = max(1, min(System.coreCount, lines.count / 64))
        if parts == 1 { return lines.map { line in (line.line, line.record.flatMap { check.check($0) }) } }
        let size = (lines.count + parts - 1) / parts
        return await withTaskGroup(of: (Int, [(Int, Result<ImportedUser, ImportRefusal>)]).self) { group in
            for part in 0..<parts {
                let slice = Array(lines[min(lines.count, part * size)..<min(lines.count, (part + 1) * size)])
                group.addTask { (part, slice.map { line in (line.line, line.record.flatMap { check.check($0) }) }) }
            }
            var results = Array(repeating: [(Int, Result<ImportedUser, ImportRefusal>)](), count: parts)
            for await (part, checked) in group { results[part] = checked }
            return results.flatMap { $0 }
        }
    }

    /// Stores checked records: what became of each, and false when `--on-conflict fail`
    /// stopped the import. The usual record (new, with its Capture id) is decided against an
    /// index of what the store holds for the whole batch (`BatchIndex`: a few queries) and
    /// written with the others in multi-row inserts; the rest (an update, a record without an
    /// id, a unique attribute the flow does not name) one at a time (`save`), after which the
    /// index is read again.
    private func saveBatch(
        _ records: [(Int, Result<ImportedUser, ImportRefusal>)], _ db: any SQLDatabase
    ) async throws -> ([(UserImportOutcome, ImportedUser?)], Bool) {
        var outcomes: [(UserImportOutcome, ImportedUser?)] = []
        let users = records.compactMap { try? $0.1.get() }
        var index = try await BatchIndex.load(users, store: store, db)
        var pending: [(slot: Int, user: ImportedUser)] = []
        for (line, result) in records {
            let user: ImportedUser
            switch result {
            case .failure(let refusal):
                outcomes.append((UserImportOutcome(line: line, kind: .refused, refusal: refusal), nil))
                continue
            case .success(let checked): user = checked
            }
            let fast = index.decide(user, onConflict: options.onConflict, uniquePaths: store.uniquePaths)
            switch fast {
            case .refused(let refusal):
                outcomes.append((UserImportOutcome(line: line, kind: .refused, id: user.id, uuid: user.uuid, refusal: refusal), user))
            case .existing(let id):
                let kind: UserImportOutcome.Kind = options.onConflict == .fail ? .stopped : .skipped
                let refusal = ImportRefusal(
                    attribute: "/uuid", reason: "the store holds this record already (--on-conflict \(options.onConflict.rawValue))")
                outcomes.append((UserImportOutcome(line: line, kind: kind, id: id, uuid: user.uuid, refusal: refusal), user))
                if kind == .stopped {
                    try await flush(&pending, into: &outcomes, db)
                    return (outcomes, false)
                }
            case .insert:
                index.add(user, id: user.id!, uniquePaths: store.uniquePaths)
                pending.append((outcomes.count, user))
                outcomes.append((UserImportOutcome(line: line, kind: .imported, id: user.id, uuid: user.uuid), user))
                if pending.count >= 250 { try await flush(&pending, into: &outcomes, db) }
            case .oneByOne:
                try await flush(&pending, into: &outcomes, db)
                let (kind, refusal, id) = try await save(user, db)
                outcomes.append((UserImportOutcome(line: line, kind: kind, id: id ?? user.id, uuid: user.uuid, refusal: refusal), user))
                if kind == .stopped { return (outcomes, false) }
                if kind == .imported || kind == .updated { index = try await BatchIndex.load(users, store: store, db) }
            }
        }
        try await flush(&pending, into: &outcomes, db)
        return (outcomes, true)
    }

    /// Writes the records decided for insertion: the users rows in one statement, then their
    /// unique keys and identities. Should the database refuse the rows (another writer got in
    /// first), each is written on its own instead, its outcome said again.
    private func flush(
        _ pending: inout [(slot: Int, user: ImportedUser)], into outcomes: inout [(UserImportOutcome, ImportedUser?)], _ db: any SQLDatabase
    ) async throws {
        guard !pending.isEmpty else { return }
        defer { pending.removeAll() }
        let postgres = store.database.engine == .postgres
        if postgres { try await db.raw("SAVEPOINT import_batch").run() }
        do {
            let users = db.insert(into: "users").columns(
                "id", "uuid", "email_normalized", "email_key", "password_hash", "record", "created", "last_updated", "next_element_id")
            for (_, user) in pending {
                users.values(
                    [
                        user.id!, user.uuid, user.emailNormalized, CaptureStore.emailKey(user.emailNormalized), user.password?.storedText,
                        user.recordText, user.created, user.lastUpdated, user.nextElementID
                    ] as [any Encodable & Sendable])
            }
            try await users.run()
            if postgres { try await db.raw("RELEASE SAVEPOINT import_batch").run() }
        } catch let error where StoreDatabase.isUniqueViolation(error) {
            if postgres {
                try await db.raw("ROLLBACK TO SAVEPOINT import_batch").run()
                try await db.raw("RELEASE SAVEPOINT import_batch").run()
            }
            for (slot, user) in pending {
                let (kind, refusal, id) = try await save(user, db)
                outcomes[slot].0.kind = kind
                outcomes[slot].0.refusal = refusal
                outcomes[slot].0.id = id ?? user.id
            }
            return
        }
        var keys: [[any Encodable & Sendable]] = []
        var identities: [[any Encodable & Sendable]] = []
        for (_, user) in pending {
            for value in user.unique where value.path != "email" {
                guard let comparison = store.uniquePaths[value.path] else { continue }
                keys.append([user.id!, value.path, comparison.key(value.value)])
            }
            for identity in user.identities {
                identities.append([user.id!, identity.provider, identity.identifier, identity.verifiedEmail])
            }
        }
        if !keys.isEmpty {
            let insert = db.insert(into: "unique_values").columns("user_id", "path", "value_key")
            for row in keys { insert.values(row) }
            try await insert.run()
        }
        if !identities.isEmpty {
            let insert = db.insert(into: "identities").columns("user_id", "provider", "identifier", "verified_email")
            for row in identities { insert.values(row) }
            try await insert.run()
        }
    }

    // MARK: one record

    /// Writes one record (or not): what became of it, why, and its id.
    private func save(
        _ user: ImportedUser, passwordHash given: String?? = nil, _ db: any SQLDatabase
    ) async throws -> (UserImportOutcome.Kind, ImportRefusal?, Int64?) {
        // The record the store holds already: the same uuid (and id, when the file gives one).
        var existing: (id: Int64, recordText: String, passwordHash: String?)?
        let rows: [any SQLRow]
        if let id = user.id {
            rows = try await db.raw("SELECT id, uuid, record, password_hash FROM users WHERE uuid = \(bind: user.uuid) OR id = \(bind: id)").all()
        } else {
            rows = try await db.raw("SELECT id, uuid, record, password_hash FROM users WHERE uuid = \(bind: user.uuid)").all()
        }
        for row in rows {
            let rowID = try row.int64("id")
            let rowUUID = try row.string("uuid")
            if rowUUID == user.uuid {
                if let id = user.id, id != rowID {
                    return (.refused, ImportRefusal(attribute: "/id", reason: "the store holds this uuid under the id \(rowID), not \(id)"), nil)
                }
                existing = (rowID, try row.optionalString("record") ?? "{}", try row.optionalString("password_hash"))
            } else {
                return (
                    .refused, ImportRefusal(attribute: "/id", reason: "the store holds another record (uuid \(rowUUID)) with the id \(rowID)"), nil
                )
            }
        }
        var passwordHash = given ?? user.password?.storedText
        if let existing {
            // A password of the server's own format was set (or made at a sign-in) since the
            // export: it is newer than the file's, and stays.
            if let stored = existing.passwordHash, !stored.hasPrefix("{") { passwordHash = stored }
            switch options.onConflict {
            case .skip:
                return (.skipped, ImportRefusal(attribute: "/uuid", reason: "the store holds this record already (--on-conflict skip)"), existing.id)
            case .fail:
                return (.stopped, ImportRefusal(attribute: "/uuid", reason: "the store holds this record already (--on-conflict fail)"), existing.id)
            case .update:
                if existing.recordText == user.recordText.replacingID(existing.id, given: user.id), existing.passwordHash == passwordHash {
                    return (.skipped, ImportRefusal(attribute: "/uuid", reason: "the store holds this record as the file has it"), existing.id)
                }
            }
        }
        let taken = try await store.conflicts(user.unique.map { ($0.field, $0.path, $0.value) }, excluding: existing?.id, db)
        if let field = taken.first {
            return (.refused, ImportRefusal(attribute: field, reason: "another record holds this value (or one that looks the same)"), nil)
        }
        for identity in user.identities {
            if let owner = try await db.raw(
                "SELECT user_id FROM identities WHERE provider = \(bind: identity.provider) AND identifier = \(bind: identity.identifier)"
            ).first(), try owner.int64("user_id") != existing?.id {
                return (.refused, ImportRefusal(attribute: "/profiles", reason: "the identity \(identity.identifier) belongs to another record"), nil)
            }
        }
        // SQLite: only the record's first statement (the users row) can meet a unique index (the
        // rows after it have none, or insert only what is not there), and a failed statement
        // leaves the transaction as it was: no savepoint needed. Any other failure rolls the
        // batch back. PostgreSQL ends a transaction at any failed statement: a savepoint each.
        let savepoint = store.database.engine == .postgres
        if savepoint { try await db.raw("SAVEPOINT import_record").run() }
        do {
            let id = try await write(user, passwordHash: passwordHash, existingID: existing?.id, db)
            if savepoint { try await db.raw("RELEASE SAVEPOINT import_record").run() }
            return (existing == nil ? .imported : .updated, nil, id)
        } catch let error where StoreDatabase.isUniqueViolation(error) {
            if savepoint {
                try await db.raw("ROLLBACK TO SAVEPOINT import_record").run()
                try await db.raw("RELEASE SAVEPOINT import_record").run()
            }
            return (
                .refused, ImportRefusal(attribute: "/", reason: "another record holds one of its unique values (the database's index refused it)"),
                nil
            )
        } catch {
            if savepoint {
                try? await db.raw("ROLLBACK TO SAVEPOINT import_record").run()
                try? await db.raw("RELEASE SAVEPOINT import_record").run()
            }
            throw error
        }
    }

    /// The statements of one record; its id.
    private func write(_ user: ImportedUser, passwordHash: String?, existingID: Int64?, _ db: any SQLDatabase) async throws -> Int64 {
        let emailKey = CaptureStore.emailKey(user.emailNormalized)
        let id: Int64
        if let existingID {
            id = existingID
            let text = user.recordText.replacingID(existingID, given: user.id)
            try await db.raw(
                """
                UPDATE users SET record = \(bind: text), email_normalized = \(bind: user.emailNormalized), email_key = \(bind: emailKey),
                password_hash = \(bind: passwordHash), created = \(bind: user.created), last_updated = \(bind: user.lastUpdated),
                next_element_id = \(bind: user.nextElementID) WHERE id = \(bind: existingID)
                """
            ).run()
            try await db.raw("DELETE FROM unique_values WHERE user_id = \(bind: existingID)").run()
        } else if let given = user.id {
            id = given
            try await db.raw(
                """
                INSERT INTO users (id, uuid, email_normalized, email_key, password_hash, record, created, last_updated, next_element_id)
                VALUES (\(bind: given), \(bind: user.uuid), \(bind: user.emailNormalized), \(bind: emailKey), \(bind: passwordHash),
                \(bind: user.recordText), \(bind: user.created), \(bind: user.lastUpdated), \(bind: user.nextElementID))
                """
            ).run()
        } else {
            // PostgreSQL: past the ids given explicitly before, in this batch too.
            try await advanceIDSequence(db)
            guard
                let row = try await db.raw(
                    """
                    INSERT INTO users (uuid, email_normalized, email_key, password_hash, record, created, last_updated, next_element_id)
                    VALUES (\(bind: user.uuid), \(bind: user.emailNormalized), \(bind: emailKey), \(bind: passwordHash), '{}',
                    \(bind: user.created), \(bind: user.lastUpdated), \(bind: user.nextElementID)) RETURNING id
                    """
                ).first()
            else { throw StoreUnavailable(reason: "the new user's id was not returned") }
            id = try row.int64("id")
            let text = user.record.setting("id", .integer(Int(id))).serialized()
            try await db.raw("UPDATE users SET record = \(bind: text) WHERE id = \(bind: id)").run()
        }
        // The keys of the flow's unique values, as `storeUniqueKeys` writes them.
        for value in user.unique where value.path != "email" {
            guard let comparison = store.uniquePaths[value.path] else { continue }
            try await db.raw(
                "INSERT INTO unique_values (user_id, path, value_key) VALUES (\(bind: id), \(bind: value.path), \(bind: comparison.key(value.value)))"
            ).run()
        }
        for identity in user.identities {
            try await db.raw(
                """
                INSERT INTO identities (user_id, provider, identifier, verified_email)
                SELECT \(bind: id), \(bind: identity.provider), \(bind: identity.identifier), \(bind: identity.verifiedEmail)
                WHERE NOT EXISTS (SELECT 1 FROM identities WHERE provider = \(bind: identity.provider) AND identifier = \(bind: identity.identifier))
                """
            ).run()
        }
        return id
    }

    /// PostgreSQL: ids given explicitly leave the identity sequence behind; it moves past the
    /// largest id, so that the next sign-up gets a new one. (SQLite's AUTOINCREMENT does so.)
    private func advanceIDSequence(_ db: any SQLDatabase) async throws {
        guard store.database.engine == .postgres else { return }
        try await db.raw(
            """
            SELECT setval(pg_get_serial_sequence('users', 'id'),
            GREATEST((SELECT COALESCE(max(id), 1) FROM users), COALESCE(pg_sequence_last_value(pg_get_serial_sequence('users', 'id')::regclass), 1)))
            """
        ).run()
    }
}

/// The counts of a run, kept as outcomes arrive.
final class ImportTally: Sendable {
    private let state: Mutex<UserImportSummary>

    init(dryRun: Bool) {
        var summary = UserImportSummary()
        summary.dryRun = dryRun
        state = Mutex(summary)
    }

    var summary: UserImportSummary { state.withLock { $0 } }
    var records: Int { state.withLock { $0.records } }

    func add(_ outcome: UserImportOutcome, _ user: ImportedUser?) {
        state.withLock { summary in
            summary.counts[outcome.kind, default: 0] += 1
            if outcome.kind == .stopped { summary.stoppedAtLine = outcome.line }
            guard outcome.kind == .imported || outcome.kind == .updated, let user else { return }
            let type = user.password?.type ?? "none"
            summary.passwordTypes[type, default: 0] += 1
            if user.password != nil, PasswordHashSchemes.scheme(for: type) == nil { summary.unreadPasswordTypes.insert(type) }
        }
    }
}

extension String {
    /// A record's text stored under `id` when the file gave none (`given` nil): the text with
    /// the id set. Otherwise as it is.
    fileprivate func replacingID(_ id: Int64, given: Int64?) -> String {
        guard given == nil, let record = try? JSONValue.parse(self) else { return self }
        return record.setting("id", .integer(Int(id))).serialized()
    }
}

/// What the store holds that a batch's records may meet, read in a few queries: the records
/// with their uuids or ids, the email keys and unique keys of their values, the identities of
/// their profiles. Records decided for insertion are added as the batch goes, so that two
/// records of one batch meet too. The keys are those `CaptureStore.holds` compares.
struct BatchIndex {
    var uuids: [String: Int64] = [:]
    var ids: [Int64: String] = [:]
    var emailKeys: [String: Int64] = [:]
    var emails: [String: Int64] = [:]
    var values: [String: Int64] = [:]
    var identities: [String: Int64] = [:]

    enum Decision {
        case insert
        case refused(ImportRefusal)
        /// The store holds it (same uuid and id): skipped, or where the import stops.
        case existing(Int64)
        /// Decided by `save`, on the database.
        case oneByOne
    }

    static func valueKey(_ path: String, _ key: String) -> String { path + "\u{1}" + key }
    static func identityKey(_ identity: StoredIdentity) -> String { identity.provider + "\u{1}" + identity.identifier }

    static func load(_ users: [ImportedUser], store: CaptureStore, _ db: any SQLDatabase) async throws -> BatchIndex {
        var index = BatchIndex()
        if users.isEmpty { return index }
        let uuids = users.map(\.uuid)
        let ids = users.compactMap(\.id)
        for row in try await db.select().columns("id", "uuid").from("users").where("uuid", .in, uuids).orWhere("id", .in, ids.isEmpty ? [0] : ids)
            .all()
        {
            let id = try row.int64("id")
            let uuid = try row.string("uuid")
            index.uuids[uuid] = id
            index.ids[id] = uuid
        }
        let normalized = users.compactMap(\.emailNormalized)
        if !normalized.isEmpty {
            let keys = normalized.compactMap { CaptureStore.emailKey($0) }
            for row in try await db.select().columns("id", "email_key", "email_normalized").from("users")
                .where("email_key", .in, keys).orWhere("email_normalized", .in, normalized).all()
            {
                let id = try row.int64("id")
                if let key = try row.optionalString("email_key") { index.emailKeys[key] = id }
                if let email = try row.optionalString("email_normalized") { index.emails[email] = id }
            }
        }
        var valueKeys: [String] = []
        for user in users {
            for value in user.unique where value.path != "email" {
                if let comparison = store.uniquePaths[value.path] { valueKeys.append(comparison.key(value.value)) }
            }
        }
        if !valueKeys.isEmpty {
            for row in try await db.select().columns("user_id", "path", "value_key").from("unique_values").where("value_key", .in, valueKeys).all() {
                index.values[valueKey(try row.string("path"), try row.string("value_key"))] = try row.int64("user_id")
            }
        }
        let identifiers = users.flatMap { $0.identities.map(\.identifier) }
        if !identifiers.isEmpty {
            for row in try await db.select().columns("user_id", "provider", "identifier").from("identities").where("identifier", .in, identifiers)
                .all()
            {
                index.identities[try row.string("provider") + "\u{1}" + (try row.string("identifier"))] = try row.int64("user_id")
            }
        }
        return index
    }

    func decide(_ user: ImportedUser, onConflict: UserImportOptions.OnConflict, uniquePaths: [String: LookAlike.Comparison]) -> Decision {
        if let held = uuids[user.uuid] {
            if let id = user.id, id != held {
                return .refused(ImportRefusal(attribute: "/id", reason: "the store holds this uuid under the id \(held), not \(id)"))
            }
            return onConflict == .update ? .oneByOne : .existing(held)
        }
        guard let id = user.id else { return .oneByOne }
        if let other = ids[id] {
            return .refused(ImportRefusal(attribute: "/id", reason: "the store holds another record (uuid \(other)) with the id \(id)"))
        }
        for value in user.unique {
            if value.path == "email" {
                let normalized = normalizeEmail(value.value)
                if CaptureStore.emailKey(normalized).flatMap({ emailKeys[$0] }) != nil || emails[normalized] != nil {
                    return .refused(ImportRefusal(attribute: value.field, reason: "another record holds this value (or one that looks the same)"))
                }
            } else if let comparison = uniquePaths[value.path] {
                if values[Self.valueKey(value.path, comparison.key(value.value))] != nil {
                    return .refused(ImportRefusal(attribute: value.field, reason: "another record holds this value (or one that looks the same)"))
                }
            } else {
                return .oneByOne
            }
        }
        for identity in user.identities where identities[Self.identityKey(identity)] != nil {
            return .refused(ImportRefusal(attribute: "/profiles", reason: "the identity \(identity.identifier) belongs to another record"))
        }
        return .insert
    }

    mutating func add(_ user: ImportedUser, id: Int64, uniquePaths: [String: LookAlike.Comparison]) {
        uuids[user.uuid] = id
        ids[id] = user.uuid
        if let email = user.emailNormalized {
            emails[email] = id
            if let key = CaptureStore.emailKey(email) { emailKeys[key] = id }
        }
        for value in user.unique where value.path != "email" {
            if let comparison = uniquePaths[value.path] { values[Self.valueKey(value.path, comparison.key(value.value))] = id }
        }
        for identity in user.identities { identities[Self.identityKey(identity)] = id }
    }
}
