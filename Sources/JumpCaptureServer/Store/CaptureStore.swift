import Crypto
import Logging
import SQLKit
import JumpCapture
import JumpForms
import Synchronization

/// The server's database, SQLite (the embedded default) or PostgreSQL, through one query
/// layer (`StoreDatabase`, SQLKit): every query is written once. SQLite runs in WAL mode with
/// `synchronous=FULL` (an acknowledged write survives a crash of the process or the machine),
/// foreign keys on; its file is created with mode 0600 (SQLite gives its `-wal` and `-shm`
/// files the same). Numbered migrations, applied under a lock (CaptureStore+Migrations).
/// Unique indexes guard the normalized email and (provider, identifier). Access tokens are
/// stored as SHA-256 hashes; refresh secrets, which the refresh signature check needs in
/// full, are sealed with AES-GCM under the server's key (`keyPath`, mode 0600: every instance
/// on one PostgreSQL database needs the same file). Rows that can no longer be used (expired
/// access tokens past the refresh window, expired Engage tokens and email codes) are deleted
/// at most once a minute, inside (or just before) the writes that issue new ones.
///
/// Opening the store does no I/O: the first call migrates the database (unless
/// `migrate` is false) and brings the unique keys and element ids up to date (`prepared()`);
/// `serve` calls `prepare()` before it listens, so that a database it cannot use stops it.
final class CaptureStore: Sendable {
    let database: StoreDatabase
    /// The SQLite file (nil on PostgreSQL).
    let path: String?
    /// The key refresh secrets are sealed with (bytes: `SymmetricKey` is not `Sendable`).
    let secretsKey: [UInt8]
    /// When purges are due.
    let purges = PurgeSchedule()
    /// Seconds a session can be refreshed for after its sign-in (`server.refreshLifetime`).
    let refreshLifetime: Int
    /// The record paths whose values are kept unique, and how they compare (the flow's
    /// `unique` fields): their keys are stored in `unique_values` (CaptureStore+UniqueKeys).
    let uniquePaths: [String: LookAlike.Comparison]
    /// Whether `uniquePaths` was given: a store that writes no records leaves the keys alone.
    let refreshesUniqueKeys: Bool
    /// What a write may leave a record as.
    let recordLimits: RecordLimits
    /// Which lists of a record are plurals, whose elements have ids (nil: a store that writes
    /// no records).
    let recordModel: RecordModel?
    /// Whether opening applies the migrations (`serve --no-migrate`: no, the schema must be current).
    let migrates: Bool
    /// The preparation, run once (again after a failure).
    private let preparation = Mutex<Task<Void, any Error>?>(nil)

    /// The default of `refreshLifetime` (30 days): a session can be refreshed for this long
    /// after its sign-in; then its row is deleted. A token without a refresh secret is deleted
    /// when it expires.
    static let refreshWindow = 30 * 86_400

    /// `path`: a SQLite file (the key beside it, `<path>.key`).
    convenience init(
        path: String, maximumRecordSize: Int = ServerSettings().maximumRecordSize, refreshLifetime: Int = refreshWindow,
        uniquePaths: [String: LookAlike.Comparison]? = nil, recordModel: RecordModel? = nil
    ) throws {
        try self.init(
            location: .sqlite(path: path), keyPath: path + ".key", maximumRecordSize: maximumRecordSize, refreshLifetime: refreshLifetime,
            uniquePaths: uniquePaths, recordModel: recordModel)
    }

