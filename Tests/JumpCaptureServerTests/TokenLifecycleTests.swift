import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// Access tokens, refresh secrets and email codes: a malformed secret is refused, concurrent
/// refreshes rotate a token once, and what can no longer be used is deleted.
@Suite(.timeLimit(.minutes(5))) struct TokenLifecycleTests {
    /// A refresh secret that is not 40 hex characters used to be dropped silently, leaving a
    /// session that could never refresh.
    @Test func aMalformedRefreshSecretIsRefused() async throws {
        try await withServer { server in
            let request = try server.builder().register(ServerFixtures.registration(), refreshSecret: .generate(), today: server.today)
            let result = try await server.send(request.setting("refresh_secret", "not-a-secret"))
            #expect(result.code == 200, "\(result)")
            #expect(result.error?.serverError?.description.contains("refresh_secret") == true)
            #expect(try await server.server.accountCount() == 0)
        }
    }

    /// A token refreshes once: concurrent refreshes of one token used to all pass the check
    /// (made before the write) and each rotate it, leaving several live tokens.
    @Test func concurrentRefreshesOfOneTokenRotateItOnce() async throws {
        try await withServer { server in
            let (session, secret) = try await server.register()
            let request = server.builder().refreshAccessToken(accessToken: session.accessToken, refreshSecret: secret, epochSeconds: server.clock.now)
            let results = await withTaskGroup(of: Result<CaptureSuccess, CaptureError>?.self) { group in
                for _ in 0..<24 { group.addTask { try? await server.send(request) } }
                var all: [Result<CaptureSuccess, CaptureError>?] = []
                for await result in group { all.append(result) }
                return all
            }
            var tokens: [String] = []
            for case .success(.refreshed(let token, _))? in results { tokens.append(token) }
            #expect(tokens.count == 1, "\(tokens.count) refreshes of one token went through")
            #expect(results.filter { $0?.code == 200 }.count == 23)
            if let token = tokens.first { #expect(try await server.readRecord(token).isSuccess) }
        }
    }

    /// Rows that can no longer be used are deleted: access tokens past the refresh window,
    /// expired Engage tokens and email codes (at most once a minute, in a write that issues
    /// a new token or code).
    @Test func expiredTokensAndCodesAreDeleted() async throws {
        try await withServer(.socket) { server in
            let store = server.server.service.store
            func count(_ table: String) async throws -> Int {
                try await store.integers("SELECT count(*) FROM \(table)").first?.flatMap { $0 } ?? 0
            }
            let (old, secret) = try await server.register()
            _ = try await server.engageToken("facebook")
            #expect(try await count("access_tokens") == 1)
            #expect(try await count("engage_tokens") == 1)
            #expect(try await count("codes") == 1)
            // Two hours on: the token has expired but can still be refreshed; the Engage token
            // (ten minutes) is gone once a sign-in purges.
            server.clock.advance(2 * 3600)
            #expect(try await server.signIn("ana.ruiz@example.com").signedIn != nil)
            #expect(try await count("engage_tokens") == 0)
            #expect(try await count("access_tokens") == 2)
            let refresh = server.builder().refreshAccessToken(accessToken: old.accessToken, refreshSecret: secret, epochSeconds: server.clock.now)
            guard case .success(.refreshed(let refreshed, _)) = try await server.send(refresh) else {
                Issue.record("refresh of an expired token"); return
            }
            // Past the refresh window (30 days) and the codes' day, everything old goes.
            server.clock.advance(CaptureStore.refreshWindow + 3600)
            let late = server.builder().refreshAccessToken(accessToken: refreshed, refreshSecret: secret, epochSeconds: server.clock.now)
            #expect(try await server.send(late).code == 200)
            #expect(try await server.signIn("ana.ruiz@example.com").signedIn != nil)
            #expect(try await count("access_tokens") == 1)
            #expect(try await count("codes") == 0)
            #expect(try await server.readRecord(refreshed).code == 200)
        }
    }
}
