import JumpCapture
import JumpForms
import SQLKit
import NIOCore
import SQLiteKit
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One step of the schema: statements for both engines (`StoreEngine.ddl` maps the type
/// names), and what runs after them in the same transaction.
struct Migration: Sendable {
    /// `<number>-<name>`: the number orders them and is the schema version it makes.
    var identifier: String
    var statements: [String]
    var then: (@Sendable (any SQLDatabase, StoreEngine) async throws -> Void)?

    init(_ identifier: String, _ statements: [String], then: (@Sendable (any SQLDatabase, StoreEngine) async throws -> Void)? = nil) {
        self.identifier = identifier
        self.statements = statements
        self.then = then
    }

    /// The number the identifier starts with.
    var version: Int { Migration.version(of: identifier) }

    static func version(of identifier: String) -> Int { Int(identifier.prefix { $0.isNumber }) ?? 0 }
}

/// The schema, as numbered migrations, one list for both engines: a database of any earlier
/// version is brought up to date when the store opens it (or by one `serve` started before the others).
/// Which ones ran is kept in `schema_migrations`; a SQLite file made by the versions that used
/// GRDB keeps its list in `grdb_migrations`, carried over (and dropped) on the first opening.
extension CaptureStore {
    static let migrations: [Migration] = [
        Migration(
            "1-users-identities-tokens",
            [
                "CREATE TABLE users (id ID_PRIMARY_KEY, uuid TEXT NOT NULL UNIQUE, email_normalized TEXT, password_hash TEXT, record TEXT NOT NULL, created TEXT NOT NULL, last_updated TEXT NOT NULL)",
                "CREATE UNIQUE INDEX users_email_normalized ON users(email_normalized) WHERE email_normalized IS NOT NULL",
                "CREATE TABLE identities (id ID_PRIMARY_KEY, user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE, provider TEXT NOT NULL, identifier TEXT NOT NULL, verified_email TEXT, UNIQUE(provider, identifier))",
                "CREATE INDEX identities_user ON identities(user_id)",
                "CREATE TABLE access_tokens (token_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE, refresh_secret BLOB, expires_at INTEGER NOT NULL, created_at INTEGER NOT NULL)",
                "CREATE INDEX access_tokens_user ON access_tokens(user_id)"
            ]),
        Migration(
            "2-engage-outbox",
            [
                "CREATE TABLE engage_tokens (token_hash TEXT PRIMARY KEY, provider TEXT NOT NULL, identifier TEXT NOT NULL, profile TEXT NOT NULL, expires_at INTEGER NOT NULL)",
                "CREATE TABLE outbox (id ID_PRIMARY_KEY, kind TEXT NOT NULL, recipient TEXT NOT NULL, subject TEXT NOT NULL, body TEXT NOT NULL, created_at INTEGER NOT NULL)"
            ]),
        Migration(
            "3-codes",
            [
                "CREATE TABLE codes (code_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE, kind TEXT NOT NULL, expires_at INTEGER NOT NULL)"
            ]),
        Migration(
            "4-expiry-indexes",
            [
                "CREATE INDEX access_tokens_expiry ON access_tokens(expires_at)",
                "CREATE INDEX engage_tokens_expiry ON engage_tokens(expires_at)",
                "CREATE INDEX codes_expiry ON codes(expires_at)"
            ]),
        Migration(
            "5-merge-account",
            [
                "ALTER TABLE engage_tokens ADD COLUMN merge_user_id INTEGER"
            ]),
        Migration(
            "6-code-locale",
            [
                "ALTER TABLE codes ADD COLUMN locale TEXT"
            ]),
        // `/oauth/token`: the authorization codes of `response_type=code_and_token` (single use,
        // bound to the redirect URI of the call that made them) and the refresh tokens it hands
        // out (single use too: each redemption rotates it). Both stored as SHA-256 hashes.
        Migration(
            "7-authorization-codes",
            [
                "CREATE TABLE authorization_codes (code_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE, redirect_uri TEXT, expires_at INTEGER NOT NULL)",
                "CREATE INDEX authorization_codes_expiry ON authorization_codes(expires_at)",
                "CREATE TABLE refresh_tokens (token_hash TEXT PRIMARY KEY, user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE, expires_at INTEGER NOT NULL)",
                "CREATE INDEX refresh_tokens_expiry ON refresh_tokens(expires_at)"
            ]),
        Migration(
            "8-element-ids",
            [
                "ALTER TABLE users ADD COLUMN next_element_id INTEGER NOT NULL DEFAULT 1"
            ]),
        // Sessions: when each refresh chain started (its sign-in), which refreshes keep and
        // `refreshLifetime` counts from; the `/oauth/token` grant (`chain`) an access token and
        // its refresh tokens share, so that revoking one ends the others. Rows from before
        // start at their last rotation (access tokens) or their issue (refresh tokens).
        Migration(
            "9-session-chains",
            [
                "ALTER TABLE access_tokens ADD COLUMN signed_in_at INTEGER",
                "ALTER TABLE access_tokens ADD COLUMN chain TEXT",
                "UPDATE access_tokens SET signed_in_at = created_at",
                "CREATE INDEX access_tokens_chain ON access_tokens(chain) WHERE chain IS NOT NULL",
                "ALTER TABLE refresh_tokens ADD COLUMN signed_in_at INTEGER",
                "ALTER TABLE refresh_tokens ADD COLUMN chain TEXT",
                "UPDATE refresh_tokens SET signed_in_at = expires_at - \(refreshWindow), chain = token_hash",
                "CREATE INDEX refresh_tokens_chain ON refresh_tokens(chain)",
                "CREATE INDEX refresh_tokens_user ON refresh_tokens(user_id)",
                "CREATE INDEX codes_user ON codes(user_id, kind)"
            ]),
        // Look-alikes: the email's key (`LookAlike.folded`) under a unique index, and the keys
        // of the flow's other `unique` values (filled at start-up for the flow's paths).
        Migration(
            "10-normalized-unique",
            [
                "ALTER TABLE users ADD COLUMN email_key TEXT",
                "CREATE TABLE unique_values (user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE, path TEXT NOT NULL, value_key TEXT NOT NULL)",
                "CREATE INDEX unique_values_key ON unique_values(path, value_key)",
                "CREATE INDEX unique_values_user ON unique_values(user_id)",
                "CREATE TABLE unique_paths (path TEXT PRIMARY KEY, comparison TEXT NOT NULL)"
            ], then: { db, _ in try await CaptureStore.refillEmailKeys(db) }),
        // Engage sharing: the device tokens the device sign-in issues (hashed, as every token),
        // what was posted with them (the feed), and the short URLs of `/openid/get_urls`.
        Migration(
            "11-engage-sharing",
            [
                "CREATE TABLE device_tokens (token_hash TEXT PRIMARY KEY, provider TEXT NOT NULL, identifier TEXT NOT NULL, expires_at INTEGER NOT NULL, created_at INTEGER NOT NULL)",
                "CREATE TABLE feed (id ID_PRIMARY_KEY, kind TEXT NOT NULL, provider TEXT NOT NULL, identifier TEXT NOT NULL, posted TEXT NOT NULL, text TEXT NOT NULL, short_url TEXT, device TEXT, app_name TEXT, created_at INTEGER NOT NULL)",
                "CREATE INDEX feed_identity ON feed(provider, identifier, id)",
                "CREATE TABLE short_urls (code TEXT PRIMARY KEY, url TEXT NOT NULL UNIQUE, created_at INTEGER NOT NULL)"
            ]),
        // Plural element ids from 2^31 on (`ElementIDs.first`: JUMP Android reads them as
        // `Long`). Which lists are plurals is the record model's (the schema, or the flow), which
        // a migration does not have: it marks the records stored before, and the store that opens
        // the database with a model moves their elements' ids up (`widenElementIDs`).
        Migration(
            "12-wide-element-ids",
            [
                "ALTER TABLE users ADD COLUMN element_ids_wide INTEGER NOT NULL DEFAULT 1",
                "UPDATE users SET element_ids_wide = 0",
                "CREATE INDEX users_narrow_element_ids ON users(id) WHERE element_ids_wide = 0"
            ]),
        // Replays (RFC 6749 section 4.1.2, OAuth 2.0 Security BCP section 4.14): a redeemed
        // authorization code is kept (until it would have expired, plus `expiredCodeMemory`)
        // with the grant it started, and a rotated refresh token with when it was used, so that
        // presenting either again ends that grant.
        Migration(
            "13-replayed-grants",
            [
                "ALTER TABLE authorization_codes ADD COLUMN redeemed_chain TEXT",
                "ALTER TABLE refresh_tokens ADD COLUMN used_at INTEGER",
                "CREATE INDEX authorization_codes_user ON authorization_codes(user_id)"
            ]),
        // What the instances on one database share, so that any of them answers any request
        // (CaptureStore+SharedState): the sign-in throttle's counts and locks, the reset and
        // verification emails sent per address, the hosted pages' sessions (the access token
        // sealed) and the signed server API requests seen. Keyed by SHA-256 digests; each row
        // says when it can go (`forget_at`, `expires_at`), and the purge deletes it then.
        Migration(
            "14-shared-state",
            [
                "CREATE TABLE throttle_counts (key_hash TEXT PRIMARY KEY, failures INTEGER NOT NULL, last_failure INTEGER NOT NULL, locked_until INTEGER NOT NULL, in_flight INTEGER NOT NULL, in_flight_at INTEGER NOT NULL, forget_at INTEGER NOT NULL)",
                "CREATE INDEX throttle_counts_forget ON throttle_counts(forget_at)",
                "CREATE TABLE email_sends (address_hash TEXT PRIMARY KEY, moments TEXT NOT NULL, forget_at INTEGER NOT NULL)",
                "CREATE INDEX email_sends_forget ON email_sends(forget_at)",
                "CREATE TABLE page_sessions (cookie_hash TEXT PRIMARY KEY, access_token BLOB NOT NULL, expires_at INTEGER NOT NULL)",
                "CREATE INDEX page_sessions_expiry ON page_sessions(expires_at)",
                "CREATE TABLE signed_requests (signature_hash TEXT PRIMARY KEY, expires_at INTEGER NOT NULL)",
                "CREATE INDEX signed_requests_expiry ON signed_requests(expires_at)"
            ])
    ]

    /// The schema version this server makes (its last migration's number).
    static var schemaVersion: Int { migrations.last?.version ?? 0 }

    /// A key only the store's migrations take (PostgreSQL's advisory locks are one namespace
    /// per database): `jump` in ASCII.
    static let migrationLock = 0x6A75_6D70

    /// Applies the migrations not yet applied, in one transaction under a lock that instances
    /// starting at once share (SQLite: the write lock `BEGIN IMMEDIATE` takes; PostgreSQL: a
    /// transaction-level advisory lock): each migration runs once. Returns the identifiers it
    /// applied. A database with migrations this server does not know (a newer version wrote
    /// it) is refused (`StoreSchemaError.newer`), untouched.
    @discardableResult
    static func migrate(_ database: StoreDatabase, upTo last: String? = nil) async throws -> [String] {
        // SQLite: another process (or store) migrating the same file holds the write lock, and
        // a slow machine can hold it past the busy timeout (10 s): wait for it, up to a minute.
        var tries = 1
        while true {
            do {
                return try await migrateOnce(database, upTo: last)
            } catch let error as SQLiteError where error.reason == .busy && tries < 6 {
                tries += 1
            }
        }
    }

    private static func migrateOnce(_ database: StoreDatabase, upTo last: String?) async throws -> [String] {
        let engine = database.engine
        return try await database.transaction { db in
            try await lockMigrations(db, engine)
            let applied = try await appliedMigrations(db, engine)
            try refuseNewer(applied)
            var done: [String] = []
            let end = last.flatMap { last in migrations.firstIndex { $0.identifier == last } }.map { $0 + 1 } ?? migrations.count
            for migration in migrations[..<end] where !applied.contains(migration.identifier) {
                for statement in migration.statements { try await db.raw("\(unsafeRaw: engine.ddl(statement))").run() }
                try await migration.then?(db, engine)
                try await db.raw("INSERT INTO schema_migrations (identifier) VALUES (\(bind: migration.identifier))").run()
                done.append(migration.identifier)
            }
            return done
        }
    }

    /// Checks without writing that every migration has run (`serve --no-migrate`).
    static func checkSchema(_ database: StoreDatabase) async throws {
        let engine = database.engine
        let applied = try await database.withConnection { db in try await appliedMigrations(db, engine, creating: false) }
        try refuseNewer(applied)
        let missing = migrations.map(\.identifier).filter { !applied.contains($0) }
        if !missing.isEmpty { throw StoreSchemaError.notMigrated(missing: missing) }
    }

    private static func lockMigrations(_ db: any SQLDatabase, _ engine: StoreEngine) async throws {
        // SQLite: the transaction holds the write lock already.
        if engine == .postgres { try await db.raw("SELECT pg_advisory_xact_lock(\(literal: migrationLock))").run() }
    }

    private static func refuseNewer(_ applied: Set<String>) throws {
        let known = Set(migrations.map(\.identifier))
        let unknown = applied.subtracting(known)
        if !unknown.isEmpty {
            let newest = unknown.map(Migration.version).max() ?? 0
            throw StoreSchemaError.newer(database: max(newest, schemaVersion), server: schemaVersion, unknown: unknown.sorted())
        }
    }

    /// The identifiers of the migrations applied; `creating`: makes the table first (and
    /// carries over GRDB's list on SQLite).
    static func appliedMigrations(_ db: any SQLDatabase, _ engine: StoreEngine, creating: Bool = true) async throws -> Set<String> {
        if creating {
            try await db.raw("CREATE TABLE IF NOT EXISTS schema_migrations (identifier TEXT NOT NULL PRIMARY KEY)").run()
            if engine == .sqlite,
                try await db.raw("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'grdb_migrations'").first() != nil
            {
                try await db.raw(
                    "INSERT INTO schema_migrations (identifier) SELECT identifier FROM grdb_migrations WHERE true ON CONFLICT DO NOTHING"
                ).run()
                try await db.raw("DROP TABLE grdb_migrations").run()
            }
        } else if try await !hasMigrationTable(db, engine) {
            return []
        }
        return Set(try await db.raw("SELECT identifier FROM schema_migrations").all().map { try $0.string("identifier") })
    }

    private static func hasMigrationTable(_ db: any SQLDatabase, _ engine: StoreEngine) async throws -> Bool {
        switch engine {
        case .sqlite:
            let names = try await db.raw("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('schema_migrations', 'grdb_migrations')")
                .all().map { try $0.string("name") }
            if names.contains("grdb_migrations") && !names.contains("schema_migrations") {
                throw StoreSchemaError.notMigrated(missing: ["schema_migrations (start jump-forms serve once without --no-migrate)"])
            }
            return !names.isEmpty
        case .postgres:
            return try await db.raw("SELECT 1 FROM pg_tables WHERE tablename = 'schema_migrations' AND schemaname = current_schema()").first() != nil
        }
    }

    /// Moves the plural element ids below `ElementIDs.first` of the records stored before
    /// migration 12 up by one offset per record (2^31, or one past an id already that large),
    /// which keeps their order and the rule that no id is given twice; so does the record's
    /// next id. Lists that are not plurals (`json` attributes) stay as they are. A record the
    /// store cannot read stays as it is (writes refuse it anyway). Runs at start-up: the
    /// partial index `users_narrow_element_ids` finds the records still to move without a scan.
    static func widenElementIDs(_ model: RecordModel, _ db: any SQLDatabase) async throws {
        let rows = try await db.raw("SELECT id, record, next_element_id FROM users WHERE element_ids_wide = 0").all()
        for row in rows {
            let id = try row.int64("id")
            let next = try row.optionalInt("next_element_id") ?? 1
            if let text = try row.optionalString("record"), let record = try? decodedRecord(text) {
                let largest = model.largestElementID(in: record)
                let offset = largest >= ElementIDs.first ? largest + 1 : ElementIDs.first
                let widened = model.mappingElements(record) { element in
                    guard let old = element["id"]?.intValue, old < ElementIDs.first else { return element }
                    return element.setting("id", .integer(old + offset))
                }
                if widened != record || next > 1 {
                    let nextWidened = next < ElementIDs.first ? next + offset : next
                    let nextID = max(nextWidened, model.largestElementID(in: widened) + 1)
                    try await db.raw(
                        "UPDATE users SET record = \(bind: widened.serialized()), next_element_id = \(bind: nextID) WHERE id = \(bind: id)"
                    )
                    .run()
                }
            }
            try await db.raw("UPDATE users SET element_ids_wide = 1 WHERE id = \(bind: id)").run()
        }
    }
}

/// Why the store cannot use a database's schema.
enum StoreSchemaError: Error, Sendable, CustomStringConvertible {
    /// A newer server migrated it: its version and this server's.
    case newer(database: Int, server: Int, unknown: [String])
    /// Migrations this server has are not applied (`serve --no-migrate`).
    case notMigrated(missing: [String])

    var description: String {
        switch self {
        case let .newer(database, server, unknown):
            "the database's schema (version \(database): \(unknown.joined(separator: ", "))) is newer than this server's (version \(server)); run the newer jump-forms"
        case let .notMigrated(missing):
            "the database's schema is not current (missing \(missing.joined(separator: ", "))); start jump-forms serve once without --no-migrate"
        }
    }
}

/// What `GET /ready` asks the store (`CaptureStore.readiness()`): whether the database can be
/// reached and its schema is the one this server's migrations make.
struct StoreReadiness: Sendable, Equatable {
    var reachable: Bool
    var migrationsCurrent: Bool

    var isReady: Bool { reachable && migrationsCurrent }
}

extension CaptureStore {
    /// Reads the applied migrations and checks that every migration of this server has run
    /// and none it does not know of. SQLite: on a new connection to the file (the pool's open
    /// connections would go on reading a file that was deleted or replaced).
    func readiness() async -> StoreReadiness {
        do {
            // A store that has not opened its database yet does so now (as its first request would).
            try await prepare()
        } catch is StoreSchemaError {
            return StoreReadiness(reachable: true, migrationsCurrent: false)
        } catch {
            return StoreReadiness(reachable: false, migrationsCurrent: false)
        }
        do {
            let applied: Set<String>
            if let path {
                guard access(path, F_OK) == 0 else { return StoreReadiness(reachable: false, migrationsCurrent: false) }
                let connection = try await SQLiteConnection.open(
                    storage: .file(path: path), threadPool: SQLiteStoreSource.threads, on: database.eventLoop)
                defer { let _: EventLoopFuture<Void> = connection.close() }
                applied = try await Self.appliedMigrations(connection.sql(queryLogLevel: nil), .sqlite, creating: false)
            } else {
                applied = try await database.withConnection { db in try await Self.appliedMigrations(db, .postgres, creating: false) }
            }
            return StoreReadiness(reachable: true, migrationsCurrent: applied == Set(Self.migrations.map(\.identifier)))
        } catch StoreSchemaError.notMigrated {
            return StoreReadiness(reachable: true, migrationsCurrent: false)
        } catch {
            return StoreReadiness(reachable: false, migrationsCurrent: false)
        }
    }
}
