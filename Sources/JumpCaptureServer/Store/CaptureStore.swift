import Crypto
import GRDB
import JumpCapture
import JumpForms
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A user row: the record (never with the password) and what is kept beside it.
struct StoredUser: Sendable {
    var id: Int64
    var uuid: String
    /// The record's JSON text as stored (written by `JSONValue.serialized()`): kept as text, so
    /// an answer that sends the record whole need not parse and write it again.
    var recordText: String
    var passwordHash: String?
    var emailNormalized: String?

    /// The record as a value, parsed from `recordText` on every use (bind it once).
    var record: JSONValue { CaptureStore.record(fromText: recordText) }
}

/// A linked identity.
struct StoredIdentity: Sendable, Hashable {
    var provider: String
    var identifier: String
    var verifiedEmail: String?
}

/// An access token's session.
struct StoredToken: Sendable {
    var tokenHash: String
    var userID: Int64
    var expiresAt: Int
    var refreshSecret: RefreshSecret?
    /// When the session's user signed in (seconds since 1970): refreshes keep it, and the
    /// session cannot be refreshed past `refreshLifetime` after it.
    var signedInAt: Int
    /// The `/oauth/token` grant the token belongs to (its refresh tokens carry the same), or nil
    /// for a Capture session, whose one row is its whole refresh chain.
    var chain: String? = nil
}

/// A message of the outbox (password resets, verification emails).
public struct OutboxMessage: Sendable, Hashable {
    public var id: Int64
    public var kind: String
    public var recipient: String
    public var subject: String
    public var body: String
    public var createdAt: Int
}

/// What the Engage double knows about a token it issued.
struct EngageGrant: Sendable {
    var provider: String
    var identifier: String
    var profile: JSONValue
    var expiresAt: Int
    /// The account a 380 (email address in use) named for this token: the only one a sign-in
    /// with it as `merge_token` may link the identity to. Nil until a 380 names one.
    var mergeUserID: Int64? = nil
}

/// Why a write was refused.
enum StoreConflict: Error, Sendable, Hashable {
    /// Values that must be unique already belong to another record: field names.
    case notUnique([String])
    case identityTaken
    /// The Engage token was used already (or has expired): each one completes one operation.
    case engageTokenUsed
    /// The record a write would leave is larger than the server stores (`RecordLimits`): its
    /// size and the limit, in bytes of JSON text.
    case recordTooLarge(size: Int, limit: Int)
    /// The record a write would leave nests deeper than the server stores.
    case recordTooDeep(depth: Int, limit: Int)
    /// The stored record is not JSON the server can read (written by an older version): it is
    /// left as it is, and no write replaces it. The reader's reason.
    case undecodableRecord(String)
}

/// What every write leaves a record within, so that the server (and a client with the same
/// JSON reader) can read it back: at most `maximumSize` bytes of JSON text (the
/// `maximumRecordSize` setting) and at most `maximumDepth` levels of nesting.
struct RecordLimits: Sendable, Hashable {
    /// Well inside the JSON reader's 512 levels, with room for the answers that wrap a record.
    static let maximumDepth = 100

    var maximumSize: Int

