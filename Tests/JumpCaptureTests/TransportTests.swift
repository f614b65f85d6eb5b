import JumpCapture
import JumpCaptureNIO
import JumpForms
import Testing
import TestSupport

/// The transports that keep `HTTPTransport`'s contract: URLSession (the apps' default) and
/// AsyncHTTPClient (servers and the CLI). Each test runs against both.
enum TransportKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case urlSession, asyncHTTPClient

    func make(timeoutSeconds: Int = 10, maximumAnswerSize: Int = 4 << 20) -> any HTTPTransport {
        switch self {
        case .urlSession: URLSessionTransport(timeoutSeconds: timeoutSeconds, maximumAnswerSize: maximumAnswerSize)
        case .asyncHTTPClient: AsyncHTTPTransport(timeoutSeconds: timeoutSeconds, maximumAnswerSize: maximumAnswerSize)
        }
    }

    var testDescription: String { rawValue }
}

/// The real transports against a real HTTP server on 127.0.0.1 (ephemeral port).
@Suite(.timeLimit(.minutes(5))) struct TransportTests {
    @Test(arguments: TransportKind.allCases) func sendsTheFormBodyAndDecodesTheAnswer(_ kind: TransportKind) async throws {
        let server = try LoopbackServer { _ in
            .init(body: #"{"stat":"ok","access_token":"t1","is_new":true,"capture_user":{"email":"ana@example.com"}}"#)
        }
        defer { server.stop() }
        let builder = RequestBuilder(
            config: CaptureFixtures.config, flow: CaptureFixtures.loaded.flow, localizer: CaptureFixtures.loaded.localizer(),
            locale: CaptureFixtures.locale, capture: ServerURL(server.url)!)
        let request = try builder.register(CaptureFixtures.registration, refreshSecret: CaptureFixtures.secret, today: CaptureFixtures.today)
        let answer = try await kind.make().send(request)
        #expect(answer.status == 200)
        #expect(answer.contentType == "application/json")
        let received = try #require(server.requests.first)
        #expect(received.method == "POST")
        #expect(received.target == "/oauth/register_native_traditional")
        #expect(received.headers["content-type"] == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(received.body == request.encodedParameters())
        let result = CaptureFixtures.decoder.decode(.register, status: answer.status, body: answer.body)
        guard case .success(.signedIn(let signedIn)) = result else { Issue.record("\(result)"); return }
        #expect(signedIn.isNew && signedIn.accessToken == "t1")
    }

    @Test func plainHTTPIsRefusedUnlessLoopback() async throws {
        let request = CaptureFixtures.builder().readRecord(accessToken: "t")
        var remote = request
        remote.server = ServerURL("http://example.com")!
        for kind in TransportKind.allCases {
            await #expect(throws: TransportError.insecureURL("http://example.com"), "\(kind)") {
                try await kind.make().send(remote)
            }
        }
        for host in ["http://localhost:1", "http://127.0.0.2:1", "http://[::1]:1", "http://127.255.0.1"] {
            #expect(throws: Never.self) { try AsyncHTTPTransport.check(ServerURL(host)!) }
        }
        // Names that merely start like a loopback address resolve anywhere.
        for host in [
            "http://127.example.invalid", "http://127.0.0.1.example.com:8080", "http://127.0.0.256", "http://127.0.0",
            "http://127.1", "http://127.0.0.01x", "http://localhost.example.com"
        ] {
            #expect(throws: TransportError.insecureURL(ServerURL(host)!.description), "\(host)") {
                try AsyncHTTPTransport.check(ServerURL(host)!)
            }
        }
    }

    /// A 307 to another port would re-send the body (the password) there: the transport never
    /// follows it and says why.
    @Test(arguments: TransportKind.allCases) func redirectsAreNotFollowedAndTheBodyGoesNowhereElse(_ kind: TransportKind) async throws {
        let elsewhere = try LoopbackServer { _ in .init(body: #"{"stat":"ok","access_token":"stolen"}"#) }
        defer { elsewhere.stop() }
        let target = elsewhere.url + "/oauth/auth_native_traditional"
        let server = try LoopbackServer { _ in .init(status: 307, contentType: "text/plain", body: "", headers: [("Location", target)]) }
        defer { server.stop() }
        var request = try CaptureFixtures.builder().signIn(
            ["signInEmailAddress": "ana.ruiz@example.com", "currentPassword": "s3cret-password"],
            refreshSecret: CaptureFixtures.secret, today: CaptureFixtures.today)
        request.server = ServerURL(server.url)!
        do {
            _ = try await kind.make().send(request)
            Issue.record("a redirect was followed or accepted")
        } catch {
            #expect(error == .redirected(url: request.url, status: 307, location: target))
            #expect(error.description.contains("answered with a redirect (HTTP 307) to \(target)"))
            #expect(error.description.contains("does not follow redirects"))
        }
        #expect(server.requests.count == 1)
        #expect(server.requests.first?.body.contains("s3cret-password") == true)
        #expect(elsewhere.requests.isEmpty, "the request went on to the redirect's target")
    }

    @Test(arguments: TransportKind.allCases) func slowServersTimeOut(_ kind: TransportKind) async throws {
        // The server never answers, so the only way out is the timeout, however late a loaded
        // machine runs it: the client's deadline resumes the request through a task, and a full
        // parallel run on 2 cores, its pool threads busy in blocking test waits, once ran that
        // task more than 30 s late. stop() closes the held connection.
        let server = try LoopbackServer { _ in .init(body: "{}", answers: false) }
        defer { server.stop() }
        var request = CaptureFixtures.builder().readRecord(accessToken: "t")
        request.server = ServerURL(server.url)!
        await #expect(throws: TransportError.timedOut(url: request.url, seconds: 1)) {
            try await kind.make(timeoutSeconds: 1).send(request)
        }
    }

    @Test(arguments: TransportKind.allCases) func errorPagesBecomeClearErrors(_ kind: TransportKind) async throws {
        let server = try LoopbackServer { _ in
            .init(status: 502, contentType: "text/html", body: "<html><head><title>Bad Gateway</title></head></html>")
        }
        defer { server.stop() }
        var request = CaptureFixtures.builder().readRecord(accessToken: "t")
        request.server = ServerURL(server.url)!
        let answer = try await kind.make().send(request)
        #expect(answer.status == 502 && answer.contentType == "text/html")
        let result = CaptureFixtures.decoder.decode(.readRecord, status: answer.status, body: answer.body)
        guard case .failure(.malformedResponse(let malformed)) = result else { Issue.record("\(result)"); return }
        #expect(malformed.description == "the server's answer (HTTP 502) is not a Capture response: an HTML page, not JSON (\"Bad Gateway\")")
    }

    /// A port nothing listens on (one a server just had, now closed). URLSession reports the
    /// refusal at once (at the deadline it would be `timedOut`); AsyncHTTPClient retries the
    /// connection until its deadline, then reports the refusal.
    @Test(arguments: TransportKind.allCases) func refusedConnectionsAreConnectionErrors(_ kind: TransportKind) async throws {
        let closed = try LoopbackServer { _ in .init(body: "{}") }
        closed.stop()
        var request = CaptureFixtures.builder().readRecord(accessToken: "t")
        request.server = ServerURL(closed.url)!
        do {
            _ = try await kind.make(timeoutSeconds: kind == .urlSession ? 60 : 5).send(request)
            Issue.record("no error")
        } catch {
            guard case .connectionFailed(let url, let reason) = error else { Issue.record("\(error)"); return }
            #expect(url == request.urlMaskingSecrets)
            #expect(reason == "connection refused")
            // A loopback server that is not running: the message says which command starts it.
            #expect(error.description.hasSuffix("connection refused: is jump-forms serve running at \(closed.url)?"), "\(error)")
        }
    }

    /// An answer over the size limit is refused, not read whole.
    @Test(arguments: TransportKind.allCases) func answersOverTheLimitAreRefused(_ kind: TransportKind) async throws {
        let large = #"{"stat":"ok","padding":""# + String(repeating: "x", count: 64 * 1024) + #""}"#
        let server = try LoopbackServer { _ in .init(body: large) }
        defer { server.stop() }
        var request = CaptureFixtures.builder().readRecord(accessToken: "t")
        request.server = ServerURL(server.url)!
        await #expect(throws: TransportError.answerTooLarge(url: request.urlMaskingSecrets, limit: 1024)) {
            try await kind.make(maximumAnswerSize: 1024).send(request)
        }
        let answer = try await kind.make(maximumAnswerSize: 128 * 1024).send(request)
        #expect(answer.body == Array(large.utf8))
    }

    /// A cookie the server sets is not sent back: each request carries only what it says.
    @Test(arguments: TransportKind.allCases) func cookiesAreNeitherKeptNorSent(_ kind: TransportKind) async throws {
        let server = try LoopbackServer { _ in .init(body: #"{"stat":"ok"}"#, headers: [("Set-Cookie", "session=abc; Path=/")]) }
        defer { server.stop() }
        var request = CaptureFixtures.builder().readRecord(accessToken: "t")
        request.server = ServerURL(server.url)!
        let transport = kind.make()
        _ = try await transport.send(request)
        _ = try await transport.send(request)
        #expect(server.requests.count == 2)
        #expect(server.requests.allSatisfy { $0.headers["cookie"] == nil })
    }

    /// The request's header fields arrive as the request says; what the transport adds is only
    /// what HTTP clients always add (host, length, connection, language, accepted encodings).
    /// A POST whose parameters go in its URL has no body and no `Content-Type`.
    @Test(arguments: TransportKind.allCases) func headerFieldsAreSentAsTheyAre(_ kind: TransportKind) async throws {
        let server = try LoopbackServer { _ in .init(body: #"{"stat":"ok"}"#) }
        defer { server.stop() }
        var post = try CaptureFixtures.builder().signIn(
            ["signInEmailAddress": "ana.ruiz@example.com", "currentPassword": "s3cret-password"],
            refreshSecret: CaptureFixtures.secret, today: CaptureFixtures.today)
        post.server = ServerURL(server.url)!
        var inURL = post
        inURL.parametersInURL = true
        var get = CaptureFixtures.builder().readRecord(accessToken: "t")
        get.server = ServerURL(server.url)!
        let added: Set<String> = ["host", "content-length", "connection", "accept-language", "accept-encoding"]
        for request in [post, inURL, get] {
            _ = try await kind.make().send(request)
            let received = try #require(server.requests.last)
            #expect(received.method == request.method.rawValue)
            #expect(received.target == request.target())
            #expect(received.body == String(decoding: request.body, as: UTF8.self))
            var expected: [String: String] = [:]
            for field in request.head.headerFields where field.name != .contentLength {
                expected[field.name.canonicalName.lowercased()] = field.value
            }
            #expect(received.headers.filter { !added.contains($0.key) } == expected, "\(request.method) \(request.target())")
            #expect(received.headers["content-length"].flatMap { Int($0) } == (request.method == .get ? nil : request.body.count))
        }
        #expect(server.requests[1].headers["content-type"] == nil)
    }
}