    /// `location`: the database; `keyPath`: the file of the key refresh secrets are sealed with
    /// (made when missing); `maximumRecordSize`: the largest record a write may leave
    /// (`RecordLimits`); `refreshLifetime`: how long after its sign-in a session can be
    /// refreshed; `uniquePaths`: the record paths kept unique, whose keys are brought up to date
    /// here (nil: a store that writes no records, such as the outbox's reader, leaves them as
    /// they are); `migrate`: whether opening applies the migrations; `metrics`: where the
    /// pool's waits are measured; `connections`: how many the pool may open (nil:
    /// `StoreDatabase`'s default).
    init(
        location: DatabaseLocation, keyPath: String, maximumRecordSize: Int = ServerSettings().maximumRecordSize,
        refreshLifetime: Int = refreshWindow, uniquePaths: [String: LookAlike.Comparison]? = nil, recordModel: RecordModel? = nil,
        migrate: Bool = true, metrics: ServerMetrics? = nil, connections: Int? = nil, logger: Logger = Logger(label: "jump-forms.store")
    ) throws {
        if case .sqlite(let path) = location {
            self.path = path
            try PrivateFile.create(path)
        } else {
            self.path = nil
        }
        self.recordModel = recordModel
        self.recordLimits = RecordLimits(maximumSize: maximumRecordSize)
        self.refreshLifetime = refreshLifetime
        self.uniquePaths = uniquePaths ?? [:]
        self.refreshesUniqueKeys = uniquePaths != nil
        self.migrates = migrate
        secretsKey = try PrivateFile.key(at: keyPath).withUnsafeBytes { Array($0) }
        database = try StoreDatabase(location, connections: connections, metrics: metrics, logger: logger)
    }

    /// Migrates the database (or checks that its schema is current) and brings the derived
    /// data up to date, once; throws what stops the store (the database cannot be reached, its
    /// schema is newer than this server's).
    func prepare() async throws {
        let task = preparation.withLock { task -> Task<Void, any Error> in
            if let task { return task }
            let made = Task { try await self.runPreparation() }
            task = made
            return made
        }
        do {
            try await task.value
        } catch {
            // Tried again by the next call (a PostgreSQL server that was down may be back).
            preparation.withLock { if $0 == task { $0 = nil } }
            throw error
        }
    }

    /// `prepare()`, its failures said in one line (`DatabaseUnusable`): what `serve` prints
    /// before it exits.
    func prepareForServing() async throws {
        do {
            try await prepare()
        } catch {
            throw Self.unusable(error, database.location)
        }
    }

    /// What stops a store from using the database at `location`, in one line.
    static func unusable(_ error: any Error, _ location: DatabaseLocation) -> DatabaseUnusable {
        switch error {
        case let error as StoreUnavailable:
            switch location {
            case .postgres(let postgres):
                DatabaseUnusable(description: "cannot reach the database at \(postgres.address) (PostgreSQL \(postgres.database)): \(error.reason)")
            case .sqlite(let path):
                DatabaseUnusable(description: "cannot open the database \(path): \(error.reason)")
            }
        case let error as StoreSchemaError:
            DatabaseUnusable(description: "cannot serve \(location): \(error)")
        case let error as DatabaseUnusable:
            error
        default:
            DatabaseUnusable(description: "cannot use the database \(location): \(error)")
        }
    }

    private func runPreparation() async throws {
        if migrates {
            try await Self.migrate(database)
        } else {
            try await Self.checkSchema(database)
        }
        let uniquePaths = uniquePaths
        if refreshesUniqueKeys { try await database.transaction { db in try await Self.refreshUniqueKeys(uniquePaths, db) } }
        if let recordModel { try await database.transaction { db in try await Self.widenElementIDs(recordModel, db) } }
    }

