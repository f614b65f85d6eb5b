import Foundation
import GRDB
import GRDBSQLite
@testable import JumpCaptureServer
import Testing
import TestSupport

/// WAL checkpoints off the commit path, on a real database file: what they copy is read back
/// from the database file alone (`immutable=1` ignores the WAL).
@Suite(.timeLimit(.minutes(5))) struct WALCheckpointerTests {
    /// The rows of `table` in the database file itself, without the WAL; nil when the file
    /// has no such table yet.
    static func rowsInDatabaseFile(_ path: String, table: String) -> Int? {
        var db: OpaquePointer?
        defer { sqlite3_close_v2(db) }
        guard sqlite3_open_v2("file:\(path)?immutable=1", &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nil) == SQLITE_OK else { return nil }
        var statement: OpaquePointer?
        defer { sqlite3_finalize(statement) }
        guard sqlite3_prepare_v2(db, "SELECT count(*) FROM \(table)", -1, &statement, nil) == SQLITE_OK,
            sqlite3_step(statement) == SQLITE_ROW
        else { return nil }
        return Int(sqlite3_column_int64(statement, 0))
    }

    static func insert(_ store: CaptureStore, bytes: Int) async throws {
        try await store.pool.write { db in
            try db.execute(sql: "INSERT INTO filler (data) VALUES (randomblob(?))", arguments: [bytes])
        }
    }

    /// A store whose WAL asks for a checkpoint at `pages` pages, with a `filler` table.
    static func fillerStore(in folder: TemporaryFolder, pages: Int32) async throws -> (store: CaptureStore, path: String) {
        let path = folder.path + "/filler.sqlite"
        let store = try CaptureStore(path: path, checkpointPages: pages)
        try await store.pool.write { db in try db.execute(sql: "CREATE TABLE filler (id INTEGER PRIMARY KEY, data BLOB)") }
        return (store, path)
    }

    /// The rows of `filler` through GRDB (WAL and database file together).
    static func rows(_ store: CaptureStore) async throws -> Int? {
        try await store.pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM filler") }
    }

    static func walSize(_ path: String) throws -> Int {
        try (FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test func aCommitPastTheMarkIsCopiedIntoTheDatabaseFileBesideTheWrites() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, path) = try await Self.fillerStore(in: folder, pages: 8)
        for _ in 0..<5 { try await Self.insert(store, bytes: 2_000) }
        store.checkpointer.drain()
        // One commit of more than 8 pages, with no checkpoint queued: it asks for one, and that
        // one copies every frame so far (nothing writes beside it).
        try await Self.insert(store, bytes: 48_000)
        store.checkpointer.drain()
        #expect(Self.rowsInDatabaseFile(path, table: "filler") == 6)
        let status = store.checkpointer.status
        #expect(status.queued >= 1)
        #expect(status.inline == 0, "no commit went past 64 pages")
        #expect(status.failure == nil)
        #expect(try await Self.rows(store) == 6)
    }

    @Test func aSmallCommitAsksForNoCheckpoint() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, path) = try await Self.fillerStore(in: folder, pages: 100_000)
        for _ in 0..<20 { try await Self.insert(store, bytes: 8_000) }
        store.checkpointer.drain()
        // SQLite's automatic checkpoint is off for the writer, and no commit reached the mark:
        // the rows are in the WAL only.
        #expect(Self.rowsInDatabaseFile(path, table: "filler") == nil)
        #expect(store.checkpointer.status.queued == 0 && store.checkpointer.status.inline == 0)
        #expect(try await Self.rows(store) == 20)
    }

    @Test func theWALStaysBoundedUnderAnUnbrokenRunOfCommits() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let (store, path) = try await Self.fillerStore(in: folder, pages: 8)
        // 300 commits of ~2-3 pages each: ~900 pages (3.7 MB) if nothing were checkpointed.
        for _ in 0..<300 { try await Self.insert(store, bytes: 8_000) }
        store.checkpointer.drain()
        let status = store.checkpointer.status
        #expect(status.queued + status.inline >= 2, "\(status)")
        #expect(status.failure == nil || status.failure!.contains("locked") || status.failure!.contains("busy"), "\(status)")
        // Unbounded it would reach ~3.7 MB; bounded it stays near the 64-page limit (~260 KB),
        // and under 2 MB even when a loaded machine runs the checkpoints late (1.05 MB seen).
        let size = try Self.walSize(path)
        #expect(size < 2_000_000, "WAL of \(size) bytes")
        #expect(try await Self.rows(store) == 300)
    }
}
