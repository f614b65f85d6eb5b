import Foundation
import JumpCapture
import JumpCaptureNIO
import JumpCaptureServer
import JumpForms
import Synchronization
import Testing
import TestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// `jump-forms serve` for operators, as a built binary: settings from JUMP_* variables (an
/// option wins over its variable), JSON log lines without secrets, and SIGTERM draining the
/// requests in flight before exiting 0.
@Suite(.timeLimit(.minutes(5))) struct ServeOperationsTests {
    static func builder(_ url: String) -> RequestBuilder {
        RequestBuilder(
            config: ServerFixtures.project.config!, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer,
            locale: ServerFixtures.english, capture: ServerURL(url)!)
    }

    @Test func jsonLogLinesFromEnvironmentSettingsWithoutSecrets() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        let serve = try ServeProcess(
            [], project: project,
            environment: [
                "JUMP_PORT": "0", "JUMP_HOST": "127.0.0.1", "JUMP_DATABASE": project.databasePath, "JUMP_LOG_FORMAT": "json",
                "JUMP_LOG_LEVEL": "info"
            ])
        defer { serve.stop() }
        let url = try await serve.waitForURL()
        #expect(serve.stdout.contains("database: \(project.databasePath)\n"), "JUMP_DATABASE names the database")
        let transport = AsyncHTTPTransport(timeoutSeconds: 20, client: ServerFixtures.client)
        let secret = RefreshSecret.generate()
        let registered = try await transport.send(
            try Self.builder(url).register(ServerFixtures.registration(), refreshSecret: secret, today: ServerFixtures.today))
        #expect(registered.status == 200)
        let wrongPassword = "a-wrong-password-that-must-not-be-logged"
        _ = try await transport.send(
            try Self.builder(url).signIn(
                ["signInEmailAddress": "ana.ruiz@example.com", "currentPassword": wrongPassword], refreshSecret: .generate(),
                today: ServerFixtures.today))
        let token = "token-in-a-query-string-0123456789"
        _ = try await ServerFixtures.client.get(url + "/entity?access_token=\(token)")
        serve.signal(SIGTERM)
        await #expect(await serve.waitForExit()?.status == 0, "\(serve.stderr)")

        let lines = serve.stderr.split(separator: "\n")
        #expect(!lines.isEmpty)
        var requests: [[String: Any]] = []
        for line in lines {
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not one JSON object: \(line)")
            #expect(object["time"] is String && object["level"] is String && object["message"] is String, "\(line)")
            if object["message"] as? String == "request" { requests.append(object) }
        }
        #expect(lines.contains { $0.contains(#""message":"Server started and listening on 127.0.0.1:"#) }, "\(serve.stderr)")
        let routes = requests.compactMap { $0["route"] as? String }
        #expect(routes == ["/oauth/register_native_traditional", "/oauth/auth_native_traditional", "/entity"], "\(requests)")
        for request in requests {
            #expect((request["request_id"] as? String)?.isEmpty == false)
            #expect(request["status"] is Int && request["duration_ms"] is Double, "\(request)")
            #expect(request["method"] as? String != nil)
        }
        for text in [ServerFixtures.password, wrongPassword, secret.value, token] {
            #expect(!serve.stderr.contains(text), "a secret reached the log")
        }
    }

    /// Options win over their variables; a variable that is not a value is said.
    @Test func optionsWinOverEnvironmentAndBadValuesAreSaid() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        let serve = try ServeProcess(
            ["--port", "0", "--db", project.databasePath, "--log-format", "text"], project: project,
            environment: ["JUMP_PORT": "1", "JUMP_LOG_FORMAT": "json", "JUMP_LOG_LEVEL": "info"])
        defer { serve.stop() }
        let url = try await serve.waitForURL()
        #expect(ServerURL(url)?.port != 1)
        serve.signal(SIGTERM)
        await #expect(await serve.waitForExit()?.status == 0)
        #expect(serve.stderr.contains(" info jump-forms.serve: [HummingbirdCore] Server started"), "\(serve.stderr)")

        for (name, value, message) in [
            ("JUMP_PORT", "eighty", "JUMP_PORT must be 0...65535, got eighty"),
            ("JUMP_LOG_FORMAT", "xml", "JUMP_LOG_FORMAT must be text or json, got xml"),
            ("JUMP_DRAIN_DELAY", "soon", "JUMP_DRAIN_DELAY must be 0...3600 seconds, got soon"),
            ("JUMP_GRACE_PERIOD", "-1", "JUMP_GRACE_PERIOD must be 0...3600 seconds, got -1")
        ] {
            let result = try await Executable.run(
                "jump-forms", ["serve", "--db", project.databasePath], in: project.path,
                environment: project.environment.merging([name: value]) { $1 }, timeout: 30)
            #expect(result.status == 2, "\(result.stderr)")
            #expect(result.stderr.contains(message), "\(result.stderr)")
        }
        let badRange = try await Executable.run(
            "jump-forms", ["serve", "--port", "0", "--db", project.databasePath], in: project.path,
            environment: project.environment.merging(["JUMP_METRICS_ALLOW": "10.0.0.0/99"]) { $1 }, timeout: 30)
        #expect(badRange.status != 0)
        #expect(badRange.stderr.contains("'10.0.0.0/99'"), "\(badRange.stderr)")
    }

    /// A registration whose password hash is running when SIGTERM arrives (seen on
    /// `/metrics`) still gets its answer; then the process exits 0.
    @Test func sigtermDrainsTheRequestsInFlight() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        // Cost 13: a hash takes long enough (about half a second) to be seen running.
        let serve = try ServeProcess(
            ["--port", "0", "--db", project.databasePath], project: project, environment: ["JUMP_BCRYPT_COST": "13"])
        defer { serve.stop() }
        let url = try await serve.waitForURL()
        // A registration is sent, and /metrics polled until its hash is seen running; one that
        // ends first (a busy machine delayed the polls) is followed by another, at most 10.
        var registration: Task<HTTPAnswer, any Error>?
        var scraped = ""
        attempts: for attempt in 0..<10 {
            let request = try Self.builder(url).register(
                ServerFixtures.registration(email: "drain\(attempt)@example.com", displayName: "drain\(attempt)"), refreshSecret: .generate(),
                today: ServerFixtures.today)
            let sent = Task { try await AsyncHTTPTransport(timeoutSeconds: 20, client: ServerFixtures.client).send(request) }
            let done = Flag()
            let watcher = Task {
                _ = try? await sent.value
                done.set()
            }
            defer { watcher.cancel() }
            while !done.isSet {
                scraped = try await ServerFixtures.client.get(url + "/metrics").body
                if (ReadinessMetricsTests.samples(scraped)["jump_password_hash_running"] ?? 0) >= 1 {
                    registration = sent
                    break attempts
                }
                try await Task.sleep(for: .milliseconds(5))
            }
        }
        let inFlight = try #require(registration, "no registration's hash was seen running: \(scraped)")
        serve.signal(SIGTERM)
        let answer = try await inFlight.value
        #expect(answer.status == 200, "\(answer)")
        let decoded = ResponseDecoder(flow: ServerFixtures.flow, config: ServerFixtures.config).decode(
            .register, status: answer.status, body: answer.body)
        #expect(decoded.signedIn?.isNew == true, "\(decoded)")
        let exit = try #require(await serve.waitForExit(timeout: 15), "serve did not stop on SIGTERM")
        #expect(exit.status == 0 && !exit.signaled, "\(exit) \(serve.stderr)")
    }
}

/// A flag one task sets and another reads.
final class Flag: Sendable {
    private let state = Mutex(false)
    func set() { state.withLock { $0 = true } }
    var isSet: Bool { state.withLock { $0 } }
}