    /// A read outside a transaction, on a prepared database.
    func read<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await prepare()
        return try await database.withConnection(body)
    }

    /// A write transaction, on a prepared database.
    func write<R: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> R) async throws -> R {
        try await prepare()
        return try await database.transaction(body)
    }

    /// One statement that writes, alone (`StoreDatabase.writeStatement`: no `BEGIN` and
    /// `COMMIT` round trips), on a prepared database; the purge first when one is due, in a
    /// transaction of its own. Returns the rows of its `RETURNING`.
    func writeStatement<Statement: PreparedStatement>(_ statement: Statement, now: Int) async throws -> [any SQLRow] {
        try await prepare()
        try await purgeWhenDue(now: now)
        return try await database.writeStatement(statement)
    }

    /// A read, then the one statement that writes it asks for (`StoreDatabase.readThenWrite`:
    /// on PostgreSQL one lease of a connection for both), on a prepared database; then, when
    /// it wrote, the purge when one is due, in a transaction of its own (after: the read sees
    /// a row as it was when the request came, such as a refresh's expired token, to say why it
    /// is refused).
    func readThenWrite<Statement: PreparedStatement, R: Sendable>(
        now: Int, _ read: @escaping @Sendable (any SQLDatabase) async throws -> (R, Statement?)
    ) async throws -> (R, [any SQLRow]?) {
        try await prepare()
        let (result, rows) = try await database.readThenWrite(read)
        if rows != nil { try await purgeWhenDue(now: now) }
        return (result, rows)
    }

    /// The purge when one is due, in a transaction of its own (before or after a write that
    /// runs without one).
    private func purgeWhenDue(now: Int) async throws {
        guard purges.isDue(now: now) else { return }
        let refreshLifetime = refreshLifetime
        let engine = database.engine
        try await database.transaction { db in try await Self.purge(db, now: now, refreshLifetime: refreshLifetime, engine: engine) }
    }

    // MARK: purge

    /// Deletes what can no longer be used, when the last purge is a minute old (or the clock
    /// went back): access tokens expired past the refresh window (at once without a refresh
    /// secret), expired Engage tokens and expired email codes. Runs inside the caller's write.
    func purgeIfDue(_ db: any SQLDatabase, now: Int) async throws {
        if purges.isDue(now: now) { try await Self.purge(db, now: now, refreshLifetime: refreshLifetime, engine: database.engine) }
    }

    static func purge(_ db: any SQLDatabase, now: Int, refreshLifetime: Int = refreshWindow, engine: StoreEngine) async throws {
        // An expired token whose session can no longer be refreshed (none without a secret).
        try await db.raw(
            "DELETE FROM access_tokens WHERE expires_at <= \(bind: now) AND (refresh_secret IS NULL OR signed_in_at <= \(bind: now - refreshLifetime))"
        ).run()
        try await db.raw("DELETE FROM engage_tokens WHERE expires_at <= \(bind: now)").run()
        try await db.raw("DELETE FROM codes WHERE expires_at <= \(bind: now)").run()
        // Expired authorization codes (and OAuth refresh tokens) stay an hour, so that a late
        // redemption hears 415 (expired) rather than "not valid".
        try await db.raw("DELETE FROM authorization_codes WHERE expires_at <= \(bind: now - expiredCodeMemory)").run()
        try await db.raw("DELETE FROM refresh_tokens WHERE expires_at <= \(bind: now - expiredCodeMemory)").run()
        try await purgeSharedState(db, now: now, engine: engine)
    }

    /// How long an expired authorization code or OAuth refresh token is kept (to say it
    /// expired rather than that it is not valid).
    static let expiredCodeMemory = 3600
}

/// When the store's purge is due: at most once a minute (by the caller's clock), or when the
/// clock went back.
final class PurgeSchedule: Sendable {
    /// When the last purge ran; `Int.min` before the first.
    private let last = Mutex<Int>(Int.min)

    /// Whether a purge is due at `now`; if so, it counts as done.
    func isDue(now: Int) -> Bool {
        last.withLock { last -> Bool in
            guard last == Int.min || now - last >= 60 || now < last else { return false }
            last = now
            return true
        }
    }
}

extension CaptureStore {
    /// A store for the commands that read the server's data (`outbox`, `feed`): it migrates
    /// an older database as the server would, and writes no records.
    static func reader(databasePath: String, database: DatabaseLocation?) throws -> CaptureStore {
        try CaptureStore(location: database ?? .sqlite(path: databasePath), keyPath: databasePath + ".key")
    }
}
