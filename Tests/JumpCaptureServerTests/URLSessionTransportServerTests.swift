import Foundation
import JumpCapture
import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// The apps' transport (URLSession, FoundationNetworking here) against the local server on
/// 127.0.0.1: registration, sign-in, refresh and a record read, as an app on it would do them.
@Suite(.timeLimit(.minutes(5))) struct URLSessionTransportServerTests {
    @Test func anAccountsLifeOverURLSession() async throws {
        try await withServer(.socket) { socket in
            let server = TestServer(
                server: socket.server, embedded: socket.embedded, router: nil, folder: socket.folder, clock: socket.clock,
                config: socket.config, url: socket.url, transport: URLSessionTransport(timeoutSeconds: 30), decoder: socket.decoder)
            let (registered, secret) = try await server.register()
            #expect(registered.isNew && registered.record["email"] == "ana.ruiz@example.com")
            let signedIn = try #require(try await server.signIn("ana.ruiz@example.com").signedIn)
            #expect(signedIn.record["uuid"] == registered.record["uuid"])
            server.clock.advance(120)
            let refresh = server.builder().refreshAccessToken(
                accessToken: registered.accessToken, refreshSecret: secret, epochSeconds: server.clock.now)
            guard case .success(.refreshed(let token, _)) = try await server.send(refresh) else { Issue.record("no refresh"); return }
            #expect(try await server.record(token)["displayName"] == "ana_r")
            // A wrong password is Capture's error, not a transport failure.
            #expect(try await server.signIn("ana.ruiz@example.com", "wrong password").code == 210)
        }
    }
}
