import GRDBSQLite
import Synchronization

/// The one read every request with an access token makes (the token, its user and the user's
/// identities; or, for a refresh, the token's row), on SQLite connections of its own with the
/// statements prepared once.
///
/// GRDB's reader pool costs more than the query here (a pool checkout, a hop through the
/// connection's queue, a schema check and row boxing: a lookup that found nothing cost ~96 µs
/// of CPU a request under load, where this reader spends ~6 µs on the whole read), so this
/// read goes to SQLite directly. It is one statement, so it reads one snapshot without a
/// transaction. The connections are read-only
/// (`query_only`), share the database's WAL with GRDB's writer, and are reused: a call takes an
/// idle one or opens one; at most `keptIdle` wait between calls, the others close.
final class SessionReader: Sendable {
    /// What the read finds for a token hash.
    struct Session: Sendable {
        var expiresAt: Int
        /// When the session signed in.
        var signedInAt: Int
        /// The `/oauth/token` grant of the token, if it comes from one.
        var chain: String?
        var user: StoredUser
        var identities: [StoredIdentity]
    }

    /// A token's row, for a refresh.
    struct TokenRow: Sendable {
        var userID: Int64
        var expiresAt: Int
        /// When the session signed in.
        var signedInAt: Int
        var chain: String?
        /// The refresh secret, sealed (see `CaptureStore.seal`).
        var sealedSecret: [UInt8]?
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let path: String
    private let idle = Mutex<[Connection]>([])
    private let keptIdle = 8

    init(path: String) {
        self.path = path
    }

    /// The session of the token whose SHA-256 (hex) is `hash`, or nil when there is none.
    func session(tokenHash hash: String) throws -> Session? {
        try withConnection { try $0.session(hash) }
    }

    /// The row of the token whose SHA-256 (hex) is `hash`, or nil when there is none.
    func token(tokenHash hash: String) throws -> TokenRow? {
        try withConnection { try $0.token(hash) }
    }

    private func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? Connection(path: path)
        defer {
            let extra = idle.withLock { connections -> Connection? in
                guard connections.count < keptIdle else { return connection }
                connections.append(connection)
                return nil
            }
            _ = extra   // closed here when the idle list is full
        }
        return try body(connection)
    }

    /// One SQLite connection and its prepared statements. Used by one thread at a time (it is
    /// either in the idle list or held by one call).
    private final class Connection: @unchecked Sendable {
        let db: OpaquePointer
        let sessionStatement: OpaquePointer
        let tokenStatement: OpaquePointer

        static let sessionSQL = """
            SELECT access_tokens.expires_at, users.id, users.uuid, users.record, users.password_hash, users.email_normalized,
                   identities.provider, identities.identifier, identities.verified_email,
                   coalesce(access_tokens.signed_in_at, access_tokens.created_at), access_tokens.chain
            FROM access_tokens JOIN users ON users.id = access_tokens.user_id
            LEFT JOIN identities ON identities.user_id = users.id
            WHERE access_tokens.token_hash = ?1 ORDER BY identities.id
            """
        static let tokenSQL = "SELECT user_id, expires_at, refresh_secret, coalesce(signed_in_at, created_at), chain FROM access_tokens WHERE token_hash = ?1"

        init(path: String) throws {
            var handle: OpaquePointer?
            let opened = sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
            guard opened == SQLITE_OK, let handle else {
                let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
                sqlite3_close_v2(handle)
                throw Failure(description: "cannot open \(path) for reading sessions: \(message)")
            }
            sqlite3_busy_timeout(handle, 10_000)
            var session: OpaquePointer?
            var token: OpaquePointer?
            guard sqlite3_exec(handle, "PRAGMA query_only = 1", nil, nil, nil) == SQLITE_OK,
                  sqlite3_prepare_v3(handle, Self.sessionSQL, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &session, nil) == SQLITE_OK,
                  sqlite3_prepare_v3(handle, Self.tokenSQL, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &token, nil) == SQLITE_OK,
                  let session, let token else {
                let message = String(cString: sqlite3_errmsg(handle))
                sqlite3_finalize(session)
                sqlite3_finalize(token)
                sqlite3_close_v2(handle)
                throw Failure(description: "cannot prepare the session reads: \(message)")
            }
            db = handle
            sessionStatement = session
            tokenStatement = token
        }

        deinit {
            sqlite3_finalize(sessionStatement)
            sqlite3_finalize(tokenStatement)
            sqlite3_close_v2(db)
        }

        /// Runs `statement` with the hash bound, calling `row` for each row; resets it after.
        private func run(_ statement: OpaquePointer, _ hash: String, row: () -> Void) throws {
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            var hash = hash
            let bound = hash.withUTF8 { utf8 in
                // SQLITE_TRANSIENT: SQLite copies the text.
                sqlite3_bind_text(statement, 1, UnsafeRawPointer(utf8.baseAddress)?.assumingMemoryBound(to: CChar.self),
                                  Int32(utf8.count), unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
            guard bound == SQLITE_OK else { throw failure("bind") }
            while true {
                let step = sqlite3_step(statement)
                if step == SQLITE_DONE { return }
                guard step == SQLITE_ROW else { throw failure("step") }
                row()
            }
        }

        func token(_ hash: String) throws -> TokenRow? {
            let statement = tokenStatement
            var token: TokenRow?
            try run(statement, hash) {
                var sealed: [UInt8]?
                if sqlite3_column_type(statement, 2) != SQLITE_NULL {
                    let count = Int(sqlite3_column_bytes(statement, 2))
                    let bytes = sqlite3_column_blob(statement, 2)
                    sealed = bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
                }
                token = TokenRow(userID: sqlite3_column_int64(statement, 0), expiresAt: Int(sqlite3_column_int64(statement, 1)),
                                 signedInAt: Int(sqlite3_column_int64(statement, 3)), chain: text(statement, 4), sealedSecret: sealed)
            }
            return token
        }

        func session(_ hash: String) throws -> Session? {
            let statement = sessionStatement
            var session: Session?
            try run(statement, hash) {
                if session == nil {
                    let user = StoredUser(id: sqlite3_column_int64(statement, 1), uuid: text(2) ?? "",
                                          recordText: text(3) ?? "{}",
                                          passwordHash: text(4), emailNormalized: text(5))
                    session = Session(expiresAt: Int(sqlite3_column_int64(statement, 0)), signedInAt: Int(sqlite3_column_int64(statement, 9)),
                                      chain: text(10), user: user, identities: [])
                }
                if let provider = text(6) {
                    session?.identities.append(StoredIdentity(provider: provider, identifier: text(7) ?? "", verifiedEmail: text(8)))
                }
            }
            return session
        }

        /// A text column of the session statement; nil for NULL.
        private func text(_ column: Int32) -> String? {
            text(sessionStatement, column)
        }

        /// A text column of a statement's row; nil for NULL.
        private func text(_ statement: OpaquePointer, _ column: Int32) -> String? {
            guard sqlite3_column_type(statement, column) != SQLITE_NULL, let bytes = sqlite3_column_text(statement, column) else { return nil }
            let count = Int(sqlite3_column_bytes(statement, column))
            return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        }

        private func failure(_ step: String) -> Failure {
            Failure(description: "session read (\(step)): \(String(cString: sqlite3_errmsg(db)))")
        }
    }
}
