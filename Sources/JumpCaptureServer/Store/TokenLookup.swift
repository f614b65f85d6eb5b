import GRDBSQLite
import Synchronization

/// The read every request with an access token makes (the token's session, or for a refresh its
/// row), on prepared SQLite statements of its own: through GRDB's reader pool (a checkout, a
/// hop through the connection's queue, a schema check, row boxing) this read cost ~90 µs of
/// CPU against ~6 µs here, and record reads and refreshes fell from over half of `/health`'s
/// throughput to 39% and 27% (docs/PERFORMANCE.md). Writes stay with GRDB.
///
/// Each lookup is one statement, so it reads one snapshot without a transaction. The
/// connections are read-only (`query_only`), share the WAL with GRDB's writer, and are reused:
/// a lookup takes an idle one or opens one; at most `keptIdle` wait between lookups.
final class TokenLookup: Sendable {
    /// A token's row.
    struct TokenRow: Sendable {
        var userID: Int64
        var expiresAt: Int
        var signedInAt: Int
        var chain: String?
        /// The refresh secret, sealed (`CaptureStore.seal`).
        var sealedSecret: [UInt8]?
    }

    /// A token's row with its user and the user's identities (in the order they were linked).
    struct Session: Sendable {
        var token: TokenRow
        var user: StoredUser
        var identities: [StoredIdentity]
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

    /// The row of the token whose SHA-256 (hex) is `hash`, or nil.
    func token(hash: String) throws -> TokenRow? {
        try withConnection { connection in
            var found: TokenRow?
            try connection.run(connection.token, hash) { row in found = row.token(withSecret: true) }
            return found
        }
    }

    /// The session of the token whose SHA-256 (hex) is `hash`, or nil.
    func session(hash: String) throws -> Session? {
        try withConnection { connection in
            var session: Session?
            try connection.run(connection.session, hash) { row in
                if session == nil { session = Session(token: row.token(withSecret: false), user: row.user(), identities: []) }
                if let provider = row.text(8) {
                    session?.identities.append(StoredIdentity(provider: provider, identifier: row.text(9) ?? "", verifiedEmail: row.text(10)))
                }
            }
            return session
        }
    }

    private func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        let connection = try idle.withLock { $0.popLast() } ?? Connection(path: path)
        defer {
            idle.withLock { connections in
                if connections.count < keptIdle { connections.append(connection) }
            }
        }
        return try body(connection)
    }

    /// The current row of a stepped statement. Both statements start with the token's columns;
    /// the session's go on with its user's, then one identity's.
    fileprivate struct RowReader {
        let statement: OpaquePointer

        func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }

        func text(_ column: Int32) -> String? {
            guard sqlite3_column_type(statement, column) != SQLITE_NULL, let bytes = sqlite3_column_text(statement, column) else { return nil }
            return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column))), as: UTF8.self)
        }

        func blob(_ column: Int32) -> [UInt8]? {
            guard sqlite3_column_type(statement, column) != SQLITE_NULL else { return nil }
            guard let bytes = sqlite3_column_blob(statement, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: bytes, count: Int(sqlite3_column_bytes(statement, column))))
        }

        func token(withSecret: Bool) -> TokenRow {
            TokenRow(userID: int(0), expiresAt: Int(int(1)), signedInAt: Int(int(2)), chain: text(3), sealedSecret: withSecret ? blob(4) : nil)
        }

        func user() -> StoredUser {
            StoredUser(id: int(0), uuid: text(5) ?? "", recordText: text(6) ?? "{}", passwordHash: text(7), emailNormalized: text(11))
        }
    }

    /// One read-only SQLite connection and its two prepared statements, used by one lookup at a
    /// time (it is either in the idle list or held by one call).
    private final class Connection: @unchecked Sendable {
        let db: OpaquePointer
        let token: OpaquePointer
        let session: OpaquePointer

        static let tokenColumns = """
            access_tokens.user_id, access_tokens.expires_at, coalesce(access_tokens.signed_in_at, access_tokens.created_at),
            access_tokens.chain, access_tokens.refresh_secret
            """
        static let tokenSQL = "SELECT \(tokenColumns) FROM access_tokens WHERE token_hash = ?1"
        static let sessionSQL = """
            SELECT \(tokenColumns), users.uuid, users.record, users.password_hash,
                   identities.provider, identities.identifier, identities.verified_email, users.email_normalized
            FROM access_tokens JOIN users ON users.id = access_tokens.user_id
            LEFT JOIN identities ON identities.user_id = users.id
            WHERE access_tokens.token_hash = ?1 ORDER BY identities.id
            """

        init(path: String) throws {
            var handle: OpaquePointer?
            guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle else {
                let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
                sqlite3_close_v2(handle)
                throw Failure(description: "cannot open \(path) to read access tokens: \(message)")
            }
            sqlite3_busy_timeout(handle, 10_000)
            var token: OpaquePointer?
            var session: OpaquePointer?
            let persistent = UInt32(SQLITE_PREPARE_PERSISTENT)
            guard sqlite3_exec(handle, "PRAGMA query_only = 1", nil, nil, nil) == SQLITE_OK,
                sqlite3_prepare_v3(handle, Self.tokenSQL, -1, persistent, &token, nil) == SQLITE_OK,
                sqlite3_prepare_v3(handle, Self.sessionSQL, -1, persistent, &session, nil) == SQLITE_OK,
                let token, let session
            else {
                let message = String(cString: sqlite3_errmsg(handle))
                sqlite3_finalize(token)
                sqlite3_finalize(session)
                sqlite3_close_v2(handle)
                throw Failure(description: "cannot prepare the access token reads: \(message)")
            }
            db = handle
            self.token = token
            self.session = session
        }

        deinit {
            sqlite3_finalize(token)
            sqlite3_finalize(session)
            sqlite3_close_v2(db)
        }

        /// Runs `statement` with `hash` bound, calling `row` for each row; resets it after.
        fileprivate func run(_ statement: OpaquePointer, _ hash: String, row: (RowReader) -> Void) throws {
            defer {
                sqlite3_reset(statement)
                sqlite3_clear_bindings(statement)
            }
            var hash = hash
            let bound = hash.withUTF8 { utf8 in
                // SQLITE_TRANSIENT: SQLite copies the text.
                sqlite3_bind_text(
                    statement, 1, UnsafeRawPointer(utf8.baseAddress)?.assumingMemoryBound(to: CChar.self), Int32(utf8.count),
                    unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            }
            guard bound == SQLITE_OK else { throw failure("bind") }
            while true {
                let step = sqlite3_step(statement)
                if step == SQLITE_DONE { return }
                guard step == SQLITE_ROW else { throw failure("step") }
                row(RowReader(statement: statement))
            }
        }

        private func failure(_ step: String) -> Failure {
            Failure(description: "access token read (\(step)): \(String(cString: sqlite3_errmsg(db)))")
        }
    }
}
