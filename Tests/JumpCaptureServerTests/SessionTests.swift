import AsyncHTTPClient
import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// Sessions that end (issue 22, "Sessions"): a password change ends the account's other
/// sessions, a reset all of them and the links sent before; `/oauth/revoke`; refresh chains end
/// `refreshLifetime` after their sign-in; a first password needs a recent sign-in. Through the
/// real HTTP server, with the injected clock.
@Suite(.timeLimit(.minutes(5))) struct SessionTests {
    static let newPassword = "a new battery staple"

    static func changePassword(
        _ server: TestServer, _ accessToken: String, current: String = ServerFixtures.password,
        to password: String = newPassword
    ) throws -> CaptureRequest {
        try server.builder().changePassword(
            ["currentPassword": current, "newPassword": password, "newPasswordConfirm": password],
            accessToken: accessToken, today: server.today)
    }

    static func refresh(
        _ server: TestServer, _ accessToken: String, _ secret: RefreshSecret,
        builder: RequestBuilder? = nil
    ) async throws -> Result<CaptureSuccess, CaptureError> {
        try await server.send(
            (builder ?? server.builder()).refreshAccessToken(
                accessToken: accessToken, refreshSecret: secret,
                epochSeconds: server.clock.now))
    }

    /// An `/oauth/token` grant from a sign-in's authorization code: (access token, refresh token).
    static func grant(_ server: TestServer, _ signedIn: SignInResult) async throws -> (access: String, refresh: String) {
        let code = try #require(signedIn.authorizationCode)
        let answer = try await OAuthTokenTests.token(server, OAuthTokenTests.codeGrant(code), authorization: basic(server))
        return (try #require(answer.json["access_token"]?.stringValue), try #require(answer.json["refresh_token"]?.stringValue))
    }

    static func basic(_ server: TestServer) -> String {
        OAuthTokenTests.basic(server.config.captureClientId.value, OAuthTokenTests.secret)
    }

    static func redeem(_ server: TestServer, refreshToken: String) async throws -> JSONValue {
        try await OAuthTokenTests.token(server, "grant_type=refresh_token&refresh_token=" + refreshToken, authorization: basic(server)).json
    }

    /// The newest email link of a kind.
    static func link(_ server: TestServer, _ kind: String, _ path: String) async throws -> String {
        let message = try #require(try await server.server.outbox().last { $0.kind == kind })
        let link = try #require(OperationTests.link(in: message.body, path: path))
        return try #require(TestServer.query(link)["code"])
    }

    // MARK: password change and reset

    @Test func aPasswordChangeEndsEveryOtherSessionButTheCallers() async throws {
        try await withServer(.socket, configure: OAuthTokenTests.configure) { server in
            let (first, firstSecret) = try await server.register()
            let secondSecret = RefreshSecret.generate()
            let second = try #require(try await server.signIn("ana.ruiz@example.com", secret: secondSecret).signedIn)
            let oauth = try await Self.grant(server, second)
            let forgot = try server.builder().forgotPassword(["signInEmailAddress": "ana.ruiz@example.com"], today: server.today)
            #expect(try await server.send(forgot).isOK)
            let resetCode = try await Self.link(server, "forgot_password", "/password/reset")

            #expect(try await server.send(try Self.changePassword(server, first.accessToken)).isOK)
            // The session that changed it goes on, and still refreshes.
            #expect(try await server.readRecord(first.accessToken).isSuccess)
            guard case .success(.refreshed)? = try? await Self.refresh(server, first.accessToken, firstSecret) else {
                Issue.record("the caller's session no longer refreshes"); return
            }
            // Every other one ends: access token, refresh chain, /oauth/token grant.
            #expect(try await server.readRecord(second.accessToken).code == 200)
            #expect(try await Self.refresh(server, second.accessToken, secondSecret).code == 200)
            #expect(try await server.readRecord(oauth.access).code == 200)
            #expect(try await Self.redeem(server, refreshToken: oauth.refresh)["code"] == 200)
            // And so does the reset link sent before the change.
            #expect(try await server.raw(.POST, "/password/reset", form: "code=\(resetCode)&password=another+password").status == 404)
            #expect(try await server.signIn("ana.ruiz@example.com", Self.newPassword).signedIn != nil)
        }
    }

    /// A change made with an `/oauth/token` access token keeps that grant (its refresh tokens).
    @Test func aPasswordChangeThroughAGrantKeepsTheGrant() async throws {
        try await withServer(.socket, configure: OAuthTokenTests.configure) { server in
            let (registered, _) = try await server.register()
            let oauth = try await Self.grant(server, registered)
            #expect(try await server.send(try Self.changePassword(server, oauth.access)).isOK)
            #expect(try await server.readRecord(registered.accessToken).code == 200)
            #expect(try await server.readRecord(oauth.access).isSuccess)
            #expect(try await Self.redeem(server, refreshToken: oauth.refresh)["stat"] == "ok")
        }
    }

    @Test func aResetEndsEverySessionAndVoidsTheOtherLinks() async throws {
        try await withServer { server in
            let (session, secret) = try await server.register()
            let forgot = try server.builder().forgotPassword(["signInEmailAddress": "ana.ruiz@example.com"], today: server.today)
            #expect(try await server.send(forgot).isOK)
            let older = try await Self.link(server, "forgot_password", "/password/reset")
            #expect(try await server.send(forgot).isOK)
            let newer = try await Self.link(server, "forgot_password", "/password/reset")
            #expect(older != newer)
            let resend = try server.builder().resendVerification(["signInEmailAddress": "ana.ruiz@example.com"], today: server.today)
            #expect(try await server.send(resend).isOK)
            let verify = try await Self.link(server, "verify_email", "/email/verify")

            // Only the newest reset link works.
            #expect(try await server.raw(.GET, "/password/reset?code=" + older).status == 404)
            #expect(
                try await server.raw(.POST, "/password/reset", form: "code=\(older)&password=" + FormEncoding.encode("an older password")).status
                    == 404)
            let reset = try await server.raw(
                .POST, "/password/reset",
                form: "code=\(newer)&password=" + FormEncoding.encode(Self.newPassword) + "&passwordConfirm=" + FormEncoding.encode(Self.newPassword))
            #expect(reset.status == 200, "\(reset.body)")
            // Every session ends, the caller has none to keep; the verification link sent before is void.
            #expect(try await server.readRecord(session.accessToken).code == 200)
            #expect(try await Self.refresh(server, session.accessToken, secret).code == 200)
            #expect(try await server.raw(.GET, "/email/verify?code=" + verify).status == 404)
            #expect(try await server.signIn("ana.ruiz@example.com").code == 210)
            #expect(try await server.signIn("ana.ruiz@example.com", Self.newPassword).signedIn != nil)
        }
    }

    /// A verification email voids the one sent before (registration's): only the newest link works.
    @Test func onlyTheNewestVerificationLinkWorks() async throws {
        try await withServer { server in
            let (session, _) = try await server.register()
            let older = try await Self.link(server, "verify_email", "/email/verify")
            let resend = try server.builder().resendVerification(["signInEmailAddress": "ana.ruiz@example.com"], today: server.today)
            #expect(try await server.send(resend).isOK)
            let newer = try await Self.link(server, "verify_email", "/email/verify")
            #expect(older != newer)
            #expect(try await server.raw(.GET, "/email/verify?code=" + older).status == 404)
            #expect(try await server.record(session.accessToken)["emailVerified"] == nil)
            #expect(try await server.raw(.GET, "/email/verify?code=" + newer).status == 200)
            #expect(try await server.record(session.accessToken)["emailVerified"] != nil)
        }
    }

    // MARK: /oauth/revoke

    @Test func revokeEndsAnAccessTokenAndItsRefreshChainAtOnce() async throws {
        try await withServer { server in
            let (session, secret) = try await server.register()
            let other = try #require(try await server.signIn("ana.ruiz@example.com").signedIn)
            let answer = try await server.send(server.builder().revokeToken(session.accessToken))
            #expect(answer.isOK, "\(answer)")
            #expect(try await server.readRecord(session.accessToken).code == 200)
            #expect(try await Self.refresh(server, session.accessToken, secret).code == 200)
            // Only that session.
            #expect(try await server.readRecord(other.accessToken).isSuccess)
            // RFC 7009: an unknown (or revoked) token answers 200 all the same.
            let again = try await server.raw(
                .POST, "/oauth/revoke", form: "client_id=\(server.config.captureClientId.value)&token=\(session.accessToken)")
            #expect(again.status == 200 && again.body == #"{"stat":"ok"}"#, "\(again.body)")
            let unknown = try await server.raw(
                .POST, "/oauth/revoke", form: "client_id=\(server.config.captureClientId.value)&token=nope&token_type_hint=other")
            #expect(unknown.status == 200 && unknown.body == #"{"stat":"ok"}"#, "\(unknown.body)")
            // Refused requests name what is wrong, and revoke nothing.
            func code(_ form: String) async throws -> JSONValue? {
                try JSONValue.parse(try await server.raw(.POST, "/oauth/revoke", form: form).body)["code"]
            }
            #expect(try await code("token=\(other.accessToken)") == 100)
            #expect(try await code("client_id=someone-else&token=\(other.accessToken)") == 402)
            #expect(try await code("client_id=\(server.config.captureClientId.value)") == 100)
            #expect(try await code("client_id=\(server.config.captureClientId.value)&token=\(other.accessToken)&tokne=x") == 200)
            #expect(try await code("client_id=\(server.config.captureClientId.value)&token=\(other.accessToken)&client_secret=wrong") == 402)
            #expect(try await server.raw(.GET, "/oauth/revoke").status == 405)
            #expect(try await server.readRecord(other.accessToken).isSuccess)
        }
    }

    @Test func revokeEndsAnOAuthGrantFromEitherOfItsTokens() async throws {
        try await withServer(.socket, configure: OAuthTokenTests.configure) { server in
            let (registered, _) = try await server.register()
            // A refresh token (hinted): its grant's access tokens end too.
            let first = try await Self.grant(server, registered)
            #expect(try await server.send(server.builder().revokeToken(first.refresh, hint: "refresh_token")).isOK)
            #expect(try await Self.redeem(server, refreshToken: first.refresh)["code"] == 200)
            #expect(try await server.readRecord(first.access).code == 200)
            // An access token (a wrong hint is only where to look first): its refresh token ends too.
            let signedIn = try #require(try await server.signIn("ana.ruiz@example.com").signedIn)
            let second = try await Self.grant(server, signedIn)
            #expect(try await server.send(server.builder().revokeToken(second.access, hint: "refresh_token")).isOK)
            #expect(try await Self.redeem(server, refreshToken: second.refresh)["code"] == 200)
            // The Capture session of that sign-in is another session: it goes on.
            #expect(try await server.readRecord(signedIn.accessToken).isSuccess)
        }
    }

    // MARK: refresh limit

    @Test func aRefreshChainEndsItsLifetimeAfterTheSignIn() async throws {
        try await withServer { server in
            let (session, secret) = try await server.register()
            let signedInAt = server.clock.now
            server.clock.advance(20 * 86_400)
            guard case .success(.refreshed(let second, let lifetime)) = try await Self.refresh(server, session.accessToken, secret) else {
                Issue.record("a refresh within 30 days of the sign-in"); return
            }
            #expect(lifetime == 3600)
            // A refresh does not start the 30 days anew: the last token lasts up to their end.
            server.clock.advance(signedInAt + 30 * 86_400 - 400 - server.clock.now)
            guard case .success(.refreshed(let third, let shortened)) = try await Self.refresh(server, second, secret) else {
                Issue.record("a refresh just before the end"); return
            }
            #expect(shortened == 400)
            server.clock.advance(400)
            let late = try await Self.refresh(server, third, secret)
            #expect(late.code == 200, "\(late)")
            #expect(late.error?.description.contains("older than 30 days") == true, "\(late)")
            #expect(try await server.readRecord(third).code == 414)
        }
    }

    /// The same limit from the rows: another server on the same database (its table of
    /// refreshable tokens is empty), and `server.refreshLifetime` set.
    @Test func theLimitHoldsFromTheRowsAndFollowsTheSetting() async throws {
        try await withServer(configure: { $0.server.refreshLifetime = 7200 }) { server in
            let (session, secret) = try await server.register()
            let setup = CaptureServerSetup(
                config: server.config, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer,
                databasePath: server.databasePath, clock: { server.clock.now })
            let other = try await EmbeddedCaptureServer.start(setup, logger: ServerFixtures.quietLogger)
            do {
                let builder = RequestBuilder(
                    config: server.config, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer,
                    locale: ServerFixtures.english, capture: ServerURL(other.url)!)
                server.clock.advance(7199)
                guard
                    case .success(.refreshed(let token, let lifetime)) = try await Self.refresh(server, session.accessToken, secret, builder: builder)
                else {
                    Issue.record("a refresh within refreshLifetime"); await other.stop(); return
                }
                #expect(lifetime == 1)
                server.clock.advance(1)
                #expect(try await Self.refresh(server, token, secret, builder: builder).code == 200)
                #expect(try await Self.refresh(server, token, secret).code == 200)
            } catch {
                await other.stop()
                throw error
            }
            await other.stop()
        }
    }

    @Test func anOAuthGrantEndsItsLifetimeAfterTheRedemption() async throws {
        try await withServer(.socket, configure: OAuthTokenTests.configure) { server in
            let (registered, _) = try await server.register()
            let grant = try await Self.grant(server, registered)
            server.clock.advance(20 * 86_400)
            let second = try await Self.redeem(server, refreshToken: grant.refresh)
            let refresh = try #require(second["refresh_token"]?.stringValue, "\(second)")
            server.clock.advance(10 * 86_400)
            let third = try await Self.redeem(server, refreshToken: refresh)
            #expect(third["code"] == 200, "\(third)")
            #expect(third["error_description"]?.stringValue?.contains("expired") == true, "\(third)")
        }
    }

    // MARK: a first password

    @Test func aFirstPasswordNeedsARecentSignIn() async throws {
        try await withServer(.socket) { server in
            let token = try await server.engageToken("google", identity: "marta.keller@example.com")
            let social = try #require(try await server.socialSignIn(token).signedIn)
            let values = { (accessToken: String) in try Self.changePassword(server, accessToken, current: "-", to: "marta's own password") }
            server.clock.advance(301)
            let late = try await server.send(try values(social.accessToken))
            let error = try #require(late.error?.serverError, "\(late)")
            #expect(error.code == 403)
            #expect(error.error == "reauthentication_required")
            #expect(error.body["max_age"] == 300)
            #expect(error.description == ServerFixtures.localizer.text("jumpForms.server.reauthenticate", for: ServerFixtures.english))
            #expect(try await server.signIn("marta.keller@example.com", "marta's own password").code == 210)
            // A new sign-in may, for five minutes.
            let again = try #require(
                try await server.socialSignIn(try await server.engageToken("google", identity: "marta.keller@example.com")).signedIn)
            server.clock.advance(300)
            #expect(try await server.send(try values(again.accessToken)).isOK)
            #expect(try await server.signIn("marta.keller@example.com", "marta's own password").signedIn != nil)
            // The older session ended with the change; once there is a password, the current
            // password is the proof, however old the session.
            #expect(try await server.readRecord(social.accessToken).code == 200)
            server.clock.advance(3000)
            let change = try Self.changePassword(server, again.accessToken, current: "marta's own password", to: "marta's next password")
            #expect(try await server.send(change).isOK)
        }
    }

    @Test func aFirstPasswordFollowsPrivilegedSessionMaxAge() async throws {
        try await withServer(.socket, configure: { $0.server.privilegedSessionMaxAge = 60 }) { server in
            let social = try #require(try await server.socialSignIn(try await server.engageToken("facebook")).signedIn)
            server.clock.advance(61)
            let late = try await server.send(try Self.changePassword(server, social.accessToken, current: "-", to: "tomasz's password"))
            #expect(late.code == 403, "\(late)")
            #expect(late.error?.serverError?.body["max_age"] == 60)
        }
    }
}
