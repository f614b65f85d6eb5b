import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// The Engage double's sign-in: its parameters, the token URLs it accepts, and `auth_info`
/// (the API key, tokens used once).
@Suite(.timeLimit(.minutes(5))) struct EngageDoubleTests {
    /// The Engage double: auth_info takes POST only (as documented), `provider` cannot
    /// contradict `providername`, repeated parameters get 201, an unknown provider is named.
    @Test func engageDoubleParameters() async throws {
        try await withServer(.socket, configure: { $0.server.apiKey = Located("the-app-secret", at: ServerFixtures.here) }) { server in
            let token = try await server.engageToken("google", identity: "marta.keller@example.com")
            let get = try await server.raw(.GET, "/api/v2/auth_info?apiKey=the-app-secret&token=" + token)
            #expect(get.status == 405)
            #expect(get.headers.first(name: "allow") == "POST")
            let twice = try await server.raw(.POST, "/api/v2/auth_info", form: "apiKey=the-app-secret&token=\(token)&token=\(token)")
            #expect(twice.body.contains(#""code":201"#), "\(twice.body)")
            let post = try await server.raw(.POST, "/api/v2/auth_info", form: "apiKey=the-app-secret&token=" + token)
            #expect(post.body.contains(#""stat":"ok""#), "\(post.body)")

            let mismatch = try await server.raw(.POST, "/signin/oauth_token?providername=google", form: "provider=facebook&token=google-native-marta")
            #expect(mismatch.body.contains(#""code":1"#) && mismatch.body.contains("does not match"), "\(mismatch.body)")
            let repeated = try await server.raw(
                .POST, "/signin/oauth_token?providername=google&providername=google", form: "token=google-native-marta")
            #expect(repeated.body.contains(#""code":201"#), "\(repeated.body)")
            let unknown = try await server.raw(.POST, "/signin/oauth_token?providername=nope", form: "provider=nope&token=x")
            #expect(unknown.body.contains("unknown provider 'nope'") && !unknown.body.contains("token is not valid"), "\(unknown.body)")
            let same = try await server.raw(.POST, "/signin/oauth_token?providername=google", form: "provider=google&token=google-native-marta")
            #expect(same.body.contains(#""stat":"ok""#), "\(same.body)")
        }
    }

    /// The Engage double hands tokens only to the whitelisted domain (and loopback, where the
    /// CLI listens), as Engage does.
    @Test func tokenURLsOutsideTheWhitelistAreRefused() async throws {
        try await withServer(.socket) { server in
            await #expect(throws: HarnessError.self) {
                _ = try await server.engageToken("facebook", tokenURL: "https://evil.example.net/steal")
            }
            let google = try #require(ServerFixtures.flow.providers.first { $0.id.value == "facebook" })
            let start = server.engage.startURL(for: google, returnTo: .tokenURL("https://example.com.evil.net/"), installationID: "i").url
            let page = try await server.raw(.GET, String(start.dropFirst(server.url.description.count)))
            #expect(page.status == 400)
            #expect(page.headers.first(name: "location") == nil)
            #expect(page.body.contains("whitelist"))
            // The whitelisted domain, its subdomains, and loopback addresses are fine.
            for url in ["https://example.com/token", "https://app.example.com/t", "http://127.0.0.1:9/", "http://localhost:8/cb"] {
                #expect(try await server.engageToken("facebook", tokenURL: url).count == 64, "\(url)")
            }
        }
    }

    /// auth_info takes the configured API key (Engage's codes: 0 missing, 3 wrong), and an
    /// Engage token works once.
    @Test func authInfoNeedsTheAPIKeyAndEngageTokensWorkOnce() async throws {
        try await withServer(.socket) { server in
            let token = try await server.engageToken("corp_openid")
            let off = try await server.raw(.POST, "/api/v2/auth_info", form: "apiKey=anything&token=" + token)
            #expect(try JSONValue.parse(Array(off.body.utf8)).at("err.code") == .integer(3))
        }
        let key = Located("app-secret-0123", at: ServerFixtures.here)
        try await withServer(.socket, configure: { $0.server.apiKey = key }) { server in
            let token = try await server.engageToken("corp_openid")
            for (form, code) in [("token=" + token, 0), ("apiKey=wrong&token=" + token, 3), ("apiKey=app-secret-012&token=" + token, 3)] {
                let answer = try await server.raw(.POST, "/api/v2/auth_info", form: form)
                #expect(try JSONValue.parse(Array(answer.body.utf8)).at("err.code") == .integer(code), "\(form)")
            }
            let ok = try await server.raw(.POST, "/api/v2/auth_info", form: "apiKey=app-secret-0123&token=" + token)
            #expect(try JSONValue.parse(Array(ok.body.utf8))["stat"] == "ok", "\(ok.body)")
            let again = try await server.raw(.POST, "/api/v2/auth_info", form: "apiKey=app-secret-0123&token=" + token)
            #expect(try JSONValue.parse(Array(again.body.utf8)).at("err.code") == .integer(2))
            // A social sign-in uses its token up too; a failed one (310) leaves it for the registration.
            let google = try await server.engageToken("google", identity: "marta.keller@example.com")
            #expect(try await server.socialSignIn(google).signedIn != nil)
            #expect(try await server.socialSignIn(google).code == 200)
            let twitter = try await server.engageToken("twitter")
            guard case .failure(.registrationNeeded(let twoStep)) = try await server.socialSignIn(twitter) else { Issue.record("no 310"); return }
            var values = twoStep.prefill
            values["emailAddress"] = "jun.sato@example.org"
            values["optIn"] = "false"
            let register = try server.builder().socialRegister(values, token: twitter, refreshSecret: .generate(), today: server.today)
            #expect(try await server.send(register).signedIn != nil)
            #expect(try await server.send(register.setting("emailAddress", "jun2@example.org")).code == 200)
            #expect(try await server.server.accountCount() == 2)
        }
    }
}
