import AsyncHTTPClient
import Crypto
import Foundation
import JumpCapture
import JumpCaptureNIO
@testable import JumpCaptureServer
import JumpForms
import JumpWebPages
import NIOCore
import NIOHTTP1
import Testing
import TestSupport

/// The security of `jump-forms serve` (issue 34, section 1), through the real HTTP server with
/// the injected clock: grants that end with a password reset or a replay, short URLs that are
/// no open redirect, guessing of the app's secrets slowed as sign-in is, implicit tokens to the
/// registered redirect URI only, CSRF tokens bound to the server, the headers of every answer,
/// and the `Host` check against DNS rebinding.
@Suite(.timeLimit(.minutes(5))) struct ServeSecurityTests {
    static func authorization(_ server: TestServer) -> String {
        OAuthTokenTests.basic(server.config.captureClientId.value, OAuthTokenTests.secret)
    }

    static func redeem(_ server: TestServer, code: String) async throws -> JSONValue {
        try await OAuthTokenTests.token(server, OAuthTokenTests.codeGrant(code), authorization: authorization(server)).json
    }

    // MARK: grants

    /// A code issued before a password reset (or change) does not redeem after it: it is a
    /// session not yet begun.
    @Test func aPasswordResetOrChangeEndsPendingAuthorizationCodes() async throws {
        try await withServer(.socket, configure: OAuthTokenTests.configure) { server in
            let (registered, _) = try await server.register()
            let pending = try #require(registered.authorizationCode)
            let forgot = try server.builder().forgotPassword(["signInEmailAddress": "ana.ruiz@example.com"], today: server.today)
            #expect(try await server.send(forgot).isOK)
            let code = try await SessionTests.link(server, "forgot_password", "/password/reset")
            let password = FormEncoding.encode(SessionTests.newPassword)
            let reset = try await server.raw(.POST, "/password/reset", form: "code=\(code)&password=\(password)&passwordConfirm=\(password)")
            #expect(reset.status == 200, "\(reset.body)")
            let answer = try await Self.redeem(server, code: pending)
            #expect(answer["code"] == 200, "\(answer)")
            #expect(answer["access_token"] == nil)

            // A change: the codes of other sign-ins end, the session that changed it goes on.
            let signedIn = try #require(try await server.signIn("ana.ruiz@example.com", SessionTests.newPassword).signedIn)
            let other = try #require(try await server.signIn("ana.ruiz@example.com", SessionTests.newPassword).signedIn?.authorizationCode)
            let change = try SessionTests.changePassword(server, signedIn.accessToken, current: SessionTests.newPassword, to: "yet another password")
            #expect(try await server.send(change).isOK)
            #expect(try await Self.redeem(server, code: other)["code"] == 200)
            #expect(try await server.readRecord(signedIn.accessToken).isSuccess)
        }
    }

    /// RFC 6749 section 4.1.2: a code redeemed twice revokes the tokens of the first
    /// redemption; OAuth 2.0 Security BCP section 4.14.2: a rotated refresh token presented
    /// again ends its whole chain.
    @Test func aReplayEndsTheGrant() async throws {
        try await withServer(.socket, configure: OAuthTokenTests.configure) { server in
            let code = try #require(try await server.register().result.authorizationCode)
            let first = try await Self.redeem(server, code: code)
            let access = try #require(first["access_token"]?.stringValue)
            let refresh = try #require(first["refresh_token"]?.stringValue)
            #expect(try await server.readRecord(access).isSuccess)
            let replay = try await Self.redeem(server, code: code)
            #expect(replay["code"] == 200 && replay["access_token"] == nil, "\(replay)")
            #expect(try await server.readRecord(access).code == 200)
            #expect(try await SessionTests.redeem(server, refreshToken: refresh)["code"] == 200)

            // A refresh token presented twice: the chain it started ends, the tokens of the
            // rotation included.
            let second = try #require(try await server.signIn("ana.ruiz@example.com").signedIn?.authorizationCode)
            let grant = try await Self.redeem(server, code: second)
            let oldRefresh = try #require(grant["refresh_token"]?.stringValue)
            let rotated = try await SessionTests.redeem(server, refreshToken: oldRefresh)
            let newAccess = try #require(rotated["access_token"]?.stringValue, "\(rotated)")
            let newRefresh = try #require(rotated["refresh_token"]?.stringValue)
            #expect(try await server.readRecord(newAccess).isSuccess)
            #expect(try await SessionTests.redeem(server, refreshToken: oldRefresh)["code"] == 200)
            #expect(try await server.readRecord(newAccess).code == 200)
            #expect(try await SessionTests.redeem(server, refreshToken: newRefresh)["code"] == 200)
            // Another grant of the account goes on.
            let third = try #require(try await server.signIn("ana.ruiz@example.com").signedIn?.authorizationCode)
            #expect(try await Self.redeem(server, code: third)["stat"] == "ok")
        }
    }

    // MARK: guessing the app's secrets

    /// Wrong client secrets (`/oauth/token`, `/oauth/revoke`) and API keys (`auth_info`)
    /// count per client address as wrong passwords do, and the address waits the same way:
    /// 510 with `retry_after`, before anything is compared (the right secret too).
    @Test func wrongSecretsCountPerClientAddressAndLock() async throws {
        try await withServer(
            .socket,
            configure: {
                OAuthTokenTests.configure(&$0)
                $0.server.apiKey = Located("the-app-secret", at: ServerFixtures.here)
                $0.server.clientFailureLimit = 3
                $0.server.signInWait = 4
            }
        ) { server in
            let client = server.config.captureClientId.value
            let wrong = OAuthTokenTests.basic(client, "not the secret")
            for _ in 0..<3 {
                #expect(try await OAuthTokenTests.token(server, OAuthTokenTests.codeGrant("x"), authorization: wrong).json["code"] == 402)
            }
            // Locked: even the right secret waits.
            let locked = try await OAuthTokenTests.token(server, OAuthTokenTests.codeGrant("x"), authorization: Self.authorization(server))
            #expect(locked.status == 429)
            #expect(locked.json["code"] == 510 && locked.json["retry_after"] == 4, "\(locked.json)")
            // The same count: auth_info and sign-in wait too.
            let info = try await server.raw(.POST, "/api/v2/auth_info", form: "apiKey=the-app-secret&token=x")
            #expect(info.status == 429 && info.body.contains(#""code":510"#), "\(info.body)")
            #expect(try await server.signIn("ana.ruiz@example.com").code == 510)
            server.clock.advance(4)
            // Free again: the right secret works; a wrong API key counts and locks for longer.
            #expect(
                try await OAuthTokenTests.token(server, OAuthTokenTests.codeGrant("x"), authorization: Self.authorization(server)).json["code"] == 200
            )
            let wrongKey = try JSONValue.parse(try await server.raw(.POST, "/api/v2/auth_info", form: "apiKey=guess&token=x").body)
            #expect(wrongKey["err"]?["code"] == 3, "\(wrongKey)")
            let lockedKey = try JSONValue.parse(try await server.raw(.POST, "/api/v2/auth_info", form: "apiKey=the-app-secret&token=x").body)
            #expect(lockedKey["code"] == 510 && lockedKey["retry_after"] == 8, "\(lockedKey)")
            server.clock.advance(8)
            // `/oauth/revoke`'s client secret counts too.
            let revoke = try await server.raw(
                .POST, "/oauth/revoke", form: "token=x&client_id=\(client)&client_secret=guess")
            #expect(revoke.body.contains(#""code":402"#), "\(revoke.body)")
            let after = try await server.raw(.POST, "/oauth/revoke", form: "token=x&client_id=\(client)&client_secret=\(OAuthTokenTests.secret)")
            #expect(after.body.contains(#""code":510"#), "\(after.body)")
        }
    }

    // MARK: short URLs

    static func shorten(_ server: TestServer, _ urls: [String], credential: String) async throws -> JSONValue {
        let lists = JSONValue.object([("activity", .array(urls.map(JSONValue.string)))]).serialized()
        return try JSONValue.parse(try await server.raw(.POST, "/openid/get_urls", form: "urls=\(FormEncoding.encode(lists))&\(credential)").body)
    }

    /// Short URLs need a credential (a device token or the app's key), go to absolute http(s)
    /// URLs only, at most 20 a request; a stored target that is not one does not redirect.
    @Test func shortURLsAreNoOpenRedirect() async throws {
        try await withEngageServer(flow: EngageSharingTests.flow, identities: EngageSharingTests.identities) { server in
            let token = try await EngageSharingTests.deviceToken(server, "twitter")
            let url = "https://example.com/welcome"
            let anonymous = try await Self.shorten(server, [url], credential: "device=android")
            #expect(anonymous == ["stat": "fail", "err": ["code": 0, "msg": "Missing parameter: apiKey"]])
            #expect(try await Self.shorten(server, [url], credential: "device_token=unknown")["err"]?["code"] == 0)
            // No API key configured: none matches.
            #expect(try await Self.shorten(server, [url], credential: "apiKey=")["err"]?["code"] == 3)
            #expect(try await Self.shorten(server, [url], credential: "device_token=\(token)")["stat"] == "ok")
            for target in [
                "javascript:alert(document.domain)", "JavaScript://example.com/%0Aalert(1)", "data:text/html,<script>alert(1)</script>",
                "vbscript:msgbox(1)", "//evil.example/", "/relative", "https:///path", "java\tscript:alert(1)", "https://exa mple.com/",
                " https://example.com/", "https://example.com/\n", "https:\\\\evil.example/", "https://example.com\\@evil.example/"
            ] {
                let answer = try await Self.shorten(server, [target], credential: "device_token=\(token)")
                #expect(answer["err"]?["code"] == 1, "\(target.debugDescription): \(answer)")
            }
            let many = (0..<21).map { "https://example.com/\($0)" }
            let tooMany = try await Self.shorten(server, many, credential: "device_token=\(token)")
            #expect(tooMany["err"]?["msg"]?.stringValue?.contains("at most 20") == true, "\(tooMany)")
            #expect(try await Self.shorten(server, Array(many.prefix(20)), credential: "device_token=\(token)")["stat"] == "ok")

            // `/api/v2/activity` with `url_shortening`: the same targets only.
            let activity = JSONValue.object([("action", "shared"), ("url", "javascript:alert(1)")]).serialized()
            let posted = try await server.raw(
                .POST, "/api/v2/activity", form: "activity=\(FormEncoding.encode(activity))&device_token=\(token)&url_shortening=true")
            #expect(try JSONValue.parse(posted.body)["err"]?["code"] == 1, "\(posted.body)")
            #expect(try await server.server.feed().isEmpty)

            // A target stored before the check (an older database) does not redirect.
            try await server.server.service.store.execute("INSERT INTO short_urls (code, url, created_at) VALUES ('old1', 'javascript:alert(1)', 0)")
            let old = try await server.raw(.GET, "/s/old1")
            #expect(old.status == 404 && old.headers.first(name: "Location") == nil)
        }
        // The app's key is a credential too; a wrong one counts as a guess.
        try await withServer(.socket, configure: { $0.server.apiKey = Located("the-app-secret", at: ServerFixtures.here) }) { server async throws in
            #expect(try await Self.shorten(server, ["https://example.com/"], credential: "apiKey=the-app-secret")["stat"] == "ok")
            #expect(try await Self.shorten(server, ["https://example.com/"], credential: "apiKey=guess")["err"]?["code"] == 3)
        }
    }

    // MARK: hosted pages

    /// `response_type=token` goes to the registered redirect URI only: not another path of its
    /// origin, not a loopback address that is not it. A code may still go to any path of the
    /// origin (it is useless without the client secret).
    @Test func anImplicitTokenGoesOnlyToTheRegisteredRedirectURI() async throws {
        try await withServer(.socket) { server in
            let browser = PageBrowser(server)
            func page(_ type: String, _ uri: String) async throws -> PageBrowser.Page {
                try await browser.get("/forms/signInForm?locale=en-US&response_type=\(type)&redirect_uri=" + FormEncoding.encodeComponent(uri))
            }
            #expect(try await page("token", "https://example.com/cb").status == 200)
            #expect(try await page("token", "https://example.com/cb?from=app").status == 200)
            for uri in [
                "https://example.com/other", "https://example.com/cb/more", "https://example.com/cb/../other", "http://example.com/cb",
                "https://example.com:8443/cb", "https://sub.example.com/cb", "http://127.0.0.1:9/done", "https://example.com/CB",
                "https://example.com\\@evil.example/cb"
            ] {
                let refused = try await page("token", uri)
                #expect(refused.status == 400, "\(uri)")
                #expect(!refused.body.contains("<form"), "\(uri)")
            }
            #expect(try await page("code", "https://example.com/other").status == 200)
            #expect(try await page("code", "http://127.0.0.1:9/done").status == 200)
        }
    }

    /// The CSRF token must be one this server issued: a value planted in the cookie (by a
    /// sibling subdomain, or over plain HTTP) and repeated in the form is refused.
    @Test func aPlantedCSRFTokenIsRefused() async throws {
        try await withServer(.socket) { server in
            let target = "/forms/registrationForm?locale=en-US"
            for planted in [String(repeating: "ab", count: 32), String(repeating: "0", count: 96)] {
                let browser = PageBrowser(server)
                browser.plant("jf_csrf", planted)
                let forged = try await browser.post(target, HostedFormTests.registration(), csrf: planted)
                #expect(forged.status == 403, "\(planted)")
                #expect(forged.content(id: "form-errors")?.contains("This form has expired or was sent from another site.") == true)
                // The answer hands out a token of the server's: with it the form goes through.
                let issued = try #require(browser.cookies["jf_csrf"])
                #expect(issued != planted && issued.count == 96)
            }
            #expect(try await server.server.accountCount() == 0)
            // A token of another server (another key) is no use either.
            let other = try await TestServer.start()
            let foreign = try #require(try await PageBrowser(other).get(target).csrf)
            await other.stop()
            let browser = PageBrowser(server)
            browser.plant("jf_csrf", foreign)
            #expect(try await browser.post(target, HostedFormTests.registration(), csrf: foreign).status == 403)
            let form = try await browser.get(target)
            #expect(try await browser.post(target, HostedFormTests.registration(), csrf: form.csrf).status == 200)
        }
    }

    /// One request on a fresh connection, with `headers` (the `Host` given or the server's).
    static func exchange(_ server: TestServer, _ method: String, _ path: String, headers: [String] = [], body: String = "") async throws
        -> RawHTTP.Answer
    {
        let port = try #require(server.url.port)
        var lines = ["\(method) \(path) HTTP/1.1"]
        if !headers.contains(where: { $0.lowercased().hasPrefix("host:") }) { lines.append("Host: 127.0.0.1:\(port)") }
        lines += headers + ["Connection: close"]
        if method == "POST" { lines += ["Content-Type: application/x-www-form-urlencoded", "Content-Length: \(body.utf8.count)"] }
        return try await RawHTTP.exchange(port: port, Array((lines.joined(separator: "\r\n") + "\r\n\r\n" + body).utf8))
    }

    /// A POST from another site (its `Origin`, or the browser's `Sec-Fetch-Site`) is refused
    /// (403) before it runs; the server's own posts and clients that send neither go on.
    @Test func aPostFromAForeignOriginIsRefused() async throws {
        try await withServer(.socket, configure: { $0.server.publicURL = Located("https://capture.example.com", at: ServerFixtures.here) }) {
            server in
            let port = try #require(server.url.port)
            let form = "signInEmailAddress=nobody%40example.com&currentPassword=x"
            for headers in [
                ["Origin: https://evil.example"], ["Origin: http://127.0.0.1:1"], ["Origin: http://localhost:\(port)"],
                ["Origin: https://capture.example.com:8443"], ["Origin: https://evil.example", "Sec-Fetch-Site: same-origin"],
                // A sandboxed frame, or any page under no-referrer: the browser says where it is.
                ["Origin: null", "Sec-Fetch-Site: cross-site"], ["Sec-Fetch-Site: same-site"]
            ] {
                let answer = try await Self.exchange(server, "POST", "/forms/signInForm?locale=en-US", headers: headers, body: form)
                #expect(answer.status == 403, "\(headers)")
                #expect(answer.body.contains(#""error":"forbidden_origin""#), "\(headers): \(answer.body)")
            }
            let json = try await Self.exchange(server, "POST", "/oauth/auth_native_traditional", headers: ["Origin: https://evil.example"], body: "")
            #expect(json.status == 403)
            // The server's own posts: `Origin: null` is what a browser sends for them under
            // `Referrer-Policy: no-referrer`.
            for headers in [
                ["Origin: http://127.0.0.1:\(port)"], ["Origin: https://capture.example.com"], ["Origin: null", "Sec-Fetch-Site: same-origin"],
                ["Origin: http://127.0.0.1:\(port)", "Sec-Fetch-Site: same-origin"], ["Origin: null"], ["Sec-Fetch-Site: none"]
            ] {
                let answer = try await Self.exchange(server, "POST", "/forms/signInForm?locale=en-US", headers: headers, body: form)
                // Past the Origin check: the CSRF check answers.
                #expect(answer.status == 403 && answer.body.contains("This form has expired"), "\(headers): \(answer.body)")
            }
            #expect(try await Self.exchange(server, "POST", "/forms/signInForm?locale=en-US", body: form).body.contains("This form has expired"))
            // A GET carries no Origin check.
            #expect(try await Self.exchange(server, "GET", "/health", headers: ["Origin: https://evil.example"]).status == 200)
        }
    }

    // MARK: every answer

    /// `Content-Security-Policy`, `X-Content-Type-Options` and `Referrer-Policy` on every
    /// answer: pages, JSON, errors, redirects, refusals of the Host check.
    @Test func everyAnswerCarriesTheSecurityHeaders() async throws {
        try await withEngageServer(flow: EngageSharingTests.flow, identities: EngageSharingTests.identities) { server in
            let token = try await EngageSharingTests.deviceToken(server, "twitter")
            let short = try await Self.shorten(server, ["https://example.com/"], credential: "device_token=\(token)")
            let shortPath = String(
                try #require(short.at("urls.activity")?["https://example.com/"]?.stringValue).dropFirst(server.url.description.count))
            for (method, path, headers) in [
                ("GET", "/forms/signInForm?locale=en-US", [String]()), ("GET", "/health", []), ("GET", "/nowhere", []),
                ("POST", "/oauth/token", []), ("GET", shortPath, []), ("GET", Stylesheet.path, []), ("GET", "/health", ["Host: evil.example"]),
                ("HEAD", "/forms/signInForm", [])
            ] {
                let answer = try await Self.exchange(server, method, path, headers: headers)
                let head = answer.head.lowercased()
                #expect(head.contains("\r\ncontent-security-policy: default-src 'self'; frame-ancestors 'none'\r\n"), "\(path): \(answer.head)")
                #expect(head.contains("\r\nx-content-type-options: nosniff\r\n"), "\(path)")
                #expect(head.contains("\r\nreferrer-policy: no-referrer\r\n"), "\(path)")
            }
        }
    }

    /// In preview mode the gallery frames the forms (`frame-ancestors 'self'`), and allows
    /// its own inline style and script by their hashes, nothing else inline; the Host check
    /// holds there too.
    @Test func thePreviewGalleryAllowsItsOwnInlineCodeOnly() async throws {
        var (setup, folder, clock, config) = try TestServer.setup(configure: { _ in }, identities: [], schema: nil)
        setup.preview = PreviewGallery(.init(flowName: setup.flow.name.value, forms: ["signInForm"], locales: [ServerFixtures.english]))
        let embedded = try await EmbeddedCaptureServer.start(setup, logger: ServerFixtures.quietLogger)
        let server = TestServer(
            server: embedded.server, embedded: embedded, router: nil, folder: folder, clock: clock, config: config,
            url: ServerURL(embedded.url)!, transport: AsyncHTTPTransport(timeoutSeconds: 30, client: ServerFixtures.client),
            decoder: ResponseDecoder(flow: ServerFixtures.flow, config: config))
        let gallery = try await server.raw(.GET, "/preview")
        let policy = try #require(gallery.headers.first(name: "Content-Security-Policy"))
        #expect(policy.hasPrefix("default-src 'self'; style-src 'self' 'sha256-") && policy.hasSuffix("frame-ancestors 'none'"), "\(policy)")
        for tag in ["style", "script"] {
            let open = try #require(gallery.body.range(of: "<\(tag)>"))
            let close = try #require(gallery.body.range(of: "</\(tag)>", range: open.upperBound..<gallery.body.endIndex))
            let digest = SHA256Digest.of(Array(gallery.body[open.upperBound..<close.lowerBound].utf8))
            #expect(policy.contains("\(tag)-src 'self' 'sha256-\(digest)'"), "\(tag): \(policy)")
        }
        let form = try await server.raw(.GET, "/forms/signInForm?locale=en-US&preview=1")
        #expect(form.headers.first(name: "Content-Security-Policy") == "default-src 'self'; frame-ancestors 'self'")
        // `preview` checks Host as `serve` does (DNS rebinding).
        #expect(try await Self.exchange(server, "GET", "/preview", headers: ["Host: evil.example"]).status == 421)
        #expect(try await Self.exchange(server, "GET", "/preview", headers: ["Host: localhost"]).status == 200)
        await server.stop()
    }

    // MARK: Host

    /// DNS rebinding: the server answers to its address, IP addresses, `localhost` and the
    /// host of `server.publicURL`; any other name is refused with 421 before anything runs.
    @Test func onlyKnownHostsAreAnswered() async throws {
        try await withServer(.socket, configure: { $0.server.publicURL = Located("https://Capture.Example.com", at: ServerFixtures.here) }) {
            server in
            let port = try #require(server.url.port)
            for host in [
                "127.0.0.1:\(port)", "localhost:\(port)", "LOCALHOST", "localhost.", "[::1]:\(port)", "10.0.2.2:\(port)", "capture.example.com"
            ] {
                #expect(try await Self.exchange(server, "GET", "/health", headers: ["Host: \(host)"]).status == 200, "\(host)")
            }
            for host in ["evil.example", "evil.example:\(port)", "127.0.0.1.evil.example", "localhost.evil.example", "example.com", "1.2.3"] {
                let answer = try await Self.exchange(server, "GET", "/health", headers: ["Host: \(host)"])
                #expect(answer.status == 421, "\(host)")
                #expect(answer.body.contains(#""error":"misdirected_request""#), "\(host): \(answer.body)")
            }
            // `serve --tls-host` names are answered too.
            let check = HostCheck(boundHost: "127.0.0.1", publicURL: nil, names: ["dev.example.test"])
            #expect(check.answers("dev.example.test") && !check.answers("other.example.test") && !check.answers("example.test"))
            // Nothing runs for such a request: no account is made.
            let register = try await Self.exchange(server, "POST", "/oauth/register_native_traditional", headers: ["Host: evil.example"], body: "")
            #expect(register.status == 421)
        }
    }
}

/// SHA-256 in Base64, as CSP hash sources write it.
enum SHA256Digest {
    static func of(_ bytes: [UInt8]) -> String {
        Data(Crypto.SHA256.hash(data: bytes)).base64EncodedString()
    }
}
