import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// `GET /ready` (the database reachable, its migrations current), `GET /metrics` (Prometheus
/// text: requests by route and status, latency, sign-in failures and throttling, the
/// password-hash queue) and its address ranges (`server.metricsAllow`).
@Suite struct ReadinessMetricsTests {
    /// The samples of a Prometheus text exposition: `name{labels}` -> value.
    static func samples(_ text: String) -> [String: Double] {
        var result: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
            result[String(line[..<space])] = value
        }
        return result
    }

    // Deletes the SQLite file: on PostgreSQL there is none to delete.
    @Test(.enabled(if: !PostgresCluster.testsUsePostgres)) func readyUntilTheDatabaseFileIsGone() async throws {
        try await withServer { server in
            let ready = try await server.raw(.GET, "/ready")
            #expect(ready.status == 200 && ready.body == #"{"stat":"ok"}"#, "\(ready)")
            #expect(try await server.raw(.HEAD, "/ready").status == 200)
            #expect(try await server.raw(.POST, "/ready", form: "").status == 405)
            // The live process still answers /health, but the database behind it is gone.
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: server.databasePath + suffix) }
            let gone = try await server.raw(.GET, "/ready")
            #expect(gone.status == 503, "\(gone)")
            #expect(gone.body.contains(#""error":"not_ready""#) && gone.body.contains("cannot be reached"), "\(gone.body)")
            #expect(gone.headers.first(name: "Retry-After") == "5")
            #expect(try await server.raw(.GET, "/health").status == 200)
            let metrics = Self.samples(try await server.raw(.GET, "/metrics").body)
            #expect(metrics["jump_database_ready"] == 0)
        }
    }

    @Test func notReadyWhenAMigrationIsMissing() async throws {
        try await withServer { server in
            #expect(try await server.raw(.GET, "/ready").status == 200)
            // Another process rolled the schema back (or a newer server's database was restored):
            // the file opens, its migrations are not this server's.
            let store = server.server.service.store
            let last = try #require(try await store.texts("SELECT MAX(identifier) FROM schema_migrations").first ?? nil)
            try await store.execute("DELETE FROM schema_migrations WHERE identifier = ?", [last])
            let stale = try await server.raw(.GET, "/ready")
            #expect(stale.status == 503 && stale.body.contains("migrations are not current"), "\(stale)")
            try await store.execute("INSERT INTO schema_migrations (identifier) VALUES (?)", [last])
            #expect(try await server.raw(.GET, "/ready").status == 200)
            // A migration this server does not know of: a newer server's database.
            try await store.execute("INSERT INTO schema_migrations (identifier) VALUES ('999-from-the-future')")
            #expect(try await server.raw(.GET, "/ready").status == 503)
        }
    }

    @Test func metricsCountRequestsByRouteAndStatus() async throws {
        try await withServer { server in
            for _ in 0..<3 { #expect(try await server.raw(.GET, "/health").status == 200) }
            #expect(try await server.raw(.GET, "/no/such/path?access_token=abc").status == 404)
            #expect(try await server.raw(.POST, "/health", form: "").status == 405)
            try await server.register()
            for _ in 0..<2 { _ = try await server.signIn("ana.ruiz@example.com", "wrong password") }
            _ = try await server.raw(.GET, "/ready")
            let scrape = try await server.raw(.GET, "/metrics")
            #expect(scrape.status == 200)
            #expect(scrape.headers.first(name: "Content-Type")?.hasPrefix("text/plain; version=0.0.4") == true)
            let metrics = Self.samples(scrape.body)
            #expect(metrics[#"jump_http_requests_total{route="/health",status="200"}"#] == 3, "\(scrape.body)")
            #expect(metrics[#"jump_http_requests_total{route="/health",status="405"}"#] == 1)
            #expect(metrics[#"jump_http_requests_total{route="unknown",status="404"}"#] == 1)
            #expect(metrics[#"jump_http_requests_total{route="/oauth/register_native_traditional",status="200"}"#] == 1)
            let signIns = metrics.filter { $0.key.hasPrefix(#"jump_http_requests_total{route="/oauth/auth_native_traditional","#) }.values.reduce(
                0, +)
            #expect(signIns == 2)
            #expect(metrics[#"jump_http_requests_total{route="/ready",status="200"}"#] == 1)
            #expect(metrics[#"jump_http_request_duration_seconds_count{route="/health"}"#] == 4)
            #expect(metrics[#"jump_http_request_duration_seconds_bucket{route="/health",le="+Inf"}"#] == 4)
            #expect(metrics["jump_signin_failures_total"] == 2)
            #expect(metrics["jump_signin_throttled_total"] == 0)
            #expect(metrics["jump_password_hash_queue_depth"] == 0)
            #expect(metrics["jump_password_hash_running"] == 0)
            #expect(metrics["jump_database_ready"] == 1)
            // Labels name routes, never raw paths: nothing of the path or query shows.
            #expect(!scrape.body.contains("no/such") && !scrape.body.contains("access_token"))
        }
    }

    /// The route label is the template of the route that matched on the router: a path with
    /// a variable part counts under its template, a method the route does not take under the
    /// route, and a route that exists only in preview mode is no route under `serve`.
    @Test func metricsLabelRequestsByRouteTemplate() async throws {
        try await withServer { server in
            #expect(try await server.raw(.GET, "/forms/signInForm?locale=en-US").status == 200)
            _ = try await server.raw(.GET, "/forms/no-such-form")
            #expect(try await server.raw(.PUT, "/entity").status == 405)
            #expect(try await server.raw(.GET, "/preview").status == 404)
            #expect(try await server.raw(.GET, "/preview/generation").status == 404)
            let scrape = try await server.raw(.GET, "/metrics").body
            let metrics = Self.samples(scrape)
            #expect(metrics[#"jump_http_requests_total{route="/forms/{name}",status="200"}"#] == 1, "\(scrape)")
            let forms = metrics.filter { $0.key.hasPrefix(#"jump_http_requests_total{route="/forms/{name}","#) }.values.reduce(0, +)
            #expect(forms == 2)
            #expect(metrics[#"jump_http_requests_total{route="/entity",status="405"}"#] == 1)
            #expect(metrics[#"jump_http_requests_total{route="unknown",status="404"}"#] == 2)
            #expect(metrics["jump_http_requests_in_flight"] == 1, "the scrape itself")
            #expect(!scrape.contains("signInForm") && !scrape.contains("no-such-form") && !scrape.contains("preview"))
        }
    }

    @Test func throttledSignInsAreCounted() async throws {
        try await withServer(configure: {
            $0.server.signInFailureLimit = 1; $0.server.signInWait = 60
        }) { server in
            try await server.register()
            for _ in 0..<3 { _ = try await server.signIn("ana.ruiz@example.com", "wrong password") }
            let metrics = Self.samples(try await server.raw(.GET, "/metrics").body)
            #expect(metrics["jump_signin_failures_total"] == 1)
            #expect(metrics["jump_signin_throttled_total"] == 2)
            #expect(metrics[#"jump_http_requests_total{route="/oauth/auth_native_traditional",status="429"}"#] == 2)
        }
    }

    /// Each server counts in its own registry: two in one process do not add up.
    @Test func serversCountApart() async throws {
        try await withServer { first in
            try await withServer { second in
                _ = try await first.raw(.GET, "/health")
                let metrics = Self.samples(try await second.raw(.GET, "/metrics").body)
                #expect(metrics[#"jump_http_requests_total{route="/health",status="200"}"#] == nil)
            }
        }
    }

    /// `metricsAllow`: the client's address must be in one of the ranges (the test client
    /// connects from 127.0.0.1).
    @Test func metricsOnlyToTheListedRanges() async throws {
        func status(_ ranges: [String]) async throws -> (Int, String) {
            try await withServer(.socket, configure: { $0.server.metricsAllow = ranges.compactMap(AddressRange.init) }) { server in
                let answer = try await server.raw(.GET, "/metrics")
                return (answer.status, answer.body)
            }
        }
        let refused = try await status(["10.0.0.0/8", "::1"])
        #expect(refused.0 == 403 && refused.1.contains("not served to this address"), "\(refused)")
        #expect(try await status(["10.0.0.0/8", "127.0.0.0/8"]).0 == 200)
        #expect(try await status([]).0 == 200)
    }
}
