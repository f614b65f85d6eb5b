import Crypto
import GRDB
import JumpCapture
import JumpForms
import Synchronization

/// The server's SQLite file, through GRDB: a `DatabasePool` in WAL mode with
/// `synchronous=FULL` (an acknowledged write survives a crash of the process or the machine)
/// and its checkpoints run off the commit path (`WALCheckpointer`),
/// foreign keys on, and numbered migrations. Unique indexes guard the normalized email and
/// (provider, identifier). Access tokens are stored as SHA-256 hashes; refresh secrets, which
/// the refresh signature check needs in full, are sealed with AES-GCM under the server's key
/// (`<database>.key`, mode 0600). The database file is created with mode 0600 (SQLite gives
/// its `-wal` and `-shm` files the same). Rows that can no longer be used (expired access
/// tokens past the refresh window, expired Engage tokens and email codes) are deleted at most
/// once a minute, inside the writes that issue new ones.
final class CaptureStore: Sendable {
    let pool: DatabasePool
    /// The access token reads, on SQLite statements of their own.
    let tokens: TokenLookup
    let path: String
    /// The key refresh secrets are sealed with (bytes: `SymmetricKey` is not `Sendable`).
    let secretsKey: [UInt8]
    /// When purges are due.
    let purges = PurgeSchedule()
    /// Refreshes waiting for the writer, committed together.
    let rotations: GroupCommit<Rotation, Bool>
    /// WAL checkpoints, off the commit path.
    let checkpointer: WALCheckpointer
    /// Seconds a session can be refreshed for after its sign-in (`server.refreshLifetime`).
    let refreshLifetime: Int
    /// The record paths whose values are kept unique, and how they compare (the flow's
    /// `unique` fields): their keys are stored in `unique_values` (CaptureStore+UniqueKeys).
    let uniquePaths: [String: LookAlike.Comparison]
    /// What a write may leave a record as.
    let recordLimits: RecordLimits
    /// Which lists of a record are plurals, whose elements have ids (nil: a store that writes
    /// no records).
    let recordModel: RecordModel?

    /// The default of `refreshLifetime` (30 days): a session can be refreshed for this long
    /// after its sign-in; then its row is deleted. A token without a refresh secret is deleted
    /// when it expires.
    static let refreshWindow = 30 * 86_400

    /// `checkpointPages`: the WAL's size, in pages, past which a checkpoint is asked for;
    /// `maximumRecordSize`: the largest record a write may leave (`RecordLimits`);
    /// `refreshLifetime`: how long after its sign-in a session can be refreshed;
    /// `uniquePaths`: the record paths kept unique, whose keys are brought up to date here (nil:
    /// a store that writes no records, such as the outbox's reader, leaves them as they are).
    init(
        path: String, checkpointPages: Int32 = 1_000,
        maximumRecordSize: Int = ServerSettings().maximumRecordSize, refreshLifetime: Int = refreshWindow,
        uniquePaths: [String: LookAlike.Comparison]? = nil, recordModel: RecordModel? = nil
    ) throws {
        self.path = path
        self.recordModel = recordModel
        self.recordLimits = RecordLimits(maximumSize: maximumRecordSize)
        self.refreshLifetime = refreshLifetime
        self.uniquePaths = uniquePaths ?? [:]
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(10)
        configuration.prepareDatabase { db in
            try db.execute(sql: "PRAGMA synchronous = FULL")
        }
        try PrivateFile.create(path)
        pool = try DatabasePool(path: path, configuration: configuration)
        tokens = TokenLookup(path: path)
        try Self.migrator.migrate(pool)
        if let uniquePaths { try pool.write { db in try Self.refreshUniqueKeys(uniquePaths, db) } }
        if let recordModel { try pool.write { db in try Self.widenElementIDs(recordModel, db) } }
        // What the migrations and the key refill wrote goes into the database file now (a
        // passive checkpoint: it waits for nobody), so that serving starts from an empty WAL
        // and the checkpointer's marks count the server's own commits.
        try pool.writeWithoutTransaction { db in _ = try db.checkpoint(.passive) }
        checkpointer = WALCheckpointer(path: path, pages: checkpointPages)
        pool.writeWithoutTransaction { [checkpointer] db in checkpointer.attach(to: db.sqliteConnection!) }
        secretsKey = try PrivateFile.key(at: path + ".key").withUnsafeBytes { Array($0) }
        rotations = GroupCommit(writer: pool) { [purges] db, rotation in
            try Self.rotate(rotation, purges: purges, refreshLifetime: refreshLifetime, db)
        }
    }

    /// A read of a few indexed rows, run on the calling thread: GRDB's synchronous read runs
    /// the block on the caller (no hop to the reader's queue and back, which cost more than the
    /// read itself under load). It never waits long: in WAL mode readers do not wait for the
    /// writer, and the reader pool (5 connections) is larger than the number of threads that
    /// run requests (the cooperative pool, one per core). Scans and writes stay asynchronous.
    func quickRead<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.read(body)
    }

    // MARK: purge

    /// Deletes what can no longer be used, when the last purge is a minute old (or the clock
    /// went back): access tokens expired past the refresh window (at once without a refresh
    /// secret), expired Engage tokens and expired email codes. Runs inside the caller's write.
    func purgeIfDue(_ db: Database, now: Int) throws {
        try Self.purgeIfDue(db, now: now, purges, refreshLifetime: refreshLifetime)
    }

    static func purgeIfDue(_ db: Database, now: Int, _ purges: PurgeSchedule, refreshLifetime: Int) throws {
        if purges.isDue(now: now) { try purge(db, now: now, refreshLifetime: refreshLifetime) }
    }

    static func purge(_ db: Database, now: Int, refreshLifetime: Int = refreshWindow) throws {
        // An expired token whose session can no longer be refreshed (none without a secret).
        try db.execute(
            sql: "DELETE FROM access_tokens WHERE expires_at <= ? AND (refresh_secret IS NULL OR signed_in_at <= ?)",
            arguments: [now, now - refreshLifetime])
        try db.execute(sql: "DELETE FROM engage_tokens WHERE expires_at <= ?", arguments: [now])
        try db.execute(sql: "DELETE FROM codes WHERE expires_at <= ?", arguments: [now])
        // Expired authorization codes (and OAuth refresh tokens) stay an hour, so that a late
        // redemption hears 415 (expired) rather than "not valid".
        try db.execute(sql: "DELETE FROM authorization_codes WHERE expires_at <= ?", arguments: [now - expiredCodeMemory])
        try db.execute(sql: "DELETE FROM refresh_tokens WHERE expires_at <= ?", arguments: [now - expiredCodeMemory])
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
