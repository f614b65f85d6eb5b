import GRDB
import JumpCapture
import JumpForms

/// The schema, as numbered migrations: a database of any earlier version is brought up to date
/// when the store opens it.
extension CaptureStore {
    static var migrator: DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("1-users-identities-tokens") { db in
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
                    CREATE TABLE codes (
                        code_hash TEXT PRIMARY KEY,
                        user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                        kind TEXT NOT NULL,
                        expires_at INTEGER NOT NULL
                    );
                    """)
        }
        migrator.registerMigration("4-expiry-indexes") { db in
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
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
            try db.execute(
                sql: """
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
        // Engage sharing: the device tokens the device sign-in issues (hashed, as every token),
        // what was posted with them (the feed), and the short URLs of `/openid/get_urls`.
        migrator.registerMigration("11-engage-sharing") { db in
            try db.execute(
                sql: """
                    CREATE TABLE device_tokens (
                        token_hash TEXT PRIMARY KEY,
                        provider TEXT NOT NULL,
                        identifier TEXT NOT NULL,
                        expires_at INTEGER NOT NULL,
                        created_at INTEGER NOT NULL
                    );
                    CREATE TABLE feed (
                        id INTEGER PRIMARY KEY AUTOINCREMENT,
                        kind TEXT NOT NULL,
                        provider TEXT NOT NULL,
                        identifier TEXT NOT NULL,
                        posted TEXT NOT NULL,
                        text TEXT NOT NULL,
                        short_url TEXT,
                        device TEXT,
                        app_name TEXT,
                        created_at INTEGER NOT NULL
                    );
                    CREATE INDEX feed_identity ON feed(provider, identifier, id);
                    CREATE TABLE short_urls (
                        code TEXT PRIMARY KEY,
                        url TEXT NOT NULL UNIQUE,
                        created_at INTEGER NOT NULL
                    );
                    """)
        }
        // Plural element ids from 2^31 on (`ElementIDs.first`: JUMP Android reads them as
        // `Long`). Which lists are plurals is the record model's (the schema, or the flow), which
        // a migration does not have: it marks the records stored before, and the store that opens
        // the database with a model moves their elements' ids up (`widenElementIDs`).
        migrator.registerMigration("12-wide-element-ids") { db in
            try db.execute(
                sql: """
                    ALTER TABLE users ADD COLUMN element_ids_wide INTEGER NOT NULL DEFAULT 1;
                    UPDATE users SET element_ids_wide = 0;
                    CREATE INDEX users_narrow_element_ids ON users(id) WHERE element_ids_wide = 0;
                    """)
        }
        // Replays (RFC 6749 section 4.1.2, OAuth 2.0 Security BCP section 4.14): a redeemed
        // authorization code is kept (until it would have expired, plus `expiredCodeMemory`)
        // with the grant it started, and a rotated refresh token with when it was used, so that
        // presenting either again ends that grant.
        migrator.registerMigration("13-replayed-grants") { db in
            try db.execute(
                sql: """
                    ALTER TABLE authorization_codes ADD COLUMN redeemed_chain TEXT;
                    ALTER TABLE refresh_tokens ADD COLUMN used_at INTEGER;
                    CREATE INDEX authorization_codes_user ON authorization_codes(user_id);
                    """)
        }
        return migrator
    }

    /// Moves the plural element ids below `ElementIDs.first` of the records stored before
    /// migration 12 up by one offset per record (2^31, or one past an id already that large),
    /// which keeps their order and the rule that no id is given twice; so does the record's
    /// next id. Lists that are not plurals (`json` attributes) stay as they are. A record the
    /// store cannot read stays as it is (writes refuse it anyway). Runs at start-up: the
    /// partial index `users_narrow_element_ids` finds the records still to move without a scan.
    static func widenElementIDs(_ model: RecordModel, _ db: Database) throws {
        let rows = try Row.fetchAll(db, sql: "SELECT id, record, next_element_id FROM users WHERE element_ids_wide = 0")
        for row in rows {
            let id: Int64 = row["id"]
            let next: Int = row["next_element_id"] ?? 1
            if let text: String = row["record"], let record = try? decodedRecord(text) {
                let largest = model.largestElementID(in: record)
                let offset = largest >= ElementIDs.first ? largest + 1 : ElementIDs.first
                let widened = model.mappingElements(record) { element in
                    guard let old = element["id"]?.intValue, old < ElementIDs.first else { return element }
                    return element.setting("id", .integer(old + offset))
                }
                if widened != record || next > 1 {
                    let nextWidened = next < ElementIDs.first ? next + offset : next
                    try db.execute(
                        sql: "UPDATE users SET record = ?, next_element_id = ? WHERE id = ?",
                        arguments: [widened.serialized(), max(nextWidened, model.largestElementID(in: widened) + 1), id])
                }
            }
            try db.execute(sql: "UPDATE users SET element_ids_wide = 1 WHERE id = ?", arguments: [id])
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
    /// Opens a new read-only connection to the database file (the pool's open connections
    /// would go on reading a file that was deleted or replaced) and checks that every migration
    /// of this server has run and none it does not know of.
    func readiness() -> StoreReadiness {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(2)
        do {
            let connection = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? connection.close() }
            let current = try connection.read { db in
                try Self.migrator.hasCompletedMigrations(db) && !Self.migrator.hasBeenSuperseded(db)
            }
            return StoreReadiness(reachable: true, migrationsCurrent: current)
        } catch {
            return StoreReadiness(reachable: false, migrationsCurrent: false)
        }
    }
}
