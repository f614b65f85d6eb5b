import Foundation
@testable import JumpCaptureServer
import SQLKit
import Testing
import TestSupport

/// `PreparedStatement`: on PostgreSQL a named prepared statement of each connection, whose text
/// is the statement's one SQLKit query; on SQLite a statement as any other. Against a private
/// PostgreSQL cluster (the tests that need PostgreSQL run whatever `JUMP_TEST_DATABASE` says).
@Suite(.timeLimit(.minutes(5))) struct PreparedStatementTests {
    /// A row of the tests' table by its id.
    struct ItemRead: PreparedStatement {
        var id: Int

        var query: SQLQueryString { "SELECT id, name FROM items WHERE id = \(bind: id)" }
    }

    /// A read whose text is not the same at every execution (the number of ids): each shape
    /// other than the first runs unnamed.
    struct ItemsRead: PreparedStatement {
        var ids: [Int]

        var query: SQLQueryString {
            var query: SQLQueryString = "SELECT id, name FROM items WHERE id IN ("
            for (index, id) in ids.enumerated() { query = index == 0 ? "\(query)\(bind: id)" : "\(query), \(bind: id)" }
            return "\(query)) ORDER BY id"
        }
    }

    /// A read with a bind that may be NULL (no type of its own: it runs unnamed).
    struct NamedRead: PreparedStatement {
        var name: String?

        var query: SQLQueryString { "SELECT id, name FROM items WHERE name IS NOT DISTINCT FROM \(bind: name) ORDER BY id" }
    }

    /// A write with a `RETURNING`, as `StoreDatabase.writeStatement` runs it.
    struct ItemRename: PreparedStatement {
        var id: Int
        var name: String

        var query: SQLQueryString { "UPDATE items SET name = \(bind: name) WHERE id = \(bind: id) RETURNING id" }
    }

    /// A database with the table `items` (1 'one', 2 'two', 3 NULL) and a pool of one connection.
    static func database(_ location: DatabaseLocation) async throws -> StoreDatabase {
        let database = try StoreDatabase(location, connections: 1, logger: ServerFixtures.quietLogger)
        try await database.execute("CREATE TABLE items (id BIGINT PRIMARY KEY, name TEXT)")
        try await database.execute("INSERT INTO items (id, name) VALUES (1, 'one'), (2, 'two'), (3, NULL)")
        return database
    }

    static func postgres() throws -> DatabaseLocation {
        try DatabaseLocation(parsing: try PostgresCluster.shared().makeDatabase())
    }

    static func names(_ rows: [any SQLRow]) throws -> [String?] {
        try rows.map { try $0.optionalString("name") }
    }

    /// The same rows as the statement sent as any other, and one round trip a read, on the
    /// engine the tests run on.
    @Test func aPreparedStatementHasTheRowsOfItsQuery() async throws {
        let folder = try TemporaryFolder("jump-prepared")
        defer { folder.remove() }
        let database = try await Self.database(try ServerFixtures.testDatabase() ?? .sqlite(path: folder.path + "/items.sqlite"))
        let tally = StatementTally()
        for _ in 0..<3 {
            let rows = try await StatementTally.$current.withValue(tally) {
                try await database.withConnection { db in try await db.all(ItemRead(id: 2)) }
            }
            #expect(try Self.names(rows) == ["two"])
            #expect(try rows.first?.int("id") == 2)
        }
        #expect(tally.count == 3)
        #expect(try await database.withConnection { db in try await db.all(ItemRead(id: 9)) }.isEmpty)
        #expect(try await database.withConnection { db in try Self.names(try await db.all(ItemsRead(ids: [1, 2]))) } == ["one", "two"])
        #expect(try await database.withConnection { db in try Self.names(try await db.all(ItemsRead(ids: [1, 2, 3]))) } == ["one", "two", nil])
        #expect(try await database.withConnection { db in try Self.names(try await db.all(NamedRead(name: nil))) } == [nil])
        #expect(try await database.withConnection { db in try Self.names(try await db.all(NamedRead(name: "one"))) } == ["one"])
        await database.shutdown()
    }

    /// A write on its own (`writeStatement`) answers the rows of its `RETURNING` (none when it
    /// changed no row), in one round trip, and changes what the next read sees, on the engine
    /// the tests run on.
    @Test func aPreparedWriteHasTheRowsOfItsReturning() async throws {
        let folder = try TemporaryFolder("jump-prepared")
        defer { folder.remove() }
        let database = try await Self.database(try ServerFixtures.testDatabase() ?? .sqlite(path: folder.path + "/items.sqlite"))
        let tally = StatementTally()
        for name in ["deux", "zwei"] {
            let rows = try await StatementTally.$current.withValue(tally) { try await database.writeStatement(ItemRename(id: 2, name: name)) }
            #expect(try rows.map { try $0.int("id") } == [2])
            #expect(try await database.withConnection { db in try Self.names(try await db.all(ItemRead(id: 2))) } == [name])
        }
        #expect(tally.count == 2)
        #expect(try await database.writeStatement(ItemRename(id: 9, name: "neuf")).isEmpty)
        await database.shutdown()
    }

    /// On PostgreSQL a write is kept prepared as a read is: under its own name, with the text
    /// SQLKit serializes from its query.
    @Test(.enabled(if: PostgresCluster.isAvailable, "PostgreSQL is not installed (apt-get install postgresql): this test needs it"))
    func postgresKeepsTheWritePreparedWithItsOneText() async throws {
        let database = try await Self.database(try Self.postgres())
        for id in [1, 2, 9] { _ = try await database.writeStatement(ItemRename(id: id, name: "n\(id)")) }
        _ = try await database.withConnection { db in try await db.all(ItemRead(id: 1)) }
        let (prepared, text) = try await database.withConnection { db in
            let rows = try await db.raw("SELECT name, statement FROM pg_prepared_statements ORDER BY name").all()
            return (try rows.map { try $0.string("name") + ": " + $0.string("statement") }, db.serialize(ItemRename(id: 1, name: "").query).sql)
        }
        #expect(text == "UPDATE items SET name = $1 WHERE id = $2 RETURNING id")
        #expect(prepared == ["jump_ItemRead: SELECT id, name FROM items WHERE id = $1", "jump_ItemRename: " + text])
        await database.shutdown()
    }

    /// On PostgreSQL the connection keeps the read prepared, under the read's name, with the
    /// text SQLKit serializes from its query; reads of other shapes (another number of binds,
    /// a NULL) are not prepared beside it.
    @Test(.enabled(if: PostgresCluster.isAvailable, "PostgreSQL is not installed (apt-get install postgresql): this test needs it"))
    func postgresKeepsTheReadPreparedWithItsOneText() async throws {
        let database = try await Self.database(try Self.postgres())
        for id in [1, 2, 1] { _ = try await database.withConnection { db in try await db.all(ItemRead(id: id)) } }
        let (prepared, text) = try await database.withConnection { db in
            let rows = try await db.raw("SELECT name, statement FROM pg_prepared_statements ORDER BY name").all()
            return (try rows.map { try $0.string("name") + ": " + $0.string("statement") }, db.serialize(ItemRead(id: 1).query).sql)
        }
        #expect(text == "SELECT id, name FROM items WHERE id = $1")
        #expect(prepared == ["jump_ItemRead: " + text])
        await database.shutdown()
    }

    /// A connection lost (its backend terminated, as by a restart of PostgreSQL): the pool
    /// opens a new one, which prepares the read again at its first use.
    @Test(.enabled(if: PostgresCluster.isAvailable, "PostgreSQL is not installed (apt-get install postgresql): this test needs it"))
    func aPreparedStatementSurvivesAReconnect() async throws {
        let location = try Self.postgres()
        let database = try await Self.database(location)
        func backend() async throws -> Int {
            try await database.withConnection { db in try await db.raw("SELECT pg_backend_pid() AS pid").first()?.int("pid") ?? 0 }
        }
        #expect(try await database.withConnection { db in try Self.names(try await db.all(ItemRead(id: 1))) } == ["one"])
        let before = try await backend()

        let other = try StoreDatabase(location, connections: 1, logger: ServerFixtures.quietLogger)
        let terminated = try await other.withConnection { db in
            try await db.raw("SELECT pg_terminate_backend(CAST(\(bind: before) AS integer)) AS done").first()?.decode(column: "done", as: Bool.self)
        }
        #expect(terminated == true)
        await other.shutdown()

        // The pool may hand out the lost connection once more before it sees it closed (that
        // read fails as the database unavailable); then a new connection answers.
        var names: [String?]?
        var failures = 0
        let deadline = ContinuousClock.now + .seconds(20)
        while names == nil, ContinuousClock.now < deadline {
            do {
                names = try await database.withConnection { db in try Self.names(try await db.all(ItemRead(id: 1))) }
            } catch {
                failures += 1
                #expect(error is StoreUnavailable, "\(error)")
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        #expect(names == ["one"])
        #expect(failures <= 1)
        #expect(try await backend() != before)
        let prepared = try await database.withConnection { db in
            try await db.raw("SELECT name FROM pg_prepared_statements").all().map { try $0.string("name") }
        }
        #expect(prepared == ["jump_ItemRead"])
        await database.shutdown()
    }

    /// A preparation that failed (its table was missing) is not kept: PostgresNIO would fail
    /// every later execution of the name on that connection, so the store closes it and the
    /// next read prepares on a new one.
    @Test(.enabled(if: PostgresCluster.isAvailable, "PostgreSQL is not installed (apt-get install postgresql): this test needs it"))
    func aFailedPreparationIsNotKept() async throws {
        let database = try await Self.database(try Self.postgres())
        try await database.execute("ALTER TABLE items RENAME TO items_away")
        await #expect(throws: (any Error).self) { try await database.withConnection { db in try await db.all(ItemRead(id: 1)) } }
        try await database.execute("ALTER TABLE items_away RENAME TO items")
        #expect(try await database.withConnection { db in try Self.names(try await db.all(ItemRead(id: 1))) } == ["one"])
        await database.shutdown()
    }
}
