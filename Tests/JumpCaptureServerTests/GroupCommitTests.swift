import Dispatch
import GRDB
@testable import JumpCaptureServer
import Synchronization
import Testing
import TestSupport

/// Group commit on a real SQLite file: jobs that wait for the writer share one transaction,
/// each caller is answered after the commit, and a failing job fails alone.
@Suite(.timeLimit(.minutes(5))) struct GroupCommitTests {
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

    /// A database with one table, its commits counted, and a group commit inserting keys
    /// into it (returning each row's id).
    struct Setup {
        let folder: TemporaryFolder
        let pool: DatabasePool
        let commits = Commits()
        let commit: GroupCommit<String, Int64>

        init() throws {
            folder = try TemporaryFolder()
            pool = try DatabasePool(path: folder.path + "/group.sqlite")
            try pool.write { db in try db.execute(sql: "CREATE TABLE t (k TEXT PRIMARY KEY)") }
            pool.add(transactionObserver: commits)
            commit = GroupCommit<String, Int64>(writer: pool) { db, key in
                try db.execute(sql: "INSERT INTO t (k) VALUES (?)", arguments: [key])
                return db.lastInsertedRowID
            }
        }

        var commitCount: Int { commits.count.load(ordering: .relaxed) }
        func rowCount() async throws -> Int? { try await pool.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM t") } }
    }

    /// Submits `keys` at once while the writer is held, then lets it go; the outcome of each.
    static func submitWhileHeld(_ keys: [String], _ pool: DatabasePool, _ commit: GroupCommit<String, Int64>) async throws -> [String: Result<
        Int64, any Error
    >] {
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
        let setup = try Setup()
        defer { setup.folder.remove() }
        let keys = (0..<100).map { "key\($0)" }
        let outcomes = try await Self.submitWhileHeld(keys, setup.pool, setup.commit)
        #expect(outcomes.values.allSatisfy { (try? $0.get()) != nil })
        #expect(Set(outcomes.values.compactMap { try? $0.get() }).count == 100)
        #expect(setup.commitCount == 1)
        #expect(try await setup.rowCount() == 100)
    }

    @Test func aFailingJobFailsAlone() async throws {
        let setup = try Setup()
        defer { setup.folder.remove() }
        try await setup.pool.write { db in try db.execute(sql: "INSERT INTO t (k) VALUES ('taken')") }
        let keys = (0..<20).map { "key\($0)" } + ["taken"]
        let outcomes = try await Self.submitWhileHeld(keys, setup.pool, setup.commit)
        for key in keys {
            let failed = if case .failure? = outcomes[key] { true } else { false }
            #expect(failed == (key == "taken"), "\(key)")
        }
        #expect(try await setup.rowCount() == 21)
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
