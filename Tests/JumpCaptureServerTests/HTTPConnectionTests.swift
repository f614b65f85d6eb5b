import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// How the server handles connections: sizes declared up front, transfer codings, stalled
/// clients, HTTP/1.0, HEAD, and what it refuses in a form body.
@Suite(.timeLimit(.minutes(5))) struct HTTPConnectionTests {
    /// Sends `request` on a new connection (in a thread: the calls block) and returns the
    /// answer and how long until the server closed the connection.
    static func timedExchange(port: Int, _ request: String) async throws -> (answer: RawHTTP.Answer, seconds: Double) {
        let start = ContinuousClock.now
        let answer = try await RawHTTP.exchange(port: port, Array(request.utf8))
        let elapsed = ContinuousClock.now - start
        return (answer, Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
    }

    func expectError(_ answer: RawHTTP.Answer, status: Int, code: Int, _ comment: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        #expect(answer.status == status, "\(comment): \(answer.head)", sourceLocation: sourceLocation)
        let json = try? JSONValue.parse(Array(answer.body.utf8))
        #expect(json?["stat"] == "error", "\(comment): \(answer.body)", sourceLocation: sourceLocation)
        #expect(json?["code"] == .integer(code), "\(comment): \(answer.body)", sourceLocation: sourceLocation)
    }

    /// A Content-Length over the limit is refused when the head arrives, not after a body
    /// that may never come.
    @Test func aDeclaredBodyOverTheLimitIsRefusedAtOnce() async throws {
        try await withServer(.socket) { server in
            let port = try #require(server.url.port)
            let (answer, seconds) = try await Self.timedExchange(
                port: port, "POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100000\r\n\r\n")
            expectError(answer, status: 413, code: 413, "declared 100000")
            #expect(answer.body.contains("larger than 65536 bytes"))
            #expect(seconds < 5, "the server waited \(seconds) s")
            // With a query string, the body gets what the query leaves.
            let query = try await Self.timedExchange(
                port: port, "POST /entity?attribute_name=x HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 65530\r\n\r\n")
            expectError(query.answer, status: 413, code: 413, "query and declared body")
            #expect(query.answer.body.contains("the query string and the body together"))
            // Behind an answered request on the same connection: refused at once as well.
            let keptAlive = try await Self.timedExchange(
                port: port,
                "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nPOST /entity HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 70000\r\nConnection: close\r\n\r\n"
            )
            #expect(keptAlive.answer.body.contains(#""code":413"#), "\(keptAlive.answer.body)")
            #expect(keptAlive.seconds < 5, "the server waited \(keptAlive.seconds) s")
            #expect(try await server.raw(.GET, "/health").status == 200)
        }
    }

    /// Bad chunked encoding and transfer codings other than chunked are 400 bad_request, and
    /// the connection closes (the 413 of a 3-byte body was wrong).
    @Test func badTransferCodingsAre400() async throws {
        try await withServer(.socket) { server in
            let port = try #require(server.url.port)
            let requests = [
                ("bad chunk size", "POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\n\r\nZZ\r\nabc\r\n0\r\n\r\n"),
                ("gzip", "POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip\r\n\r\nabc"),
                // A chunked body with a coding the server does not undo, in one field or two.
                (
                    "gzip, chunked",
                    "POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n"
                ),
                (
                    "gzip then chunked",
                    """
                    POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\
                    \n
                    """
                )
            ]
            for (name, request) in requests {
                let (answer, seconds) = try await Self.timedExchange(port: port, request)
                expectError(answer, status: 400, code: 400, name)
                #expect(answer.body.contains("bad_request"), "\(name): \(answer.body)")
                #expect(answer.head.lowercased().contains("connection: close"), "\(name): \(answer.head)")
                #expect(seconds < 8, "\(name): the connection stayed open \(seconds) s")
            }
            #expect(try await server.raw(.GET, "/health").status == 200)
            // A plain chunked body is still read.
            let chunked = try await Self.timedExchange(
                port: port,
                "POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n5\r\nx=1&y\r\n0\r\n\r\n"
            )
            #expect(!chunked.answer.body.contains("bad_request"), "\(chunked.answer.body)")
        }
    }

    /// A client that stops sending in the middle of a request is cut off after the idle
    /// timeout.
    @Test func aStalledRequestIsClosedAfterTheIdleTimeout() async throws {
        try await withServer(.socket, idleTimeout: .seconds(1)) { server in
            let port = try #require(server.url.port)
            let (answer, seconds) = try await Self.timedExchange(
                port: port, "POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nabc")
            #expect(seconds < 6, "the stalled connection stayed open \(seconds) s")
            #expect(answer.status != 200, "\(answer.head)")
            // Half a request head, too.
            let head = try await Self.timedExchange(port: port, "POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            #expect(head.seconds < 6, "the stalled connection stayed open \(head.seconds) s")
            #expect(try await server.raw(.GET, "/health").status == 200)
        }
    }

    /// A client that sends a byte now and then used to keep its connection forever (each byte
    /// restarted the idle timeout): a request has `requestTimeout` to arrive whole, head and
    /// body, then it is answered 408 and the connection closes. Idle time between requests
    /// counts against the idle timeout only.
    @Test func aSlowDripRequestIsCutOffAtTheRequestTimeout() async throws {
        try await withServer(.socket, idleTimeout: .seconds(3), requestTimeout: .seconds(1)) { server in
            let port = try #require(server.url.port)
            let drips = [
                ("headers", "POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\n", "X-Slow: " + String(repeating: "a", count: 32)),
                (
                    "body",
                    "POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n",
                    String(repeating: "a", count: 40)
                )
            ]
            for (name, head, drip) in drips {
                let start = ContinuousClock.now
                let answer = try await RawHTTP.paced(port: port, [Array(head.utf8)] + drip.utf8.map { [$0] }, interval: .milliseconds(200))
                let seconds = Double((ContinuousClock.now - start).components.seconds)
                expectError(answer, status: 408, code: 408, name)
                #expect(answer.body.contains("request_timeout"), "\(name): \(answer.body)")
                #expect(answer.head.lowercased().contains("connection: close"), "\(name): \(answer.head)")
                #expect(seconds < 5, "\(name): the dripping connection stayed open \(seconds) s")
            }
            // Two requests 2 s apart on one connection: the pause is idle time, not a slow request.
            let request = "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            let kept = try await RawHTTP.paced(
                // dropLast(1): "\r\n" is one Character, so this drops the blank line only.
                port: port, [Array(request.utf8), Array((request.dropLast(1) + "Connection: close\r\n\r\n").utf8)],
                interval: .seconds(2), stopWhenAnswered: false)
            let text = kept.head + "\r\n\r\n" + kept.body
            #expect(text.components(separatedBy: "HTTP/1.1 200").count == 3, "\(text)")
            #expect(!text.contains("408"), "\(text)")
            // A request that starts 0.6 s after the first and takes 0.6 s is within its own
            // second, though it is still arriving when the first one's second is up.
            let split = try await RawHTTP.paced(
                port: port,
                [
                    Array(request.utf8), Array("GET /health HTTP/1.1\r\n".utf8),
                    Array("Host: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
                ],
                interval: .milliseconds(600), stopWhenAnswered: false)
            let splitText = split.head + "\r\n\r\n" + split.body
            #expect(splitText.components(separatedBy: "HTTP/1.1 200").count == 3, "\(splitText)")
            #expect(!splitText.contains("408"), "\(splitText)")
        }
    }

    /// Stopping the server does not wait for a stalled client beyond the grace period. Without
    /// the grace period it would wait for the idle timeout (30 s); the bound leaves room for a
    /// loaded machine's late timers.
    @Test func stopDoesNotWaitForAStalledClient() async throws {
        let server = try await TestServer.start()
        let port = try #require(server.url.port)
        let fd = try RawHTTP.connect(port: port)
        defer { close(fd) }
        RawHTTP.send(fd, Array("POST /oauth/auth_native HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\nabc".utf8))
        // Its head is read and its handler waits for the rest of the body.
        let metrics = server.server.service.setup.metrics
        #expect(try await waitFor("the stalled request in flight") { metrics.requestsInFlight == 1 })
        let start = ContinuousClock.now
        await server.stop()
        let waited = ContinuousClock.now - start
        #expect(waited < CaptureServer.shutdownGracePeriod + .seconds(15), "stop took \(waited)")
    }

    /// An HTTP/1.0 request without keep-alive is answered as HTTP/1.0, and the connection closes.
    @Test func http10IsAnsweredAndClosed() async throws {
        try await withServer(.socket) { server in
            let port = try #require(server.url.port)
            let (answer, seconds) = try await Self.timedExchange(port: port, "GET /health HTTP/1.0\r\n\r\n")
            #expect(answer.head.hasPrefix("HTTP/1.0 200"), "\(answer.head)")
            #expect(answer.head.lowercased().contains("connection: close"), "\(answer.head)")
            #expect(answer.body == #"{"stat":"ok"}"#)
            #expect(seconds < 8, "the connection stayed open \(seconds) s")
            // HTTP/1.1 with Connection: close, the same.
            let closing = try await Self.timedExchange(port: port, "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            #expect(closing.answer.head.hasPrefix("HTTP/1.1 200"), "\(closing.answer.head)")
            #expect(closing.seconds < 8)
        }
    }

    /// HEAD gives the GET's Content-Length, and is refused where a GET changes something.
    @Test func headMatchesGETAndHasNoSideEffects() async throws {
        try await withServer(.socket) { server in
            let (session, _) = try await server.register()
            for target in ["/health", "/entity?access_token=" + session.accessToken, "/openid/mobile_config_and_baseurl"] {
                let get = try await server.raw(.GET, target)
                let head = try await server.raw(.HEAD, target)
                #expect(head.status == get.status, "\(target)")
                #expect(head.body.isEmpty)
                #expect(head.headers.first(name: "content-length") == String(get.body.utf8.count), "\(target): \(head.headers)")
            }
            let store = server.server.service.store
            func engageTokens() async throws -> Int {
                try await store.integers("SELECT count(*) FROM engage_tokens").first?.flatMap { $0 } ?? 0
            }
            let start = "/google/start?token_url=https://example.com/x&identity=ana.ruiz@example.com"
            let head = try await server.raw(.HEAD, start)
            #expect(head.status == 405)
            #expect(head.headers.first(name: "allow") == "GET")
            #expect(try await engageTokens() == 0)
            #expect(try await server.raw(.GET, start).status == 302)
            #expect(try await engageTokens() == 1)
            #expect(try await server.raw(.HEAD, "/email/verify?code=x").status == 405)
        }
    }

    /// Raw bytes that are not UTF-8 are refused like percent-encoded ones, and so is a charset
    /// other than UTF-8; nothing is stored.
    @Test func formBodiesAreUTF8Only() async throws {
        try await withServer(.socket) { server in
            let (session, _) = try await server.register()
            let update = try server.builder().updateProfile(
                ["displayName": "ana_r", "firstName": "Ana", "lastName": "Ruiz", "aboutMe": "plain"],
                accessToken: session.accessToken, today: server.today)
            let raw = update.removing("aboutMe").body + Array("&aboutMe=raw".utf8) + [0xFF, 0xFE] + Array("bytes".utf8)
            let refused = try await server.raw(.POST, update.path, body: raw)
            #expect(refused.body.contains(#""code":200"#) && refused.body.contains("malformed"), "\(refused.body)")
            for type in ["application/x-www-form-urlencoded; charset=latin1", "application/x-www-form-urlencoded;charset=\"ISO-8859-1\""] {
                let latin = try await server.raw(.POST, update.path, body: update.body, contentType: type)
                #expect(latin.body.contains(#""code":200"#) && latin.body.contains("charset"), "\(type): \(latin.body)")
            }
            #expect(try await server.record(session.accessToken)["aboutMe"] == nil)
            // UTF-8, said or not, is read.
            for type in ["application/x-www-form-urlencoded; charset=UTF-8", "application/x-www-form-urlencoded"] {
                let ok = try await server.raw(.POST, update.path, body: update.body, contentType: type)
                #expect(ok.body == #"{"stat":"ok"}"#, "\(type): \(ok.body)")
            }
            #expect(try await server.record(session.accessToken)["aboutMe"] == "plain")
        }
    }

    /// `thin_registration` is `true` or `false`.
    @Test func thinRegistrationIsABoolean() async throws {
        try await withServer(.socket) { server in
            let token = try await server.engageToken("google", identity: "marta.keller@example.com")
            let request = try server.builder().socialSignIn(token: token, refreshSecret: .generate(), mergeToken: nil)
            let answer = try await server.send(request.setting("thin_registration", "maybe"), engageToken: token)
            #expect(answer.code == 200, "\(answer)")
            #expect(try await server.send(request.setting("thin_registration", "true"), engageToken: token).signedIn != nil)
        }
    }
}
