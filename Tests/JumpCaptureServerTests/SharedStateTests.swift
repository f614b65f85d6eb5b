import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// The state the instances share (CaptureStore+SharedState), as stored: digests and sealed
/// tokens only, and rows deleted once they no longer matter.
@Suite(.timeLimit(.minutes(5))) struct SharedStateTests {
    @Test func throttleCountsHoldNoAddressAndGoOnceForgotten() async throws {
        try await withServer(.socket) { server in
            let store = server.server.service.store
            try await server.register()
            #expect(try await server.signIn("ana.ruiz@example.com", "wrong").code == 210)
            #expect(try await server.signIn("nobody@example.com", "wrong").code == 210)
            let keys = try await store.texts("SELECT key_hash FROM throttle_counts").compactMap { $0 }
            // The account, the unknown identifier and the client address, as SHA-256 digests.
            #expect(keys.count == 3, "\(keys)")
            #expect(keys.allSatisfy { $0.count == 64 && $0.allSatisfy(\.isHexDigit) })
            // Past the reset times (and the purge's minute), the next write deletes them.
            server.clock.advance(43_200 + 61)
            #expect(try await server.signIn("ana.ruiz@example.com").signedIn != nil)
            #expect(try await server.signIn("other@example.com", "wrong").code == 210)
            let left = try await store.texts("SELECT key_hash FROM throttle_counts").compactMap { $0 }
            // The client's count again, and the new account's: the old accounts' are gone.
            #expect(left.count == 2 && Set(left).subtracting(keys).count == 1, "\(left)")
        }
    }

    @Test func pageSessionsKeepTheTokenSealedAndExpire() async throws {
        try await withServer { server in
            let store = server.server.service.store
            let sessions = server.server.service.pageSessions
            let token = CaptureStore.randomToken()
            let cookie = try await sessions.open(accessToken: token, expiresAt: server.clock.now + 60)
            #expect(try await sessions.accessToken(cookie: cookie, now: server.clock.now) == token)
            #expect(try await sessions.accessToken(cookie: cookie + "0", now: server.clock.now) == nil)
            let stored = try await store.read { db in
                try await db.raw("SELECT cookie_hash, access_token FROM page_sessions").all().map {
                    (try $0.string("cookie_hash"), Array(try $0.decode(column: "access_token", as: Data.self)))
                }
            }
            #expect(stored.count == 1 && stored[0].0 == CaptureStore.hash(cookie))
            #expect(!String(decoding: stored[0].1, as: UTF8.self).contains(token), "the token is stored in clear")
            #expect(try await sessions.accessToken(cookie: cookie, now: server.clock.now + 60) == nil)
        }
    }
}
