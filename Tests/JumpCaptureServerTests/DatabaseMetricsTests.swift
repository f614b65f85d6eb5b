import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Logging
import NIOCore
import Testing
import TestSupport

/// What `/metrics` says of the database: the waits for a connection of the store's pool
/// (`jump_database_pool_wait_seconds`, `jump_database_pool_waits_total`) and the statements
/// each route sends (`jump_database_queries_total{route}`), on the engine the tests run on.
@Suite struct DatabaseMetricsTests {
    static func samples(_ metrics: ServerMetrics) -> [String: Double] {
        ReadinessMetricsTests.samples(String(decoding: metrics.text(), as: UTF8.self))
    }

    /// A pool of one connection, two uses at once: the second waits until the first gives the
    /// connection back, and the wait is measured.
    @Test func aLeaseThatFindsEveryConnectionInUseWaits() async throws {
        let folder = try TemporaryFolder("jump-pool-wait")
        defer { folder.remove() }
        let metrics = ServerMetrics()
        let database = try StoreDatabase(
            try ServerFixtures.testDatabase() ?? .sqlite(path: folder.path + "/pool.sqlite"), connections: 1, metrics: metrics,
            logger: ServerFixtures.quietLogger)
        let (held, holding) = AsyncStream.makeStream(of: Void.self)
        let (released, release) = AsyncStream.makeStream(of: Void.self)
        async let first: Int = database.withConnection { db in
            holding.yield()
            for await _ in released {}
            return try await db.raw("SELECT 1 AS one").first()?.int("one") ?? 0
        }
        for await _ in held { break }
        #expect(Self.samples(metrics)["jump_database_pool_waits_total"] == 0)
        async let second: Int = database.withConnection { db in try await db.raw("SELECT 2 AS two").first()?.int("two") ?? 0 }
        // The second lease has asked for the connection (it counts as waiting when it asks).
        let deadline = ContinuousClock.now + .seconds(10)
        while Self.samples(metrics)["jump_database_pool_waits_total"] != 1, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        let asked = ContinuousClock.now
        // Hold on a little after the second asked, so that its wait is at least that long.
        try await Task.sleep(for: .milliseconds(20))
        let heldFor = ContinuousClock.now - asked
        release.finish()
        #expect(try await first == 1)
        #expect(try await second == 2)
        let samples = Self.samples(metrics)
        #expect(samples["jump_database_pool_waits_total"] == 1)
        #expect(samples["jump_database_pool_wait_seconds_count"] == 2)
        let waited = try #require(samples["jump_database_pool_wait_seconds_sum"])
        #expect(waited >= Double(heldFor.components.seconds) + Double(heldFor.components.attoseconds) / 1e18, "\(samples)")
        // One connection, given back: a third use finds it free.
        _ = try await database.withConnection { db in try await db.raw("SELECT 3 AS three").run() }
        #expect(Self.samples(metrics)["jump_database_pool_waits_total"] == 1)
        #expect(Self.samples(metrics)["jump_database_pool_wait_seconds_count"] == 3)
        await database.shutdown()
    }

    /// `server.databaseConnections` sizes the pool (a PostgreSQL server's `max_connections`
    /// bounds all instances' pools together); by default 4 connections per event loop. One
    /// connection still serves reads and refreshes.
    @Test func theDatabaseConnectionsSettingSizesThePool() async throws {
        try await withServer { server in
            #expect(server.server.service.store.database.capacity == StoreDatabase.defaultConnectionsPerLoop * System.coreCount)
        }
        try await withServer(configure: { $0.server.databaseConnections = 1 }) { server in
            #expect(server.server.service.store.database.capacity == 1)
            let (session, secret) = try await server.register()
            #expect(try await server.record(session.accessToken)["email"] == "ana.ruiz@example.com")
            let refreshed = try await SessionTests.refresh(server, session.accessToken, secret)
            guard case .success(.refreshed) = refreshed else { Issue.record("\(refreshed)"); return }
        }
    }

    /// The statements a route's request sends, counted by route: a regression that adds a
    /// round trip to a read or a refresh shows here. The numbers are the same on both engines
    /// (one query path).
    @Test func statementsAreCountedByRoute() async throws {
        try await withServer { server in
            let (session, secret) = try await server.register()
            func statements() async throws -> [String: Double] {
                ReadinessMetricsTests.samples(try await server.raw(.GET, "/metrics").body).filter { $0.key.hasPrefix("jump_database_queries_total") }
            }
            let before = try await statements()
            #expect(try await server.record(session.accessToken)["email"] == "ana.ruiz@example.com")
            let read = try await statements()
            let refreshed = try await SessionTests.refresh(server, session.accessToken, secret)
            guard case .success(.refreshed) = refreshed else { Issue.record("\(refreshed)"); return }
            let refresh = try await statements()
            #expect(try await server.raw(.GET, "/health").status == 200)
            let health = try await statements()
            let entity = #"jump_database_queries_total{route="/entity"}"#
            let rotate = #"jump_database_queries_total{route="/oauth/refresh_access_token"}"#
            let healthKey = #"jump_database_queries_total{route="/health"}"#
            #expect((read[entity] ?? 0) - (before[entity] ?? 0) == 1, "a record read: its session, user and identities in one statement \(read)")
            #expect(refresh[rotate] == 2, "a refresh: its token, then one UPDATE (no BEGIN, COMMIT) \(refresh)")
            #expect(health[healthKey] == 0, "\(health)")
            #expect(before[#"jump_database_queries_total{route="/oauth/register_native_traditional"}"#] ?? 0 > 0)
        }
    }
}
