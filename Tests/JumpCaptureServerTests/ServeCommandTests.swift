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

/// `jump-forms serve` and `jump-forms outbox`, run as built binaries.
@Suite(.timeLimit(.minutes(5))) struct ServeCommandTests {
    @Test func printsTheBoundURLOnLoopbackAndStopsOnSIGINT() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        let serve = try ServeProcess(["--port", "0", "--db", project.databasePath], project: project)
        defer { serve.stop() }
        let url = try await serve.waitForURL()
        let server = try #require(ServerURL(url))
        #expect(server.host == "127.0.0.1")
        #expect((server.port ?? 0) > 0)
        #expect(serve.stdout.contains("jump-forms serving flow standard at \(url)\n"))
        #expect(serve.stdout.contains("database: \(project.databasePath)"))
        let health = try await ServerFixtures.client.get(url + "/health")
        #expect(health.status == 200)
        #expect(health.body == #"{"stat":"ok"}"#)
        // Not reachable on the machine's other addresses.
        if let other = Self.nonLoopbackIPv4() {
            #expect(!Self.canConnect(host: other, port: server.port ?? 0), "serve listens on \(other) too")
        }
        serve.signal(SIGINT)
        let exit = try #require(await serve.waitForExit(), "serve did not stop on SIGINT")
        #expect(exit.status == 0 && !exit.signaled, "\(exit) \(serve.stderr)")
    }

    @Test func stopsCleanlyOnSIGTERMWithRequestsDone() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        let serve = try ServeProcess(["--port", "0", "--db", project.databasePath], project: project)
        defer { serve.stop() }
        let url = try await serve.waitForURL()
        let builder = RequestBuilder(
            config: ServerFixtures.project.config!, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer,
            locale: ServerFixtures.english, capture: ServerURL(url)!)
        let request = try builder.register(ServerFixtures.registration(), refreshSecret: .generate(), today: ServerFixtures.today)
        let answer = try await AsyncHTTPTransport(timeoutSeconds: 20, client: ServerFixtures.client).send(request)
        let decoded = ResponseDecoder(flow: ServerFixtures.flow, config: ServerFixtures.config).decode(
            .register, status: answer.status, body: answer.body)
        #expect(decoded.signedIn?.isNew == true)
        serve.signal(SIGTERM)
        let exit = try #require(await serve.waitForExit(), "serve did not stop on SIGTERM")
        #expect(exit.status == 0 && !exit.signaled, "\(exit) \(serve.stderr)")
        #expect(!serve.stderr.contains("stopped:"), "\(serve.stderr)")
    }

    /// `LOG_LEVEL` sets the level of the server's log lines on standard error (default
    /// `warning`); a name that is not a level is said, not ignored. At `trace`, a registration
    /// logs neither its password nor its refresh secret.
    @Test func logsAtTheLevelOfLOG_LEVELWithoutSecrets() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        let quiet = try ServeProcess(["--port", "0", "--db", project.databasePath], project: project)
        defer { quiet.stop() }
        _ = try await quiet.waitForURL()
        let verbose = try ServeProcess(["--port", "0", "--db", project.databasePath], project: project, environment: ["LOG_LEVEL": "TRACE"])
        defer { verbose.stop() }
        let url = try await verbose.waitForURL()
        let port = try #require(ServerURL(url)?.port)
        let secret = RefreshSecret.generate()
        let builder = RequestBuilder(
            config: ServerFixtures.project.config!, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer,
            locale: ServerFixtures.english, capture: ServerURL(url)!)
        let answer = try await AsyncHTTPTransport(timeoutSeconds: 20, client: ServerFixtures.client)
            .send(try builder.register(ServerFixtures.registration(), refreshSecret: secret, today: ServerFixtures.today))
        #expect(answer.status == 200)
        let unknown = try ServeProcess(["--port", "0", "--db", project.databasePath], project: project, environment: ["LOG_LEVEL": "loud"])
        defer { unknown.stop() }
        _ = try await unknown.waitForURL()
        for serve in [quiet, verbose, unknown] {
            serve.signal(SIGTERM)
            #expect(await serve.waitForExit()?.status == 0, "\(serve.stderr)")
        }
        #expect(quiet.stderr == "", "\(quiet.stderr)")
        let started = try #require(verbose.stderr.split(separator: "\n").first { $0.contains("Server started") }, "\(verbose.stderr)")
        #expect(
            started.wholeMatch(
                of:
                    /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d[+-]\d{4} info jump-forms.serve: \[HummingbirdCore\] Server started and listening on 127.0.0.1:(\d+)/
            )?.output.1 == "\(port)",
            "\(started)")
        #expect(verbose.stderr.contains(" trace jump-forms.serve: "))
        for text in [ServerFixtures.password, secret.value] {
            #expect(!verbose.stderr.contains(text), "a secret reached the log")
        }
        #expect(
            unknown.stderr.hasPrefix(
                "warning: LOG_LEVEL=loud is not a log level (trace, debug, info, notice, warning, error, critical); logging at warning\n"),
            "\(unknown.stderr)")
        #expect(!unknown.stderr.contains("Server started"))
    }

    @Test func refusesABadPort() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        for port in ["70000", "-1"] {
            let bad = try await project.run(["serve", "--port", port])
            #expect(bad.status != 0)
            #expect(bad.stderr.contains("--port must be 0...65535, got \(port)"), "\(bad.stderr)")
        }
    }

    /// A port in use: said plainly, exit status 2.
    @Test func saysWhenThePortIsTaken() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        let first = try ServeProcess(["--port", "0", "--db", project.databasePath], project: project)
        defer { first.stop() }
        let port = try #require(ServerURL(try await first.waitForURL())?.port)
        let second = try await project.run(["serve", "--port", String(port), "--db", project.databasePath])
        #expect(second.status == 2)
        #expect(second.stderr == "cannot listen on 127.0.0.1:\(port): address already in use\n", "\(second.stderr)")
        #expect(second.stdout == "")
    }

    /// SIGTERM stops the server within the grace period even while a client holds a
    /// half-sent request.
    @Test func stopsOnSIGTERMWhileAClientStalls() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        let serve = try ServeProcess(["--port", "0", "--db", project.databasePath], project: project)
        defer { serve.stop() }
        let port = try #require(ServerURL(try await serve.waitForURL())?.port)
        let fd = try RawHTTP.connect(port: port)
        defer { close(fd) }
        RawHTTP.send(fd, Array("POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nabc".utf8))
        // In flight: the stalled request and the scrape that counts it.
        var seen: Double?
        #expect(
            try await waitFor("the stalled request in flight") {
                seen = try await RawHTTP.requestsInFlight(port: port)
                return seen == 2
            }, "requests in flight: \(seen.map(String.init(describing:)) ?? "unreadable") \(serve.stderr)")
        serve.signal(SIGTERM)
        let exit = try #require(await serve.waitForExit(timeout: 15), "serve did not stop on SIGTERM with a stalled client")
        #expect(exit.status == 0 && !exit.signaled, "\(exit) \(serve.stderr)")
    }

    /// SIGTERM stops accepting connections, lets a request in flight finish (its body arrives
    /// after the signal) and answers it whole, then exits 0. A grace period of a minute: a
    /// loaded machine may take the default 5 s to see the listener closed.
    @Test func aRequestWhoseBodyArrivesAfterSIGTERMIsAnsweredWhole() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        let serve = try ServeProcess(["--port", "0", "--db", project.databasePath, "--grace-period", "60"], project: project)
        defer { serve.stop() }
        let port = try #require(ServerURL(try await serve.waitForURL())?.port)
        let fd = try RawHTTP.connect(port: port)
        defer { close(fd) }
        let body = "client_id=x"
        let head = "POST /oauth/forgot_password_native HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\n"
        RawHTTP.send(fd, Array((head + "Content-Length: \(body.utf8.count)\r\n\r\nclient").utf8))
        var seen: Double?
        #expect(
            try await waitFor("the slow request in flight") {
                seen = try await RawHTTP.requestsInFlight(port: port)
                return seen == 2
            }, "requests in flight: \(seen.map(String.init(describing:)) ?? "unreadable") \(serve.stderr)")
        serve.signal(SIGTERM)
        // Shutdown has begun once the server takes no new connection.
        #expect(
            try await waitFor("the listener closed") {
                guard let probe = try? RawHTTP.connect(port: port) else { return true }
                close(probe)
                return false
            })
        RawHTTP.send(fd, Array(body.dropFirst("client".count).utf8))
        let answer = RawHTTP.answer(try await ConnectionHardeningTests.blocking { RawHTTP.receiveAll(fd) })
        #expect(answer.status == 200, "\(answer)")
        #expect(answer.body.hasPrefix(#"{"stat":"#), "\(answer.body)")
        let exit = try #require(await serve.waitForExit(timeout: 15), "serve did not stop on SIGTERM")
        #expect(exit.status == 0 && !exit.signaled, "\(exit) \(serve.stderr)")
    }

    /// With --drain-delay, SIGTERM turns /ready to 503 while the server goes on serving, so
    /// that a load balancer sends its requests elsewhere; then it stops and exits 0.
    @Test func readyAnswers503OnceShutdownHasBegun() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        let serve = try ServeProcess(["--port", "0", "--db", project.databasePath], project: project, environment: ["JUMP_DRAIN_DELAY": "10"])
        defer { serve.stop() }
        let port = try #require(ServerURL(try await serve.waitForURL())?.port)
        let ready = Array("GET /ready HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        #expect(try await RawHTTP.exchange(port: port, ready).status == 200)
        serve.signal(SIGTERM)
        var draining = RawHTTP.Answer(status: 0, head: "", body: "")
        #expect(
            try await waitFor("/ready to answer 503") {
                draining = try await RawHTTP.exchange(port: port, ready)
                return draining.status == 503
            })
        #expect(draining.body.contains(#""error":"not_ready""#) && draining.body.contains("shutting down"), "\(draining.body)")
        // Still serving while it drains (10 s, time enough on a loaded machine).
        let health = try await RawHTTP.exchange(port: port, Array("GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
        #expect(health.status == 200)
        let exit = try #require(await serve.waitForExit(timeout: 30), "serve did not stop after its drain delay")
        #expect(exit.status == 0 && !exit.signaled, "\(exit) \(serve.stderr)")
    }

    @Test func outboxListsTheMessagesAsTextAndJSON() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        // An empty (not yet created) database is an error that says what to do.
        let missing = try await project.run(["outbox", "--db", project.databasePath])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("no database at"))
        let serve = try ServeProcess(["--port", "0", "--db", project.databasePath], project: project)
        defer { serve.stop() }
        let url = try await serve.waitForURL()
        let builder = RequestBuilder(
            config: ServerFixtures.project.config!, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer,
            locale: ServerFixtures.english, capture: ServerURL(url)!)
        let transport = AsyncHTTPTransport(timeoutSeconds: 20, client: ServerFixtures.client)
        _ = try await transport.send(try builder.register(ServerFixtures.registration(), refreshSecret: .generate(), today: ServerFixtures.today))
        _ = try await transport.send(try builder.forgotPassword(["signInEmailAddress": "ana.ruiz@example.com"], today: ServerFixtures.today))
        // The outbox reads the database while the server runs (WAL).
        let text = try await project.run(["outbox", "--db", project.databasePath])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("#1 verify_email to ana.ruiz@example.com at "))
        #expect(text.stdout.contains("Subject: Confirm your email address"))
        #expect(text.stdout.contains("#2 forgot_password to ana.ruiz@example.com at "))
        #expect(text.stdout.contains(url + "/password/reset?code="))
        let json = try await project.run(["outbox", "--db", project.databasePath, "--format", "json"])
        #expect(json.status == 0, "\(json.stderr)")
        let messages = try JSONValue.parse(Array(json.stdout.utf8)).arrayValue ?? []
        #expect(messages.compactMap { $0["kind"]?.stringValue } == ["verify_email", "forgot_password"])
        #expect(messages.first?["to"] == "ana.ruiz@example.com")
        #expect(messages.last?["subject"] == "Reset your password")
        #expect(messages.allSatisfy { $0["id"]?.intValue != nil && $0["createdAt"]?.intValue != nil && $0["body"]?.stringValue != nil })
        serve.signal(SIGTERM)
        #expect(await serve.waitForExit()?.status == 0)
    }

    // MARK: addresses

    static func nonLoopbackIPv4() -> String? {
        var list: UnsafeMutablePointer<ifaddrs>?
        guard getifaddrs(&list) == 0, let first = list else { return nil }
        defer { freeifaddrs(list) }
        var cursor: UnsafeMutablePointer<ifaddrs>? = first
        while let entry = cursor {
            defer { cursor = entry.pointee.ifa_next }
            guard let address = entry.pointee.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
            var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
            guard getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST) == 0 else {
                continue
            }
            let text = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if !text.hasPrefix("127.") { return text }
        }
        return nil
    }

    static func canConnect(host: String, port: Int) -> Bool {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr(host)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        return result == 0
    }
}

import AsyncHTTPClient

extension HTTPClient {
    func get(_ url: String) async throws -> (status: Int, body: String) {
        var request = HTTPClientRequest(url: url)
        request.method = .GET
        let response = try await execute(request, timeout: .seconds(20))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), String(buffer: body))
    }
}
