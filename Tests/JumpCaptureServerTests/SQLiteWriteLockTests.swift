@testable import JumpCaptureServer
import Logging
import Testing
import TestSupport

/// Several processes writing one SQLite file (instances starting at once, `users import` next
/// to `serve`): a writer waits for another's write lock without holding one of the threads
/// SQLite's calls run on, so that the process's reads go on meanwhile.
@Suite(.timeLimit(.minutes(2))) struct SQLiteWriteLockTests {
    @Test func writersWaitingForTheLockLeaveTheThreadsToReaders() async throws {
        let folder = try TemporaryFolder("jump-write-lock")
        defer { folder.remove() }
        let path = folder.path + "/capture.sqlite"
        let logger = Logger(label: "test")
        let holder = try StoreDatabase(.sqlite(path: path), logger: logger)
        try await CaptureStore.migrate(holder)
        // More waiting writers than the SQLite thread pool has threads, each its own database
        // (as other processes are: they do not share the in-process write turn).
        let writers = try (0..<(SQLiteStoreSource.threadCount + 4)).map { _ in
            try StoreDatabase(.sqlite(path: path), logger: logger)
        }
        let reader = try StoreDatabase(.sqlite(path: path), logger: logger)
        let (readDone, readDoneSignal) = AsyncStream.makeStream(of: Int.self)
        let (lockHeld, lockHeldSignal) = AsyncStream.makeStream(of: Void.self)

        let held = Task {
            try await holder.transaction { db in
                try await db.raw("INSERT INTO outbox (kind, recipient, subject, body, created_at) VALUES ('t', 'holder', 'S', 'B', 1)").run()
                lockHeldSignal.yield()
                // The lock stays held until the read below has been answered.
                for await _ in readDone { break }
            }
        }
        for await _ in lockHeld { break }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, writer) in writers.enumerated() {
                group.addTask {
                    try await writer.execute(
                        "INSERT INTO outbox (kind, recipient, subject, body, created_at) VALUES ('t', ?, 'S', 'B', 1)", ["writer-\(index)"])
                }
            }
            // The read is answered while every writer waits for the lock.
            let before = try await reader.withConnection { db in
                try await db.raw("SELECT COUNT(*) AS n FROM outbox").first()?.int("n") ?? -1
            }
            readDoneSignal.yield(before)
            readDoneSignal.finish()
            #expect(before == 0)
            try await held.value
            try await group.waitForAll()
        }
        let after = try await reader.withConnection { db in
            try await db.raw("SELECT COUNT(*) AS n FROM outbox").first()?.int("n") ?? -1
        }
        #expect(after == writers.count + 1)
        for database in writers + [holder, reader] { await database.shutdown() }
    }
}
