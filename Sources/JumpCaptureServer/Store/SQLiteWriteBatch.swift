import SQLKit
import SQLiteKit
import Synchronization

/// SQLite's writes of one store, committed together (group commit).
///
/// SQLite has one writer at a time, and with `synchronous=FULL` each commit waits for a sync of
/// the WAL. One write after the other, each with its own lease of a connection, its own hops
/// between threads (the pool's event loop, SQLite's thread pool, back) and its own sync, let
/// about a thousand writes a second through on the project's machine, and a write spent the rest
/// of its time in the queue (issue 35: 680 refreshes a second, p99 154 ms at 64 connections;
/// docs/PERFORMANCE.md). Here the writes that arrive while a batch runs wait in a queue; when it
/// ends, one task takes all that wait (at most `maximumCount`, in the order they came) and runs
/// them on one connection in one transaction (`BEGIN IMMEDIATE` ... `COMMIT`): one lease, one
/// wait for the write lock, one WAL sync for all of them. Measured side by side with one write
/// at a time: 4,348 against 1,230 refreshes a second, p99 22 against 110 ms (docs/PERFORMANCE.md,
/// "SQLite's batched commits").
///
/// In a batch of several, each transaction runs inside a savepoint of its own: one that throws (a
/// unique violation, a `StoreConflict`) is rolled back to its savepoint and gets its own error,
/// and the others go on. A statement (`writeStatement`: a refresh's token rotation, a sign-in's
/// new token) needs none: SQLite undoes a statement it refuses for a constraint and keeps the
/// transaction; without the savepoint a batched refresh is one hop to SQLite's threads instead of
/// two (measured: ~4,000 against ~3,000 refreshes/s, p99 23-26 against 35-102 ms;
/// docs/PERFORMANCE.md). No write is answered before the batch's `COMMIT` has returned; when the
/// `COMMIT` (or the batch's `BEGIN`) fails, the batch is rolled back and every write of it fails.
/// A write alone runs as it would without the batch: one statement (`writeStatement`) without
/// `BEGIN` and `COMMIT`, a transaction without a savepoint.
///
/// A write inside a write (a transaction's body calling `transaction` or `writeStatement` of the
/// same store) runs at once, in the batch it is part of, on its connection (a transaction in a
/// savepoint of its own), rather than queueing behind that batch, which would wait for ever.
///
/// The statements counted for a request (`StatementTally`, `jump_database_queries_total`): its
/// write's own statements and its savepoint if it has one (and the rollback to it); the batch's
/// `BEGIN` and `COMMIT` (or `ROLLBACK`) count for the request of the batch's first write. So a
/// route's total is what the process sent, and a write alone counts as it would without the
/// batch.
final class SQLiteWriteBatch: Sendable {
    /// The most writes a batch runs: the rest wait for the next (a batch's memory and time stay
    /// bounded).
    static let maximumCount = 64

    private struct State {
        var queued: [any QueuedWrite] = []
        /// Whether a task runs batches (it runs them until the queue is empty).
        var writing = false
    }

    private let state = Mutex(State())

    /// The writes waiting for the batch that runs to end.
    var queuedCount: Int { state.withLock { $0.queued.count } }

    /// The batch running in this task (set while one of its writes runs): a write inside it
    /// runs at once on its connection.
    private struct Running: Sendable {
        let batch: SQLiteWriteBatch
        let connection: any SQLDatabase
    }

    @TaskLocal private static var running: Running?

    /// Runs `body` as a transaction of the next batch, on `database`'s connections; its result
    /// once the batch has committed, or its error (rolled back to its savepoint), or the batch's.
    func transaction<R: Sendable>(
        on database: StoreDatabase, _ body: @escaping @Sendable (any SQLDatabase) async throws -> R
    ) async throws -> R {
        if let running = Self.running, running.batch === self {
            return try await Self.savepoint(on: running.connection, body)
        }
        return try await queue(on: database, oneStatement: false, body)
    }

    /// Runs one statement that writes in the next batch (alone: without `BEGIN` and `COMMIT`);
    /// the rows of its `RETURNING` once the batch has committed.
    func writeStatement(on database: StoreDatabase, _ query: SQLQueryString) async throws -> [any SQLRow] {
        if let running = Self.running, running.batch === self {
            return try await running.connection.raw(query).all()
        }
        return try await queue(on: database, oneStatement: true) { db in try await db.raw(query).all() }
    }

    /// A transaction inside a write of the running batch: a savepoint, released when `body`
    /// returns, rolled back to when it throws (its error is rethrown).
    private static func savepoint<R: Sendable>(
        on db: any SQLDatabase, _ body: @escaping @Sendable (any SQLDatabase) async throws -> R
    ) async throws -> R {
        try await db.raw("SAVEPOINT inner_write").run()
        let result: R
        do {
            result = try await body(db)
        } catch {
            try? await db.raw("ROLLBACK TO inner_write").run()
            try? await db.raw("RELEASE inner_write").run()
            throw error
        }
        try await db.raw("RELEASE inner_write").run()
        return result
    }

    private func queue<R: Sendable>(
        on database: StoreDatabase, oneStatement: Bool, _ body: @escaping @Sendable (any SQLDatabase) async throws -> R
    ) async throws -> R {
        // Read here, in the request's task: the batch runs in a task of its own.
        let tally = StatementTally.current
        return try await withCheckedThrowingContinuation { continuation in
            let write = PendingWrite(body: body, isOneStatement: oneStatement, tally: tally, continuation: continuation)
            let starts = state.withLock { state -> Bool in
                state.queued.append(write)
                if state.writing { return false }
                state.writing = true
                return true
            }
            // Detached: the batch's writes are other requests', not this one's (its task-locals).
            if starts { Task.detached { await self.writeQueued(on: database) } }
        }
    }