    /// The refusal of a record text (and its value) a write would leave; nil when it fits. A
    /// record already over the size limit may still shrink: only a write that makes it larger
    /// than `previousSize` is refused.
    func problem(text: String, record: JSONValue, previousSize: Int = 0) -> StoreConflict? {
        let size = text.utf8.count
        if size > maximumSize, size > previousSize { return .recordTooLarge(size: size, limit: maximumSize) }
        let depth = record.nestingDepth
        if depth > Self.maximumDepth { return .recordTooDeep(depth: depth, limit: Self.maximumDepth) }
        return nil
    }
}

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
    let path: String
    /// The key refresh secrets are sealed with (bytes: `SymmetricKey` is not `Sendable`).
    private let secretsKey: [UInt8]
    /// When purges are due.
    private let purges = PurgeSchedule()
    /// Refreshes waiting for the writer, committed together.
    private let rotations: GroupCommit<Rotation, Bool>
    /// WAL checkpoints, off the commit path.
    let checkpointer: WALCheckpointer
    /// Seconds a session can be refreshed for after its sign-in (`server.refreshLifetime`).
    let refreshLifetime: Int
    /// The record paths whose values are kept unique, and how they compare (the flow's
    /// `unique` fields): their keys are stored in `unique_values` (CaptureStore+UniqueKeys).
    let uniquePaths: [String: LookAlike.Comparison]
    /// What a write may leave a record as.
    let recordLimits: RecordLimits

    /// The default of `refreshLifetime` (30 days): a session can be refreshed for this long
    /// after its sign-in; then its row is deleted. A token without a refresh secret is deleted
    /// when it expires.
    static let refreshWindow = 30 * 86_400

    /// `checkpointPages`: the WAL's size, in pages, past which a checkpoint is asked for;
    /// `maximumRecordSize`: the largest record a write may leave (`RecordLimits`);
    /// `refreshLifetime`: how long after its sign-in a session can be refreshed;
    /// `uniquePaths`: the record paths kept unique, whose keys are brought up to date here (nil:
    /// a store that writes no records, such as the outbox's reader, leaves them as they are).
    init(path: String, checkpointPages: Int32 = 1_000,
         maximumRecordSize: Int = ServerSettings().maximumRecordSize, refreshLifetime: Int = refreshWindow,
         uniquePaths: [String: LookAlike.Comparison]? = nil) throws {
        self.path = path
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
        try Self.migrator.migrate(pool)
        if let uniquePaths { try pool.write { db in try Self.refreshUniqueKeys(uniquePaths, db) } }
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

    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1-users-identities-tokens") { db in
            try db.execute(sql: """
                CREATE TABLE users (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    uuid TEXT NOT NULL UNIQUE,
                    email_normalized TEXT,
                    password_hash TEXT,
                    record TEXT NOT NULL,
                    created TEXT NOT NULL,
                    last_updated TEXT NOT NULL
                );
                CREATE UNIQUE INDEX users_email_normalized ON users(email_normalized) WHERE email_normalized IS NOT NULL;
                CREATE TABLE identities (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    provider TEXT NOT NULL,
                    identifier TEXT NOT NULL,
                    verified_email TEXT,
                    UNIQUE(provider, identifier)
                );
                CREATE INDEX identities_user ON identities(user_id);
                CREATE TABLE access_tokens (
                    token_hash TEXT PRIMARY KEY,
                    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    refresh_secret BLOB,
                    expires_at INTEGER NOT NULL,
                    created_at INTEGER NOT NULL
                );
                CREATE INDEX access_tokens_user ON access_tokens(user_id);
                """)
        }
        migrator.registerMigration("2-engage-outbox") { db in
            try db.execute(sql: """
                CREATE TABLE engage_tokens (
                    token_hash TEXT PRIMARY KEY,
                    provider TEXT NOT NULL,
                    identifier TEXT NOT NULL,
                    profile TEXT NOT NULL,
                    expires_at INTEGER NOT NULL
                );
                CREATE TABLE outbox (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    kind TEXT NOT NULL,
                    recipient TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    body TEXT NOT NULL,
                    created_at INTEGER NOT NULL
                );
                """)
        }
        migrator.registerMigration("3-codes") { db in
            try db.execute(sql: """
                CREATE TABLE codes (
                    code_hash TEXT PRIMARY KEY,
                    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    kind TEXT NOT NULL,
                    expires_at INTEGER NOT NULL
                );
                """)
        }
        migrator.registerMigration("4-expiry-indexes") { db in
            try db.execute(sql: """
                CREATE INDEX access_tokens_expiry ON access_tokens(expires_at);
                CREATE INDEX engage_tokens_expiry ON engage_tokens(expires_at);
                CREATE INDEX codes_expiry ON codes(expires_at);
                """)
        }
        migrator.registerMigration("5-merge-account") { db in
            try db.execute(sql: "ALTER TABLE engage_tokens ADD COLUMN merge_user_id INTEGER")
        }
        migrator.registerMigration("6-code-locale") { db in
            try db.execute(sql: "ALTER TABLE codes ADD COLUMN locale TEXT")
        }
        // `/oauth/token`: the authorization codes of `response_type=code_and_token` (single use,
        // bound to the redirect URI of the call that made them) and the refresh tokens it hands
        // out (single use too: each redemption rotates it). Both stored as SHA-256 hashes.
        migrator.registerMigration("7-authorization-codes") { db in
            try db.execute(sql: """
                CREATE TABLE authorization_codes (
                    code_hash TEXT PRIMARY KEY,
                    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    redirect_uri TEXT,
                    expires_at INTEGER NOT NULL
                );
                CREATE INDEX authorization_codes_expiry ON authorization_codes(expires_at);
                CREATE TABLE refresh_tokens (
                    token_hash TEXT PRIMARY KEY,
                    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    expires_at INTEGER NOT NULL
                );
                CREATE INDEX refresh_tokens_expiry ON refresh_tokens(expires_at);
                """)
        }
        migrator.registerMigration("8-element-ids") { db in
            // The next plural element id of the record: ids are never given twice.
            try db.execute(sql: "ALTER TABLE users ADD COLUMN next_element_id INTEGER NOT NULL DEFAULT 1")
        }
        // Sessions: when each refresh chain started (its sign-in), which refreshes keep and
        // `refreshLifetime` counts from; the `/oauth/token` grant (`chain`) an access token and
        // its refresh tokens share, so that revoking one ends the others. Rows from before
        // start at their last rotation (access tokens) or their issue (refresh tokens).
        migrator.registerMigration("9-session-chains") { db in
            try db.execute(sql: """
                ALTER TABLE access_tokens ADD COLUMN signed_in_at INTEGER;
                ALTER TABLE access_tokens ADD COLUMN chain TEXT;
                UPDATE access_tokens SET signed_in_at = created_at;
                CREATE INDEX access_tokens_chain ON access_tokens(chain) WHERE chain IS NOT NULL;
                ALTER TABLE refresh_tokens ADD COLUMN signed_in_at INTEGER;
                ALTER TABLE refresh_tokens ADD COLUMN chain TEXT;
                UPDATE refresh_tokens SET signed_in_at = expires_at - \(refreshWindow), chain = token_hash;
                CREATE INDEX refresh_tokens_chain ON refresh_tokens(chain);
                CREATE INDEX refresh_tokens_user ON refresh_tokens(user_id);
                CREATE INDEX codes_user ON codes(user_id, kind);
                """)
        }
        // Look-alikes: the email's key (`LookAlike.folded`) under a unique index, and the keys
        // of the flow's other `unique` values (filled at start-up for the flow's paths).
        migrator.registerMigration("10-normalized-unique") { db in
            try db.execute(sql: """
                ALTER TABLE users ADD COLUMN email_key TEXT;
                CREATE TABLE unique_values (
                    user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    path TEXT NOT NULL,
                    value_key TEXT NOT NULL
                );
                CREATE INDEX unique_values_key ON unique_values(path, value_key);
                CREATE INDEX unique_values_user ON unique_values(user_id);
                CREATE TABLE unique_paths (
                    path TEXT PRIMARY KEY,
                    comparison TEXT NOT NULL
                );
                """)
            try refillEmailKeys(db)
        }
        return migrator
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
        try db.execute(sql: "DELETE FROM access_tokens WHERE expires_at <= ? AND (refresh_secret IS NULL OR signed_in_at <= ?)",
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

    // MARK: tokens

    /// 32 random bytes as hex, from the C library's CSPRNG (`arc4random_buf`: glibc 2.36+ fills
    /// it from `getrandom(2)`): swift-crypto's `SymmetricKey(size:)` draws bytes as good but
    /// allocates a zeroing key store around them, for every token.
    static func randomToken() -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        bytes.withUnsafeMutableBytes { arc4random_buf($0.baseAddress!, $0.count) }
        return Hex.encode(bytes)
    }

    static func hash(_ token: String) -> String {
        Hex.encode(Array(SHA256.hash(data: Array(token.utf8))))
    }

    func seal(_ secret: RefreshSecret) throws -> [UInt8] {
        guard let combined = try AES.GCM.seal(Array(secret.value.utf8), using: SymmetricKey(data: secretsKey)).combined else { return [] }
        return Array(combined)
    }

    func open(_ sealed: [UInt8]) -> RefreshSecret? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed), let plain = try? AES.GCM.open(box, using: SymmetricKey(data: secretsKey)) else { return nil }
        return RefreshSecret(String(decoding: plain, as: UTF8.self))
    }

    /// A new access token for `userID`, signed in `now`; the refresh secret (when the client
    /// sent one) is kept sealed beside its hash.
    func issueToken(userID: Int64, refreshSecret: RefreshSecret?, lifetime: Int, now: Int) async throws -> (token: String, expiresAt: Int) {
        let token = Self.randomToken()
        let hash = Self.hash(token)
        let sealed = try refreshSecret.map(seal)
        let expiresAt = now + lifetime
        try await pool.write { db in
            try self.purgeIfDue(db, now: now)
            try db.cachedStatement(sql: """
                INSERT INTO access_tokens (token_hash, user_id, refresh_secret, expires_at, created_at, signed_in_at) VALUES (?, ?, ?, ?, ?, ?)
                """).execute(arguments: [hash, userID, sealed.map { Data($0) }, expiresAt, now, now])
        }
        return (token, expiresAt)
    }

    /// A read of one SQL statement, which sees one snapshot by itself: GRDB's read without the
    /// transaction around it, on the calling thread.
    func singleStatementRead<T>(_ body: (Database) throws -> T) throws -> T {
        try pool.unsafeRead(body)
    }

    /// An access token's row, with its refresh secret opened (refresh needs it).
    func token(_ token: String) async throws -> StoredToken? {
        let hash = Self.hash(token)
        let row = try singleStatementRead { db in
            try Row.fetchOne(db.cachedStatement(sql: """
                SELECT user_id, expires_at, refresh_secret, coalesce(signed_in_at, created_at) AS signed_in_at, chain
                FROM access_tokens WHERE token_hash = ?
                """), arguments: [hash]).map { row in
                (userID: row[0] as Int64, expiresAt: row[1] as Int, sealed: row[2] as Data?, signedInAt: row[3] as Int, chain: row[4] as String?)
            }
        }
        guard let row else { return nil }
        return StoredToken(tokenHash: hash, userID: row.userID, expiresAt: row.expiresAt, refreshSecret: row.sealed.flatMap { self.open(Array($0)) },
                           signedInAt: row.signedInAt, chain: row.chain)
    }

    /// An access token's session, its user and, when asked, the user's identities: one SQL
    /// statement (one row per identity), so one snapshot without a transaction.
    func session(_ token: String, identities withIdentities: Bool) async throws -> (token: StoredToken, user: StoredUser, identities: [StoredIdentity]?)? {
        let hash = Self.hash(token)
        return try singleStatementRead { db in
            let rows = try Row.fetchCursor(db.cachedStatement(sql: """
                SELECT access_tokens.expires_at, users.id, users.uuid, users.record, users.password_hash, users.email_normalized,
                       identities.provider, identities.identifier, identities.verified_email,
                       coalesce(access_tokens.signed_in_at, access_tokens.created_at), access_tokens.chain
                FROM access_tokens JOIN users ON users.id = access_tokens.user_id
                LEFT JOIN identities ON identities.user_id = users.id
                WHERE access_tokens.token_hash = ? ORDER BY identities.id
                """), arguments: [hash])
            var session: (token: StoredToken, user: StoredUser, identities: [StoredIdentity])?
            while let row = try rows.next() {
                if session == nil {
                    let user = StoredUser(id: row[1], uuid: row[2] ?? "", recordText: row[3] ?? "{}", passwordHash: row[4], emailNormalized: row[5])
                    let stored = StoredToken(tokenHash: hash, userID: user.id, expiresAt: row[0], refreshSecret: nil, signedInAt: row[9], chain: row[10])
                    session = (stored, user, [])
                }
                if let provider: String = row[6] {
                    session?.identities.append(StoredIdentity(provider: provider, identifier: row[7] ?? "", verifiedEmail: row[8]))
                }
            }
            return session.map { ($0.token, $0.user, withIdentities ? $0.identities : nil) }
        }
    }

    /// A refresh's rotation: the old token's hash, and the new token's.
    struct Rotation: Sendable {
        var oldHash: String
        var newHash: String
        var expiresAt: Int
        var now: Int
    }

    /// Replaces a token by a new one with the same (sealed) refresh secret and sign-in, in a
    /// transaction that also checks the old token is still there: of concurrent refreshes of
    /// one token, one rotates it and the others get nil. Concurrent refreshes share one
    /// transaction (`GroupCommit`); each is answered once that transaction has committed. The
    /// new token expires after `lifetime`, or when the session can no longer be refreshed
    /// (`refreshLifetime` after its sign-in), whichever comes first.
    func rotate(_ old: StoredToken, lifetime: Int, now: Int) async throws -> (token: String, expiresAt: Int)? {
        let token = Self.randomToken()
        let hash = Self.hash(token)
        let expiresAt = min(now + lifetime, old.signedInAt + refreshLifetime)
        let rotated = try await rotations.submit(Rotation(oldHash: old.tokenHash, newHash: hash, expiresAt: expiresAt, now: now))
        return rotated ? (token, expiresAt) : nil
    }

    /// One rotation, inside the caller's transaction: false when the old token is gone.
    static func rotate(_ rotation: Rotation, purges: PurgeSchedule, refreshLifetime: Int = refreshWindow, _ db: Database) throws -> Bool {
        try purgeIfDue(db, now: rotation.now, purges, refreshLifetime: refreshLifetime)
        // The row takes the new hash in place: its user (and the index on it) and its sealed
        // secret stay as they are, so no foreign-key check and one row change instead of an
        // insert and a delete.
        try db.cachedStatement(sql: "UPDATE access_tokens SET token_hash = ?, expires_at = ?, created_at = ? WHERE token_hash = ?")
            .execute(arguments: [rotation.newHash, rotation.expiresAt, rotation.now, rotation.oldHash])
        return db.changesCount == 1
    }

    // MARK: users

    static func user(from row: Row) -> StoredUser {
        StoredUser(id: row["id"], uuid: row["uuid"], recordText: row["record"] ?? "{}",
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
            try Row.fetchOne(db, sql: "SELECT * FROM users WHERE lower(json_extract(record, ?)) = lower(?)",
                             arguments: ["$." + path, value]).map(Self.user)
        }
    }

    func user(provider: String, identifier: String) async throws -> StoredUser? {
        try quickRead { db in
            try Row.fetchOne(db, sql: """
                SELECT users.* FROM users JOIN identities ON identities.user_id = users.id
                WHERE identities.provider = ? AND identities.identifier = ?
                """, arguments: [provider, identifier]).map(Self.user)
        }
    }

    func identities(of userID: Int64) async throws -> [StoredIdentity] {
        try quickRead { db in try Self.identities(of: userID, db) }
    }

    static func identities(of userID: Int64, _ db: Database) throws -> [StoredIdentity] {
        try Row.fetchAll(db.cachedStatement(sql: "SELECT provider, identifier, verified_email FROM identities WHERE user_id = ? ORDER BY id"), arguments: [userID])
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
                exists = try Row.fetchOne(db, sql: "SELECT 1 FROM users WHERE email_normalized = ? AND id IS NOT ?",
                                          arguments: [normalizeEmail(check.value), userID]) != nil
            } else {
                exists = try Row.fetchOne(db, sql: "SELECT 1 FROM users WHERE lower(json_extract(record, ?)) = lower(?) AND id IS NOT ?",
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
    func createUser(record: JSONValue, passwordHash: String?, identity: StoredIdentity?, unique: [UniqueCheck], now: Int,
                    consuming engageToken: String? = nil) async throws -> StoredUser {
        let uuid = UUIDText.random()
        let timestamp = Timestamps.capture(now)
        let stamped = record.setting("uuid", .string(uuid)).setting("created", .string(timestamp)).setting("lastUpdated", .string(timestamp))
        let email = record["email"]?.stringValue.map(normalizeEmail)
        do {
            return try await pool.write { db in
                let taken = try self.conflicts(unique, excluding: nil, db)
                if !taken.isEmpty { throw StoreConflict.notUnique(taken) }
                if let identity, try Row.fetchOne(db, sql: "SELECT 1 FROM identities WHERE provider = ? AND identifier = ?",
                                                  arguments: [identity.provider, identity.identifier]) != nil {
                    throw StoreConflict.identityTaken
                }
                if let engageToken, try !Self.useEngageToken(engageToken, now: now, db) { throw StoreConflict.engageTokenUsed }
                try db.execute(sql: "INSERT INTO users (uuid, email_normalized, password_hash, record, created, last_updated) VALUES (?, ?, ?, ?, ?, ?)",
                               arguments: [uuid, email, passwordHash, "{}", timestamp, timestamp])
                let id = db.lastInsertedRowID
                let value = stamped.setting("id", .integer(Int(id)))
                let full = value.serialized()
                // Thrown inside the transaction: the row is not kept.
                if let problem = self.recordLimits.problem(text: full, record: value) { throw problem }
                try db.execute(sql: "UPDATE users SET record = ? WHERE id = ?", arguments: [full, id])
                try self.storeUniqueKeys(userID: id, record: stamped, emailNormalized: email, db)
                if let identity {
                    try db.execute(sql: "INSERT INTO identities (user_id, provider, identifier, verified_email) VALUES (?, ?, ?, ?)",
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
    func updateUser(id: Int64, unique: [UniqueCheck], now: Int, passwordHash: String?? = .none,
                    change: @escaping @Sendable (JSONValue) -> JSONValue) async throws -> StoredUser {
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
    func editRecord(id: Int64, unique: [UniqueCheck], now: Int, passwordHash: String?? = .none,
                    change: @escaping @Sendable (JSONValue, inout ElementIDs) throws -> JSONValue) async throws -> StoredUser {
        do {
            return try await updateUserRow(id: id, unique: unique, now: now, passwordHash: passwordHash, change: change)
        } catch let error as DatabaseError where error.extendedResultCode == .SQLITE_CONSTRAINT_UNIQUE {
            // The email index: a change wrote an address another record holds.
            let fields = unique.filter { $0.path == "email" }.map(\.field)
            throw StoreConflict.notUnique(fields.isEmpty ? ["email"] : fields)
        }
    }

    private func updateUserRow(id: Int64, unique: [UniqueCheck], now: Int, passwordHash: String??,
                               change: @escaping @Sendable (JSONValue, inout ElementIDs) throws -> JSONValue) async throws -> StoredUser {
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
                var scratch = ElementIDs(next: 1)
                guard case .some(let hash) = passwordHash, try change([:], &scratch) == [:] else { throw StoreConflict.undecodableRecord(reason) }
                user.passwordHash = hash
                try db.execute(sql: "UPDATE users SET password_hash = ? WHERE id = ?", arguments: [hash, id])
                return user
            }
            let next: Int = row["next_element_id"] ?? 1
            var ids = ElementIDs(next: max(next, stored.largestElementID + 1))
            let record = try change(stored, &ids).setting("lastUpdated", .string(timestamp))
            let text = record.serialized()
            if let problem = self.recordLimits.problem(text: text, record: record, previousSize: user.recordText.utf8.count) { throw problem }
            user.recordText = text
            user.emailNormalized = record["email"]?.stringValue.map(normalizeEmail)
            if case .some(let hash) = passwordHash { user.passwordHash = hash }
            try db.execute(sql: "UPDATE users SET record = ?, email_normalized = ?, password_hash = ?, last_updated = ?, next_element_id = ? WHERE id = ?",
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
                try db.execute(sql: "INSERT INTO identities (user_id, provider, identifier, verified_email) VALUES (?, ?, ?, ?)",
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

    // MARK: Engage double

    func issueEngageToken(_ grant: EngageGrant, now: Int) async throws -> String {
        let token = Self.randomToken()
        try await pool.write { db in
            try self.purgeIfDue(db, now: now)
            try db.execute(sql: "INSERT INTO engage_tokens (token_hash, provider, identifier, profile, expires_at) VALUES (?, ?, ?, ?, ?)",
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
            guard let row = try Row.fetchOne(db, sql: "SELECT * FROM engage_tokens WHERE token_hash = ?", arguments: [Self.hash(token)]) else { return nil }
            let profile: String = row["profile"]
            return EngageGrant(provider: row["provider"], identifier: row["identifier"],
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

    // MARK: one-time codes (password reset, email verification)

    /// A new one-time code for `userID`, stored hashed, with the locale of the email that
    /// carries it (the page the link opens speaks it).
    func issueCode(userID: Int64, kind: String, locale: String, lifetime: Int, now: Int) async throws -> String {
        let code = Self.randomToken()
        try await pool.write { db in
            try self.purgeIfDue(db, now: now)
            // Only the newest link of a kind works: an older email's link stops working.
            try db.execute(sql: "DELETE FROM codes WHERE user_id = ? AND kind = ?", arguments: [userID, kind])
            try db.execute(sql: "INSERT INTO codes (code_hash, user_id, kind, expires_at, locale) VALUES (?, ?, ?, ?, ?)",
                           arguments: [Self.hash(code), userID, kind, now + lifetime, locale])
        }
        return code
    }

    /// The user a valid code belongs to; the code is used up.
    func consumeCode(_ code: String, kind: String, now: Int) async throws -> Int64? {
        try await pool.write { db in
            let hash = Self.hash(code)
            guard let row = try Row.fetchOne(db, sql: "SELECT user_id, expires_at FROM codes WHERE code_hash = ? AND kind = ?", arguments: [hash, kind]) else {
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
            try Row.fetchOne(db, sql: "SELECT locale FROM codes WHERE code_hash = ? AND kind = ? AND expires_at > ?",
                             arguments: [Self.hash(code), kind, now]).map { PendingCode(locale: $0["locale"]) }
        }
    }

    // MARK: OAuth authorization codes and refresh tokens (`/oauth/token`)

    /// A new authorization code for `userID`, stored hashed with the redirect URI of the call
    /// that made it (the one `/oauth/token` compares).
    func issueAuthorizationCode(userID: Int64, redirectURI: String?, lifetime: Int, now: Int) async throws -> String {
        let code = Self.randomToken()
        try await pool.write { db in
            try self.purgeIfDue(db, now: now)
            try db.execute(sql: "INSERT INTO authorization_codes (code_hash, user_id, redirect_uri, expires_at) VALUES (?, ?, ?, ?)",
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
        /// The code expired (it is used up).
        case expired
        /// The redirect URI differs from the one the code was made for (the code stays usable).
        case redirectMismatch
    }

    /// Redeems an authorization code: in one transaction the code is checked (unexpired, made
    /// for `redirectURI`), used up, and an access token and a refresh token are issued.
    func redeemAuthorizationCode(_ code: String, redirectURI: String, accessLifetime: Int, refreshLifetime: Int,
                                 now: Int) async throws -> Redemption {
        let hash = Self.hash(code)
        return try await pool.write { db in
            try self.purgeIfDue(db, now: now)
            guard let row = try Row.fetchOne(db, sql: "SELECT user_id, redirect_uri, expires_at FROM authorization_codes WHERE code_hash = ?",
                                             arguments: [hash]) else { return .invalid }
            let expiresAt: Int = row["expires_at"]
            if expiresAt <= now {
                try db.execute(sql: "DELETE FROM authorization_codes WHERE code_hash = ?", arguments: [hash])
                return .expired
            }
            if let expected: String = row["redirect_uri"], expected != redirectURI { return .redirectMismatch }
            try db.execute(sql: "DELETE FROM authorization_codes WHERE code_hash = ?", arguments: [hash])
            // A new grant: its refresh chain starts now and ends `refreshLifetime` later.
            return try Self.issueOAuthTokens(userID: row["user_id"], chain: Self.randomToken(), signedInAt: now, accessLifetime: accessLifetime,
                                             refreshLifetime: refreshLifetime, now: now, db)
        }
    }

    /// Redeems a refresh token: used up, and a new access token and refresh token issued, in
    /// one transaction (of two concurrent redemptions one wins). The new ones belong to the same
    /// grant: the chain still ends `refreshLifetime` after the grant began.
    func redeemRefreshToken(_ token: String, accessLifetime: Int, refreshLifetime: Int, now: Int) async throws -> Redemption {
        let hash = Self.hash(token)
        return try await pool.write { db in
            try self.purgeIfDue(db, now: now)
            guard let row = try Row.fetchOne(db, sql: "SELECT user_id, expires_at, chain, signed_in_at FROM refresh_tokens WHERE token_hash = ?",
                                             arguments: [hash]) else {
                return .invalid
            }
            try db.execute(sql: "DELETE FROM refresh_tokens WHERE token_hash = ?", arguments: [hash])
            let expiresAt: Int = row["expires_at"]
            if expiresAt <= now { return .expired }
            let signedInAt: Int = row["signed_in_at"] ?? now
            if signedInAt + refreshLifetime <= now { return .expired }
            return try Self.issueOAuthTokens(userID: row["user_id"], chain: row["chain"] ?? hash, signedInAt: signedInAt,
                                             accessLifetime: accessLifetime, refreshLifetime: refreshLifetime, now: now, db)
        }
    }

    /// An access token and a refresh token of the grant `chain`, begun at `signedInAt`: the
    /// refresh token lasts until the chain ends, the access token `accessLifetime` (or less).
    private static func issueOAuthTokens(userID: Int64, chain: String, signedInAt: Int, accessLifetime: Int, refreshLifetime: Int,
                                         now: Int, _ db: Database) throws -> Redemption {
        let access = randomToken()
        let refresh = randomToken()
        let chainEnd = signedInAt + refreshLifetime
        let expiresAt = min(now + accessLifetime, chainEnd)
        try db.execute(sql: """
            INSERT INTO access_tokens (token_hash, user_id, refresh_secret, expires_at, created_at, signed_in_at, chain) VALUES (?, ?, NULL, ?, ?, ?, ?)
            """, arguments: [hash(access), userID, expiresAt, now, signedInAt, chain])
        try db.execute(sql: "INSERT INTO refresh_tokens (token_hash, user_id, expires_at, signed_in_at, chain) VALUES (?, ?, ?, ?, ?)",
                       arguments: [hash(refresh), userID, chainEnd, signedInAt, chain])
        return .issued(accessToken: access, refreshToken: refresh, expiresAt: expiresAt)
    }

    // MARK: outbox

    func send(kind: String, to recipient: String, subject: String, body: String, now: Int) async throws {
        try await pool.write { db in
            try db.execute(sql: "INSERT INTO outbox (kind, recipient, subject, body, created_at) VALUES (?, ?, ?, ?, ?)",
                           arguments: [kind, recipient, subject, body, now])
        }
    }

    func outbox() async throws -> [OutboxMessage] {
        try await pool.read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM outbox ORDER BY id").map {
                OutboxMessage(id: $0["id"], kind: $0["kind"], recipient: $0["recipient"], subject: $0["subject"], body: $0["body"], createdAt: $0["created_at"])
            }
        }
    }

    func userCount() async throws -> Int {
        try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM users") ?? 0 }
    }
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

/// Lower-cased, trimmed: the form emails are compared in.
func normalizeEmail(_ email: String) -> String {
    email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
}

enum UUIDText {
    static func random() -> String {
        UUID().uuidString.lowercased()
    }
}

enum Timestamps {
    /// Capture's record timestamps: `yyyy-MM-dd HH:mm:ss.SSSSSS +0000`.
    static func capture(_ epochSeconds: Int) -> String {
        RefreshSignature.dateString(epochSeconds: epochSeconds) + ".000000 +0000"
    }
}

extension JSONValue {
    /// The value at a dot path (`primaryAddress.city`).
    func value(atPath path: String) -> JSONValue? {
        var current: JSONValue? = self
        for part in path.split(separator: ".") {
            current = current?[String(part)]
        }
        return current
    }

    /// Sets the value at a dot path, creating objects on the way.
    func setting(path: String, _ value: JSONValue) -> JSONValue {
        let parts = path.split(separator: ".").map(String.init)
        guard let first = parts.first else { return self }
        if parts.count == 1 { return setting(first, value) }
        let child = self[first] ?? [:]
        let rest = parts.dropFirst().joined(separator: ".")
        return setting(first, (child.objectValue != nil ? child : [:]).setting(path: rest, value))
    }
}
