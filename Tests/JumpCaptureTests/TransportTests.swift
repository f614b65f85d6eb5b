import JumpCapture
import JumpForms
import Testing
import TestSupport

/// The real transport against a real HTTP server on 127.0.0.1 (ephemeral port).
@Suite(.timeLimit(.minutes(5))) struct TransportTests {
    @Test func sendsTheFormBodyAndDecodesTheAnswer() async throws {
        let server = try LoopbackServer { _ in
            .init(body: #"{"stat":"ok","access_token":"t1","is_new":true,"capture_user":{"email":"ana@example.com"}}"#)
        }
        defer { server.stop() }
        let builder = RequestBuilder(
            config: CaptureFixtures.config, flow: CaptureFixtures.loaded.flow, localizer: CaptureFixtures.loaded.localizer(),
            locale: CaptureFixtures.locale, capture: ServerURL(server.url)!)
        let request = try builder.register(CaptureFixtures.registration, refreshSecret: CaptureFixtures.secret, today: CaptureFixtures.today)
        let answer = try await AsyncHTTPTransport(timeoutSeconds: 10).send(request)
        #expect(answer.status == 200)
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
        await #expect(throws: TransportError.insecureURL("http://example.com")) {
            try await AsyncHTTPTransport().send(remote)
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
    @Test func redirectsAreNotFollowedAndTheBodyGoesNowhereElse() async throws {
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
            _ = try await AsyncHTTPTransport(timeoutSeconds: 10).send(request)
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

    @Test func slowServersTimeOut() async throws {
        // The server never answers, so the only way out is the timeout, however late a loaded
        // machine runs it: the client's deadline resumes the request through a task, and a full
        // parallel run on 2 cores, its pool threads busy in blocking test waits, once ran that
        // task more than 30 s late. stop() closes the held connection.
        let server = try LoopbackServer { _ in .init(body: "{}", answers: false) }
        defer { server.stop() }
        var request = CaptureFixtures.builder().readRecord(accessToken: "t")
        request.server = ServerURL(server.url)!
        await #expect(throws: TransportError.timedOut(url: request.url, seconds: 1)) {
            try await AsyncHTTPTransport(timeoutSeconds: 1).send(request)
        }
    }

    @Test func errorPagesBecomeClearErrors() async throws {
        let server = try LoopbackServer { _ in
            .init(status: 502, contentType: "text/html", body: "<html><head><title>Bad Gateway</title></head></html>")
        }
        defer { server.stop() }
        var request = CaptureFixtures.builder().readRecord(accessToken: "t")
        request.server = ServerURL(server.url)!
        let answer = try await AsyncHTTPTransport(timeoutSeconds: 10).send(request)
        let result = CaptureFixtures.decoder.decode(.readRecord, status: answer.status, body: answer.body)
        guard case .failure(.malformedResponse(let malformed)) = result else { Issue.record("\(result)"); return }
        #expect(malformed.description == "the server's answer (HTTP 502) is not a Capture response: an HTML page, not JSON (\"Bad Gateway\")")
    }

    @Test func unreachableServersAreConnectionErrors() async throws {
        var request = CaptureFixtures.builder().readRecord(accessToken: "t")
        request.server = ServerURL("http://127.0.0.1:9")!
        do {
            _ = try await AsyncHTTPTransport(timeoutSeconds: 5).send(request)
            Issue.record("no error")
        } catch {
            guard case .connectionFailed = error else { Issue.record("\(error)"); return }
        }
    }
}