    /// Runs batches while writes wait.
    private func writeQueued(on database: StoreDatabase) async {
        while true {
            let writes = state.withLock { state -> [any QueuedWrite] in
                let writes = Array(state.queued.prefix(Self.maximumCount))
                state.queued.removeFirst(writes.count)
                if writes.isEmpty { state.writing = false }
                return writes
            }
            if writes.isEmpty { return }
            do {
                try await database.withConnection { connection in try await self.run(writes, on: connection) }
                for write in writes { write.answer(batchFailure: nil) }
            } catch {
                for write in writes { write.answer(batchFailure: error) }
            }
        }
    }

    /// Runs one batch on `connection`: committed when this returns, rolled back when it throws.
    private func run(_ writes: [any QueuedWrite], on connection: any SQLDatabase) async throws {
        let first = CountedDatabase(connection, tally: writes[0].tally)
        if writes.count == 1, writes[0].isOneStatement {
            // A statement alone is atomic: no BEGIN and COMMIT (two round trips fewer).
            return try await StoreDatabase.waitingForTheWriteLock { try await run(writes[0], on: first) }
        }
        try await StoreDatabase.waitingForTheWriteLock { try await first.raw("\(unsafeRaw: StoreEngine.sqlite.begin)").run() }
        do {
            if writes.count == 1 {
                try await run(writes[0], on: first)
            } else {
                for (index, write) in writes.enumerated() {
                    let db = CountedDatabase(connection, tally: write.tally)
                    if write.isOneStatement {
                        // No savepoint: a statement refused for a constraint undoes only itself,
                        // and the transaction goes on. Any other failure fails the batch (SQLite
                        // may have rolled the whole transaction back: a full disk, an I/O error).
                        do {
                            try await run(write, on: db)
                        } catch let error as SQLiteError where Self.undoesOnlyItsStatement(error) {
                            write.failed(error)
                        }
                        continue
                    }
                    // Not released: the savepoints nest, and the COMMIT commits them all.
                    let savepoint = "write\(index)"
                    try await db.raw("SAVEPOINT \(unsafeRaw: savepoint)").run()
                    do {
                        try await run(write, on: db)
                    } catch {
                        write.failed(error)
                        // Fails when SQLite rolled the whole transaction back (a full disk, an
                        // I/O error): then the batch fails.
                        try await db.raw("ROLLBACK TO \(unsafeRaw: savepoint)").run()
                    }
                }
            }
            try await first.raw("COMMIT").run()
        } catch {
            try? await first.raw("ROLLBACK").run()
            throw error
        }
    }

    /// Whether SQLite undid only the failed statement (a constraint it refused, with the
    /// default `ABORT`) and kept the transaction.
    static func undoesOnlyItsStatement(_ error: SQLiteError) -> Bool {
        switch error.reason {
        case .constraint, .constraintCheckFailed, .constraintForeignKeyFailed, .constraintNotNullFailed, .constraintPrimaryKeyFailed,
            .constraintUniqueFailed, .constraintUniqueRowIDFailed, .constraintStrictDataTypeFailed:
            true
        default: false
        }
    }

    private func run(_ write: any QueuedWrite, on db: any SQLDatabase) async throws {
        try await Self.$running.withValue(Running(batch: self, connection: db)) { try await write.run(on: db) }
    }
}

/// A write waiting in a batch, its result kept until the batch has committed.
private protocol QueuedWrite: AnyObject, Sendable {
    /// One statement (`writeStatement`), which needs no transaction when it runs alone.
    var isOneStatement: Bool { get }
    /// The statements of the request that asked for the write.
    var tally: StatementTally? { get }
    /// Runs the write's body, keeping its result; throws its error.
    func run(on db: any SQLDatabase) async throws
    /// The write failed on its own (and was rolled back to its savepoint).
    func failed(_ error: any Error)
    /// Answers the caller, once the batch has ended: its result, its own error, or the
    /// batch's failure.
    func answer(batchFailure: (any Error)?)
}

private final class PendingWrite<R: Sendable>: QueuedWrite {
    let body: @Sendable (any SQLDatabase) async throws -> R
    let isOneStatement: Bool
    let tally: StatementTally?
    private let continuation: CheckedContinuation<R, any Error>
    private let outcome = Mutex<Result<R, any Error>?>(nil)

    init(
        body: @escaping @Sendable (any SQLDatabase) async throws -> R, isOneStatement: Bool, tally: StatementTally?,
        continuation: CheckedContinuation<R, any Error>
    ) {
        self.body = body
        self.isOneStatement = isOneStatement
        self.tally = tally
        self.continuation = continuation
    }

    func run(on db: any SQLDatabase) async throws {
        let result = try await body(db)
        outcome.withLock { $0 = .success(result) }
    }

    func failed(_ error: any Error) {
        outcome.withLock { $0 = .failure(error) }
    }

    func answer(batchFailure: (any Error)?) {
        switch (outcome.withLock { $0 }, batchFailure) {
        case (.failure(let own)?, _): continuation.resume(throwing: own)
        case (_, let failure?): continuation.resume(throwing: failure)
        case (.success(let result)?, nil): continuation.resume(returning: result)
        case (nil, nil): continuation.resume(throwing: StoreUnavailable(reason: "a write of a committed batch did not run"))
        }
    }
}
