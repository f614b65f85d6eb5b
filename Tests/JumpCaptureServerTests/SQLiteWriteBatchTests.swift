@testable import JumpCaptureServer
import SQLKit
import SQLiteKit
import Testing
import TestSupport

/// SQLite's writes committed in batches (`SQLiteWriteBatch`), on a real SQLite file: the writes
/// that wait while a batch runs commit together in the next, each in its own savepoint, and none
/// is answered before its batch's COMMIT returned. Each test holds the writer with a transaction
/// that waits, queues its writes behind it (waiting until the batch says they are queued), then
/// lets the holder end, so that the queued writes form the next batches.
@Suite(.timeLimit(.minutes(1))) struct SQLiteWriteBatchTests {
    /// A migrated store database in a fresh folder.
    private static func database(_ folder: TemporaryFolder) async throws -> StoreDatabase {
        let database = try StoreDatabase(.sqlite(path: folder.path + "/capture.sqlite"), logger: ServerFixtures.quietLogger)
        try await CaptureStore.migrate(database)
        return database
    }

    /// A transaction that runs and waits until `release` is called: the writes asked for
    /// meanwhile queue behind it.
    private struct Holder {
        let task: Task<Void, any Error>
        let release: @Sendable () -> Void

        static func start(_ database: StoreDatabase) async -> Holder {
            let (started, start) = AsyncStream.makeStream(of: Void.self)
            let (released, release) = AsyncStream.makeStream(of: Void.self)
            let task = Task {
                try await database.transaction { db in
                    try await db.raw("INSERT INTO outbox (kind, recipient, subject, body, created_at) VALUES ('t', 'holder', 'S', 'B', 1)").run()
                    start.yield()
                    for await _ in released { break }
                }
            }
            for await _ in started { break }
            return Holder(task: task, release: { release.yield() })
        }
    }

    /// Waits until `count` writes wait in the batch's queue.
    private static func waitUntilQueued(_ database: StoreDatabase, _ count: Int) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while database.sqliteWrites.queuedCount < count {
            guard ContinuousClock.now < deadline else {
                Issue.record("\(database.sqliteWrites.queuedCount) of \(count) writes queued")
                return
            }
            try await Task.sleep(for: .milliseconds(1))
        }
    }

    /// A statement for `writeStatement` (on SQLite, run as it is).
    private struct Write: PreparedStatement {
        let query: SQLQueryString
    }

    private static func insert(_ recipient: String) -> SQLQueryString {
        "INSERT INTO outbox (kind, recipient, subject, body, created_at) VALUES ('t', \(bind: recipient), 'S', 'B', 1) RETURNING id"
    }

    private static func recipients(_ database: StoreDatabase) async throws -> [String] {
        try await database.withConnection { db in
            try await db.raw("SELECT recipient FROM outbox ORDER BY id").all().map { try $0.string("recipient") }
        }
    }

    /// More writes at once than a batch takes: each is answered with its own result, every row
    /// is there for a reader after, and the statements each request sent count as documented
    /// (its statements and its savepoint; a batch's BEGIN and COMMIT for its first write), in
    /// batches of at most `maximumCount`.
    @Test func concurrentWritesAreAllCommittedAndVisible() async throws {
        let folder = try TemporaryFolder("jump-write-batch")
        defer { folder.remove() }
        let database = try await Self.database(folder)
        let holder = await Holder.start(database)
        let count = 150
        let tallies = (0..<count).map { _ in StatementTally() }
        try await withThrowingTaskGroup(of: (Int, Int64).self) { group in
            for index in 0..<count {
                group.addTask {
                    try await StatementTally.$current.withValue(tallies[index]) {
                        if index.isMultiple(of: 2) {
                            let rows = try await database.writeStatement(Write(query: Self.insert("w\(index)")))
                            return (index, try rows.first?.int64("id") ?? -1)
                        }
                        // A transaction of two statements: an insert and an update of its row.
                        let id = try await database.transaction { db in
                            let id = try await db.raw(Self.insert("w\(index)")).first()?.int64("id") ?? -1
                            try await db.raw("UPDATE outbox SET subject = \(bind: "t\(index)") WHERE id = \(bind: id)").run()
                            return id
                        }
                        return (index, id)
                    }
                }
            }
            try await Self.waitUntilQueued(database, count)
            holder.release()
            try await holder.task.value
            var ids: [Int: Int64] = [:]
            for try await (index, id) in group { ids[index] = id }
            #expect(ids.count == count)
            #expect(Set(ids.values).count == count && !ids.values.contains(-1), "each write its own row: \(ids)")
        }
        let recipients = try await Self.recipients(database)
        #expect(Set(recipients) == Set(["holder"] + (0..<count).map { "w\($0)" }))
        let subjects = try await database.withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM outbox WHERE subject LIKE 't%'").first()?.int("n")
        }
        #expect(subjects == count / 2)
        // 150 writes queued together: batches of 64, 64 and 22, each with its BEGIN and COMMIT
        // (counted for its first write). A statement write sends its INSERT (1), a transaction
        // its savepoint and two statements (3).
        let beyondOwn = (0..<count).map { tallies[$0].count - ($0.isMultiple(of: 2) ? 1 : 3) }
        #expect(beyondOwn.allSatisfy { $0 == 0 || $0 == 2 }, "\(beyondOwn)")
        #expect(beyondOwn.filter { $0 == 2 }.count == 3, "three batches, each first write counting BEGIN and COMMIT: \(beyondOwn)")
        await database.shutdown()
    }

    /// A write of a batch that fails (a unique violation, a `StoreConflict` thrown by its body
    /// after it wrote, a statement refused halfway) is rolled back to its savepoint (the
    /// statement: undone) and gets its own error; the writes before and after it in the batch
    /// commit.
    @Test func aFailingWriteRollsBackOnlyItself() async throws {
        let folder = try TemporaryFolder("jump-write-batch-failure")
        defer { folder.remove() }
        let database = try await Self.database(folder)
        try await database.execute(
            "INSERT INTO users (id, uuid, email_normalized, record, created, last_updated) VALUES (7, 'u-7', 'ana@example.com', '{}', 'x', 'x')")
        let holder = await Holder.start(database)
        let writes = try await withThrowingTaskGroup(of: (Int, Result<Int64, any Error>).self) { group in
            for index in 0..<6 {
                group.addTask {
                    do {
                        if index == 5 {
                            // One statement: user 8 is inserted, then user 7 refused.
                            _ = try await database.writeStatement(
                                Write(
                                    query:
                                        "INSERT INTO users (id, uuid, email_normalized, record, created, last_updated) VALUES (8, 'u-8', 'c@example.com', '{}', 'x', 'x'), (7, 'u-9', 'd@example.com', '{}', 'x', 'x')"
                                )
                            )
                            return (index, .success(-1))
                        }
                        return (
                            index,
                            .success(
                                try await database.transaction { db in
                                    let id = try await db.raw(Self.insert("w\(index)")).first()?.int64("id") ?? -1
                                    if index == 1 {
                                        // The same primary key again: SQLite refuses it.
                                        try await db.raw(
                                            "INSERT INTO users (id, uuid, email_normalized, record, created, last_updated) VALUES (7, 'u-8', 'b@example.com', '{}', 'x', 'x')"
                                        ).run()
                                    }
                                    if index == 3 { throw StoreConflict.identityTaken }
                                    return id
                                })
                        )
                    } catch {
                        return (index, .failure(error))
                    }
                }
                try await Self.waitUntilQueued(database, index + 1)
            }
            holder.release()
            try await holder.task.value
            var writes: [Int: Result<Int64, any Error>] = [:]
            for try await (index, result) in group { writes[index] = result }
            return writes
        }
        for index in [0, 2, 4] {
            if case .failure(let error) = writes[index] { Issue.record("write \(index) failed: \(error)") }
        }
        guard case .failure(let unique) = writes[1] else { Issue.record("the duplicate key was written"); return }
        #expect(StoreDatabase.isUniqueViolation(unique), "\(unique)")
        guard case .failure(let conflict) = writes[3] else { Issue.record("the conflict was committed"); return }
        #expect(conflict as? StoreConflict == .identityTaken, "\(conflict)")
        guard case .failure(let refused) = writes[5] else { Issue.record("the refused statement was committed"); return }
        #expect(StoreDatabase.isUniqueViolation(refused), "\(refused)")
        let users = try await database.withConnection { db in try await db.raw("SELECT id FROM users ORDER BY id").all().map { try $0.int("id") } }
        #expect(users == [7])
        #expect(try await Self.recipients(database) == ["holder", "w0", "w2", "w4"])
        await database.shutdown()
    }

    /// A batch whose COMMIT fails (a deferred foreign key that one write leaves broken, which
    /// SQLite checks at COMMIT) fails every write of the batch: none is answered as written,
    /// none of their rows is there, and the next write runs on a clean connection.
    @Test func aFailingCommitFailsEveryWriteOfTheBatch() async throws {
        let folder = try TemporaryFolder("jump-write-batch-commit")
        defer { folder.remove() }
        let database = try await Self.database(folder)
        let holder = await Holder.start(database)
        let results = try await withThrowingTaskGroup(of: (Int, (any Error)?).self) { group in
            for index in 0..<3 {
                group.addTask {
                    do {
                        if index == 1 {
                            _ = try await database.transaction { db in
                                try await db.raw("PRAGMA defer_foreign_keys = ON").run()
                                try await db.raw(
                                    "INSERT INTO identities (user_id, provider, identifier) VALUES (999, 'example', 'nobody')"
                                ).run()
                            }
                        } else {
                            _ = try await database.writeStatement(Write(query: Self.insert("w\(index)")))
                        }
                        return (index, nil)
                    } catch {
                        return (index, error)
                    }
                }
                try await Self.waitUntilQueued(database, index + 1)
            }
            holder.release()
            try await holder.task.value
            var results: [Int: (any Error)?] = [:]
            for try await (index, error) in group { results[index] = error }
            return results
        }
        for index in 0..<3 {
            guard let error = results[index] ?? nil else {
                Issue.record("write \(index) was answered as written")
                continue
            }
            #expect((error as? SQLiteError)?.reason == .constraintForeignKeyFailed, "\(error)")
        }
        #expect(try await Self.recipients(database) == ["holder"])
        let identities = try await database.withConnection { db in try await db.raw("SELECT COUNT(*) AS n FROM identities").first()?.int("n") }
        #expect(identities == 0)
        // The batch was rolled back: the connection takes the next write.
        _ = try await database.writeStatement(Write(query: Self.insert("after")))
        try await database.execute("INSERT INTO outbox (kind, recipient, subject, body, created_at) VALUES ('t', 'after2', 'S', 'B', 1)")
        #expect(try await Self.recipients(database) == ["holder", "after", "after2"])
        await database.shutdown()
    }

    /// The writes of a batch run in the order they were asked for, and a caller's writes one
    /// after the other are written in its order.
    @Test func writesRunInTheOrderTheyCame() async throws {
        let folder = try TemporaryFolder("jump-write-batch-order")
        defer { folder.remove() }
        let database = try await Self.database(folder)
        let holder = await Holder.start(database)
        let count = 12
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask {
                    if index.isMultiple(of: 3) {
                        try await database.execute(
                            "INSERT INTO outbox (kind, recipient, subject, body, created_at) VALUES ('t', ?, 'S', 'B', 1)", ["w\(index)"])
                    } else {
                        _ = try await database.writeStatement(Write(query: Self.insert("w\(index)")))
                    }
                }
                try await Self.waitUntilQueued(database, index + 1)
            }
            // A caller writing one after the other while the batches run.
            group.addTask {
                for step in 0..<10 {
                    if step.isMultiple(of: 2) {
                        _ = try await database.writeStatement(Write(query: Self.insert("s\(step)")))
                    } else {
                        try await database.execute(
                            "INSERT INTO outbox (kind, recipient, subject, body, created_at) VALUES ('t', ?, 'S', 'B', 1)", ["s\(step)"])
                    }
                }
            }
            holder.release()
            try await holder.task.value
            try await group.waitForAll()
        }
        let recipients = try await Self.recipients(database)
        #expect(recipients.filter { $0.hasPrefix("w") } == (0..<count).map { "w\($0)" })
        #expect(recipients.filter { $0.hasPrefix("s") } == (0..<10).map { "s\($0)" })
        await database.shutdown()
    }

    /// A write inside a write (a transaction's body asking for a transaction or a statement of
    /// the same database) runs in the batch it is part of rather than waiting for it: an inner
    /// transaction that throws is rolled back alone, the rest commits with the outer one.
    @Test func aWriteInsideAWriteRunsInItsBatch() async throws {
        let folder = try TemporaryFolder("jump-write-batch-inner")
        defer { folder.remove() }
        let database = try await Self.database(folder)
        let holder = await Holder.start(database)
        // Two outer writes in one batch, each with inner writes.
        let refusals = try await withThrowingTaskGroup(of: (any Error)?.self) { group in
            for outer in ["a", "b"] {
                group.addTask {
                    try await database.transaction { db in
                        try await db.raw(Self.insert("\(outer)-outer")).run()
                        try await database.transaction { inner in try await inner.raw(Self.insert("\(outer)-inner")).run() }
                        var refusal: (any Error)?
                        do {
                            try await database.transaction { inner in
                                try await inner.raw(Self.insert("\(outer)-refused")).run()
                                throw StoreConflict.identityTaken
                            }
                        } catch {
                            refusal = error
                        }
                        _ = try await database.writeStatement(Write(query: Self.insert("\(outer)-statement")))
                        return refusal
                    }
                }
                try await Self.waitUntilQueued(database, outer == "a" ? 1 : 2)
            }
            holder.release()
            try await holder.task.value
            var refusals: [(any Error)?] = []
            for try await refusal in group { refusals.append(refusal) }
            return refusals
        }
        #expect(refusals.count == 2 && refusals.allSatisfy { $0 as? StoreConflict == .identityTaken }, "\(refusals)")
        #expect(
            try await Self.recipients(database) == ["holder", "a-outer", "a-inner", "a-statement", "b-outer", "b-inner", "b-statement"])
        // Alone (a batch of one, without a savepoint of its own) the same holds.
        try await database.transaction { db in
            try await db.raw(Self.insert("c-outer")).run()
            try? await database.transaction { inner in
                try await inner.raw(Self.insert("c-refused")).run()
                throw StoreConflict.identityTaken
            }
        }
        #expect(try await Self.recipients(database).suffix(1) == ["c-outer"])
        await database.shutdown()
    }
}
