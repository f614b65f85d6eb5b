import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Logging
import Testing
import TestSupport

/// The store's migrations: a SQLite file written by the versions that used GRDB (its list in
/// `grdb_migrations`) opens with every row kept; a schema newer than the server is refused.
@Suite(.timeLimit(.minutes(2))) struct StoreMigrationTests {
    static let now = 1_700_000_000

    @Test func aDatabaseMigratedByGRDBOpensWithItsData() async throws {
        let folder = try TemporaryFolder("jump-grdb-file")
        defer { folder.remove() }
        let path = folder.path + "/capture.sqlite"
        do {
            // What GRDB's migrator left: the same tables, and the applied list in its own table.
            let old = try StoreDatabase(.sqlite(path: path), logger: Logger(label: "test"))
            try await CaptureStore.migrate(old)
            try await old.execute("ALTER TABLE schema_migrations RENAME TO grdb_migrations")
            try await old.execute(
                "INSERT INTO users (id, uuid, email_normalized, email_key, record, created, last_updated) VALUES (7, 'u-7', 'ana@example.com', 'ana@example.com', ?, 'x', 'x')",
                [#"{"id":7,"email":"ana@example.com"}"#])
            try await old.execute("INSERT INTO outbox (kind, recipient, subject, body, created_at) VALUES ('reset', 'ana@example.com', 'S', 'B', 1)")
        }
        let store = try CaptureStore(path: path)
        #expect(try await store.user(emailNormalized: "ana@example.com")?.id == 7)
        #expect(try await store.outbox().map(\.subject) == ["S"])
        let applied = try await store.texts("SELECT identifier FROM schema_migrations ORDER BY identifier").compactMap { $0 }
        #expect(Set(applied) == Set(CaptureStore.migrations.map(\.identifier)))
        #expect(try await store.texts("SELECT name FROM sqlite_master WHERE name = 'grdb_migrations'").isEmpty)
        // The unique email still holds.
        await #expect(throws: StoreConflict.self) {
            _ = try await store.createUser(
                record: ["email": "ANA@example.com"], passwordHash: nil, identity: nil, unique: [("emailAddress", "email", "ANA@example.com")],
                now: Self.now)
        }
        #expect(await store.readiness().isReady)
    }

    @Test func aNewerSchemaIsRefusedNamingBothVersions() async throws {
        let folder = try TemporaryFolder("jump-newer-schema")
        defer { folder.remove() }
        let path = folder.path + "/capture.sqlite"
        let first = try CaptureStore(path: path)
        try await first.execute("INSERT INTO schema_migrations (identifier) VALUES ('99-from-the-future')")
        let store = try CaptureStore(path: path)
        do {
            try await store.prepareForServing()
            Issue.record("a newer schema was used")
        } catch {
            let text = "\(error)"
            #expect(text.contains("version 99") && text.contains("version \(CaptureStore.schemaVersion)"), "\(text)")
        }
    }

    /// Migrating twice at once (two servers starting on one database) applies each migration once.
    @Test func concurrentMigrationsApplyEachOnce() async throws {
        let folder = try TemporaryFolder("jump-concurrent-migrate")
        defer { folder.remove() }
        let path = folder.path + "/capture.sqlite"
        let databases = try (0..<3).map { _ in try StoreDatabase(.sqlite(path: path), logger: Logger(label: "test")) }
        let applied = try await withThrowingTaskGroup(of: [String].self) { group in
            for database in databases { group.addTask { try await CaptureStore.migrate(database) } }
            return try await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(applied.sorted() == CaptureStore.migrations.map(\.identifier).sorted())
    }
}
