import Dispatch
import GRDB
import Synchronization

/// Group commit for one kind of short write: jobs submitted while the writer is busy wait
/// together, then run in one transaction, so that one commit (one fsync of the WAL) serves
/// them all. Each caller is answered only after the transaction that holds its job has
/// committed.
///
/// Under concurrent load a batch also gathers for a moment before it goes to the writer
/// (`gatherDelay`, like PostgreSQL's `commit_delay` and MySQL's
/// `binlog_group_commit_sync_delay`): when the last batch held `gatherThreshold` (4) jobs or
/// more, the next one waits up to `gatherDelay` (or until `gatherTarget` jobs wait) before it
/// is written. A client alone, or a few at once, never wait: their batches are smaller.
/// Measured with 64 connections of chained refreshes (the delay first tried as a sleep in the
/// writer): batches of 3.5 jobs without it and 28 with 1 ms, and the server's CPU per refresh
/// 121.5 -> 89.9 µs (docs/PERFORMANCE.md, "Local server").
///
/// One batch is one write on the writer's queue, its gathering included (the writer's thread
/// sleeps, it spends no CPU): other writes queued meanwhile (sign-ins, registrations) take their
/// turn between two batches, after at most one gathering delay. A batch that fails is run
/// again job by job, each in its own transaction, so that one failing job fails alone.
final class GroupCommit<Job: Sendable, Outcome: Sendable>: Sendable {
    private struct Waiting: Sendable {
        var job: Job
        var continuation: CheckedContinuation<Outcome, any Error>
    }

    private struct State: Sendable {
        var waiting: [Waiting] = []
        /// A batch is queued on the writer or running.
        var scheduled = false
        /// The writer waits for the batch to gather (on `gathered`).
        var gathering = false
        /// `gathered` was signalled for the batch that gathers.
        var signalled = false
        /// How many jobs the last batch held.
        var lastBatch = 0
    }

    private let state = Mutex(State())
    /// Signalled when a gathering batch is full.
    private let gathered = DispatchSemaphore(value: 0)
    private let writer: any DatabaseWriter
    /// `gatherDelay` as Dispatch counts it; nil when batches never gather.
    private let gatherDelay: DispatchTimeInterval?
    private let run: @Sendable (Database, Job) throws -> Outcome

    /// At most this many jobs in one transaction.
    static var batchLimit: Int { 256 }

    /// A gathering batch goes to the writer as soon as this many jobs wait.
    static var gatherTarget: Int { 64 }

    /// A batch gathers only after one of at least this many jobs: a few clients at once do
    /// not wait for company (PostgreSQL's `commit_siblings` is 5).
    static var gatherThreshold: Int { 4 }

    /// `run` does one job's part of a transaction. `gatherDelay`: how long a batch may gather
    /// under concurrent load (zero: never).
    init(writer: any DatabaseWriter, gatherDelay: Duration = .zero, run: @escaping @Sendable (Database, Job) throws -> Outcome) {
        self.writer = writer
        let (seconds, attoseconds) = gatherDelay.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        self.gatherDelay = nanoseconds > 0 ? .nanoseconds(nanoseconds) : nil
        self.run = run
    }

    /// How many jobs wait for a transaction (tests).
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Runs `job` in the next transaction and returns its outcome once that transaction committed.
    func submit(_ job: Job) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            let schedule = state.withLock { state -> Bool in
                state.waiting.append(Waiting(job: job, continuation: continuation))
                if state.gathering, !state.signalled, state.waiting.count >= Self.gatherTarget {
                    state.signalled = true
                    gathered.signal()
                }
                if state.scheduled { return false }
                state.scheduled = true
                return true
            }
            if schedule { writeBatch() }
        }
    }

    private func writeBatch() {
        writer.asyncWriteWithoutTransaction { db in
            self.gather()
            // The jobs that arrived until the writer got here, all of them (up to the limit).
            let batch = self.state.withLock { state -> [Waiting] in
                let count = min(state.waiting.count, Self.batchLimit)
                defer { state.waiting.removeFirst(count) }
                return Array(state.waiting.prefix(count))
            }
            self.commit(batch, db)
            let more = self.state.withLock { state -> Bool in
                state.lastBatch = batch.count
                if state.waiting.isEmpty { state.scheduled = false }
                return state.scheduled
            }
            if more { self.writeBatch() }
        }
    }

    /// On the writer, before a batch is taken: when the last batch held `gatherThreshold`
    /// jobs or more, waits up to `gatherDelay` for more (or until `gatherTarget` jobs wait).
    private func gather() {
        guard let gatherDelay else { return }
        let wait = state.withLock { state -> Bool in
            guard state.lastBatch >= Self.gatherThreshold, state.waiting.count < Self.gatherTarget else { return false }
            state.gathering = true
            state.signalled = false
            return true
        }
        guard wait else { return }
        let timedOut = gathered.wait(timeout: .now() + gatherDelay) == .timedOut
        let signalled = state.withLock { state -> Bool in
            state.gathering = false
            return state.signalled
        }
        // Signalled as the wait timed out: take the signal, so that the next gathering waits.
        if timedOut, signalled { gathered.wait() }
    }

    private func commit(_ batch: [Waiting], _ db: Database) {
        var outcomes: [Outcome] = []
        outcomes.reserveCapacity(batch.count)
        do {
            try db.inTransaction {
                for waiting in batch { outcomes.append(try run(db, waiting.job)) }
                return .commit
            }
        } catch {
            if batch.count == 1 {
                batch[0].continuation.resume(throwing: error)
                return
            }
            // Job by job: only the failing ones fail.
            for waiting in batch { commit([waiting], db) }
            return
        }
        for (waiting, outcome) in zip(batch, outcomes) { waiting.continuation.resume(returning: outcome) }
    }
}
