import Dispatch
import GRDB
@testable import JumpCaptureServer
import Synchronization
import Testing
import TestSupport

/// Group commit on a real SQLite file: jobs that wait for the writer share one transaction,
/// each caller is answered after the commit, and a failing job fails alone.
@Suite(.timeLimit(.minutes(1))) struct GroupCommitTests {
    final class Commits: TransactionObserver, @unchecked Sendable {
        let count = Atomic<Int>(0)
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) {}
        func databaseDidCommit(_ db: Database) { count.add(1, ordering: .relaxed) }
        func databaseDidRollback(_ db: Database) {}
    }

    /// Holds the writer until `release()`, so that jobs pile up.
    final class WriterGate: Sendable {
        private let entered = DispatchSemaphore(value: 0)
        private let gate = DispatchSemaphore(value: 0)

        init(_ pool: DatabasePool) {
            pool.asyncWriteWithoutTransaction { [entered, gate] _ in
                entered.signal()
                gate.wait()
            }
            entered.wait()
        }

        func release() { gate.signal() }
    }

    static func pool(_ folder: TemporaryFolder) throws -> DatabasePool {
        let pool = try DatabasePool(path: folder.path + "/group.sqlite")
        try pool.write { db in try db.execute(sql: "CREATE TABLE t (k TEXT PRIMARY KEY)") }
        return pool
    }

    /// Submits `keys` at once while the writer is held, then lets it go; the outcome of each.
    static func submitWhileHeld(_ keys: [String], _ pool: DatabasePool, _ commit: GroupCommit<String, Int64>) async throws -> [String: Result<Int64, any Error>] {
        let gate = WriterGate(pool)
        return try await withThrowingTaskGroup(of: (String, Result<Int64, any Error>).self) { group in
            for key in keys {
                group.addTask {
                    do { return (key, .success(try await commit.submit(key))) } catch { return (key, .failure(error)) }
                }
            }
            while commit.waitingCount < keys.count { try await Task.sleep(for: .milliseconds(5)) }
            gate.release()
            var outcomes: [String: Result<Int64, any Error>] = [:]
            for try await (key, outcome) in group {
                // Answered after the commit: a reader sees the row.
                if case .success = outcome {
                    #expect(try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t WHERE k = ?", arguments: [key]) } == 1)
                }
                outcomes[key] = outcome
            }
            return outcomes
        }
    }

    @Test func jobsThatWaitedShareOneCommit() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pool = try Self.pool(folder)
        let commits = Commits()
        pool.add(transactionObserver: commits)
        let commit = GroupCommit<String, Int64>(writer: pool) { db, key in
            try db.execute(sql: "INSERT INTO t (k) VALUES (?)", arguments: [key])
            return db.lastInsertedRowID
        }
        let keys = (0..<100).map { "key\($0)" }
        let outcomes = try await Self.submitWhileHeld(keys, pool, commit)
        #expect(outcomes.values.allSatisfy { (try? $0.get()) != nil })
        #expect(Set(outcomes.values.compactMap { try? $0.get() }).count == 100)
        #expect(commits.count.load(ordering: .relaxed) == 1)
        #expect(try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 100)
    }

    @Test func aFailingJobFailsAlone() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pool = try Self.pool(folder)
        try await pool.write { db in try db.execute(sql: "INSERT INTO t (k) VALUES ('taken')") }
        let commit = GroupCommit<String, Int64>(writer: pool) { db, key in
            try db.execute(sql: "INSERT INTO t (k) VALUES (?)", arguments: [key])
            return db.lastInsertedRowID
        }
        let keys = (0..<20).map { "key\($0)" } + ["taken"]
        let outcomes = try await Self.submitWhileHeld(keys, pool, commit)
        for key in keys {
            let failed = if case .failure? = outcomes[key] { true } else { false }
            #expect(failed == (key == "taken"), "\(key)")
        }
        #expect(try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 21)
    }

    static func inserting(_ pool: DatabasePool, gatherDelay: Duration) -> GroupCommit<String, Int64> {
        GroupCommit<String, Int64>(writer: pool, gatherDelay: gatherDelay) { db, key in
            try db.execute(sql: "INSERT INTO t (k) VALUES (?)", arguments: [key])
            return db.lastInsertedRowID
        }
    }

    /// Submits `keys` at once (the writer free) and waits for every answer.
    static func submitTogether(_ keys: [String], _ commit: GroupCommit<String, Int64>) async throws {
        try await withThrowingTaskGroup(of: Int64.self) { group in
            for key in keys { group.addTask { try await commit.submit(key) } }
            for try await _ in group {}
        }
    }

    /// A client alone never waits for company: one job after a batch of one goes at once,
    /// however long the gathering delay (here longer than the suite's time limit).
    @Test func aLoneJobDoesNotGather() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pool = try Self.pool(folder)
        let commits = Commits()
        pool.add(transactionObserver: commits)
        let commit = Self.inserting(pool, gatherDelay: .seconds(600))
        for index in 0..<5 { _ = try await commit.submit("alone\(index)") }
        #expect(commits.count.load(ordering: .relaxed) == 5)
    }

    /// Once a batch held more than one job, the jobs submitted together next gather into one
    /// commit, though the writer is free when each arrives.
    @Test func concurrentJobsGatherIntoOneCommit() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pool = try Self.pool(folder)
        let commits = Commits()
        pool.add(transactionObserver: commits)
        let commit = Self.inserting(pool, gatherDelay: .milliseconds(500))
        _ = try await Self.submitWhileHeld(["first", "second"], pool, commit)
        #expect(commits.count.load(ordering: .relaxed) == 1)
        try await Self.submitTogether((0..<20).map { "together\($0)" }, commit)
        #expect(commits.count.load(ordering: .relaxed) == 2)
        #expect(try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == 22)
    }

    /// A gathering batch goes as soon as `gatherTarget` jobs wait, not at the end of its delay
    /// (here longer than the suite's time limit).
    @Test func aFullGatheringGoesAtOnce() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let pool = try Self.pool(folder)
        let commits = Commits()
        pool.add(transactionObserver: commits)
        let commit = Self.inserting(pool, gatherDelay: .seconds(600))
        _ = try await Self.submitWhileHeld(["first", "second"], pool, commit)
        let target = GroupCommit<String, Int64>.gatherTarget
        try await Self.submitTogether((0..<target).map { "full\($0)" }, commit)
        #expect(commits.count.load(ordering: .relaxed) == 2)
        #expect(try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } == target + 2)
    }

    /// Refreshes of many sessions at once (through the server): each rotates its own token.
    @Test func concurrentRefreshesOfManySessionsAllRotate() async throws {
        try await withServer { server in
            let (session, secret) = try await server.register()
            var tokens = [session.accessToken]
            for _ in 0..<31 {
                guard case .success(.signedIn(let signedIn)) = try await server.signIn("ana.ruiz@example.com", secret: secret) else {
                    Issue.record("sign-in failed")
                    return
                }
                tokens.append(signedIn.accessToken)
            }
            let fresh = await withTaskGroup(of: String?.self) { group in
                for token in tokens {
                    let request = server.builder().refreshAccessToken(accessToken: token, refreshSecret: secret, epochSeconds: server.clock.now)
                    group.addTask {
                        guard case .success(.refreshed(let token, _))? = try? await server.send(request) else { return nil }
                        return token
                    }
                }
                var all: [String] = []
                for await token in group { if let token { all.append(token) } }
                return all
            }
            #expect(fresh.count == tokens.count)
            for token in fresh { #expect(try await server.readRecord(token).isSuccess) }
            for token in tokens { #expect(try await server.readRecord(token).code == 200) }
        }
    }
}
