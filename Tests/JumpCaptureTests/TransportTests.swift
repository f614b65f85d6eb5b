import JumpCapture
import JumpForms
import Testing
import TestSupport

/// The real transport against a real HTTP server on 127.0.0.1 (ephemeral port).
@Suite(.timeLimit(.minutes(1))) struct TransportTests {
    @Test func sendsTheFormBodyAndDecodesTheAnswer() async throws {
        let server = try LoopbackServer { _ in .init(body: #"{"stat":"ok","access_token":"t1","is_new":true,"capture_user":{"email":"ana@example.com"}}"#) }
        defer { server.stop() }
        let builder = RequestBuilder(config: CaptureFixtures.config, flow: CaptureFixtures.loaded.flow, localizer: CaptureFixtures.loaded.localizer(),
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
        for host in ["http://localhost:1", "http://127.0.0.2:1", "http://[::1]:1"] {
            #expect(throws: Never.self) { try AsyncHTTPTransport.check(ServerURL(host)!) }
        }
    }

    @Test func slowServersTimeOut() async throws {
        let server = try LoopbackServer { _ in .init(body: "{}", delay: 3) }
        defer { server.stop() }
        var request = CaptureFixtures.builder().readRecord(accessToken: "t")
        request.server = ServerURL(server.url)!
        await #expect(throws: TransportError.timedOut(url: request.url, seconds: 1)) {
            try await AsyncHTTPTransport(timeoutSeconds: 1).send(request)
        }
    }

    @Test func errorPagesBecomeClearErrors() async throws {
        let server = try LoopbackServer { _ in .init(status: 502, contentType: "text/html", body: "<html><head><title>Bad Gateway</title></head></html>") }
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
