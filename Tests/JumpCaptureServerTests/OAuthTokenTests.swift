import AsyncHTTPClient
import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import NIOCore
import NIOHTTP1
import Testing
import TestSupport

/// `/oauth/token`: what an app's server does with the `authorization_code` of a sign-in or
/// registration with `response_type=code_and_token` (the SDKs hand it to the app).
@Suite(.timeLimit(.minutes(5))) struct OAuthTokenTests {
    static let secret = "client-secret-for-tests-0123456789"
    static let redirect = "https://example.com/cb"

    static func configure(_ config: inout ClientConfig) {
        config.responseType = Located("code_and_token", at: ServerFixtures.here)
        config.server.clientSecret = Located(secret, at: ServerFixtures.here)
    }

    static func basic(_ id: String, _ secret: String) -> String {
        "Basic " + Data("\(id):\(secret)".utf8).base64EncodedString()
    }

    /// POSTs a form to `/oauth/token`, with an `Authorization` header when given.
    static func token(_ server: TestServer, _ form: String, authorization: String? = nil) async throws -> (status: Int, json: JSONValue) {
        var request = HTTPClientRequest(url: server.url.description + "/oauth/token")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        if let authorization { request.headers.add(name: "Authorization", value: authorization) }
        request.body = .bytes(ByteBuffer(string: form))
        let response = try await ServerFixtures.client.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), try JSONValue.parse(String(buffer: body)))
    }

    static func codeGrant(_ code: String, redirect: String = OAuthTokenTests.redirect) -> String {
        "grant_type=authorization_code&code=\(code)&redirect_uri=" + FormEncoding.encodeComponent(redirect)
    }

    @Test func aCodeIsRedeemedOnceForTokensThatWork() async throws {
        try await withServer(.socket, configure: Self.configure) { server in
            let (registered, _) = try await server.register()
            let code = try #require(registered.authorizationCode)
            let client = server.config.captureClientId.value
            let answer = try await Self.token(server, Self.codeGrant(code), authorization: Self.basic(client, Self.secret))
            #expect(answer.status == 200)
            #expect(answer.json["stat"] == "ok")
            #expect(answer.json["token_type"] == "Bearer")
            #expect(answer.json["expires_in"] == 3600)
            let access = try #require(answer.json["access_token"]?.stringValue)
            #expect(answer.json["refresh_token"]?.stringValue?.count == 64)
            #expect(try await server.record(access)["email"] == "ana.ruiz@example.com")
            // Used once.
            let again = try await Self.token(server, Self.codeGrant(code), authorization: Self.basic(client, Self.secret))
            #expect(again.json["code"] == 200, "\(again.json)")
            // The code is stored hashed: its text is nowhere in the database.
            let store = server.server.service.store
            let stored =
                try await store.texts("SELECT code_hash FROM authorization_codes").compactMap { $0 }
                + store.texts("SELECT token_hash FROM refresh_tokens").compactMap { $0 }
            #expect(!stored.contains(code))
            #expect(!stored.contains(answer.json["refresh_token"]?.stringValue ?? ""))
            // The client's id and secret may come as parameters instead.
            let signIn = try #require(try await server.signIn("ana.ruiz@example.com").signedIn)
            let second = try #require(signIn.authorizationCode)
            let parameters = Self.codeGrant(second) + "&client_id=\(client)&client_secret=\(Self.secret)"
            #expect(try await Self.token(server, parameters).json["stat"] == "ok")
        }
    }

    /// JRCaptureError.h: 415 "the supplied authorization_code has expired".
    @Test func anExpiredCodeAnswers415() async throws {
        try await withServer(.socket, configure: Self.configure) { server in
            let code = try #require(try await server.register().result.authorizationCode)
            server.clock.advance(121)
            let answer = try await Self.token(
                server, Self.codeGrant(code), authorization: Self.basic(server.config.captureClientId.value, Self.secret))
            #expect(answer.json["code"] == 415, "\(answer.json)")
            #expect(answer.json["error"] == "authorization_code_expired")
            // Just in time is in time.
            let fresh = try #require(try await server.signIn("ana.ruiz@example.com").signedIn?.authorizationCode)
            server.clock.advance(119)
            #expect(
                try await Self.token(server, Self.codeGrant(fresh), authorization: Self.basic(server.config.captureClientId.value, Self.secret)).json[
                    "stat"] == "ok")
        }
    }

    /// 402: a wrong secret or client id, or a server without `clientSecret`; the code stays
    /// usable.
    @Test func theClientMustAuthenticate() async throws {
        try await withServer(.socket, configure: Self.configure) { server in
            let code = try #require(try await server.register().result.authorizationCode)
            let client = server.config.captureClientId.value
            for authorization in [Self.basic(client, "wrong"), Self.basic("someoneelse", Self.secret), Self.basic(client, "")] {
                let answer = try await Self.token(server, Self.codeGrant(code), authorization: authorization)
                #expect(answer.json["code"] == 402, "\(answer.json)")
            }
            #expect(try await Self.token(server, Self.codeGrant(code)).json["code"] == 100)
            #expect(try await Self.token(server, Self.codeGrant(code), authorization: "Bearer \(Self.secret)").json["code"] == 205)
            let contradicting = try await Self.token(
                server, Self.codeGrant(code) + "&client_secret=other", authorization: Self.basic(client, Self.secret))
            #expect(contradicting.json["code"] == 200)
            #expect(try await Self.token(server, Self.codeGrant(code), authorization: Self.basic(client, Self.secret)).json["stat"] == "ok")
        }
        try await withServer(.socket, configure: { $0.responseType = Located("code_and_token", at: ServerFixtures.here) }) { server in
            let code = try #require(try await server.register().result.authorizationCode)
            let answer = try await Self.token(server, Self.codeGrant(code), authorization: Self.basic(server.config.captureClientId.value, ""))
            #expect(answer.json["code"] == 402)
            #expect(answer.json["error_description"]?.stringValue?.contains("server.clientSecret") == true)
        }
    }

    /// JRCaptureError.h: 420 "occurs in the oauth/token API call with the authorization_code
    /// grant type". A mismatch does not use the code up.
    @Test func aRedirectURIMismatchAnswers420() async throws {
        try await withServer(.socket, configure: Self.configure) { server in
            let code = try #require(try await server.register().result.authorizationCode)
            let authorization = Self.basic(server.config.captureClientId.value, Self.secret)
            let mismatch = try await Self.token(server, Self.codeGrant(code, redirect: "https://example.com/other"), authorization: authorization)
            #expect(mismatch.json["code"] == 420, "\(mismatch.json)")
            #expect(mismatch.json["error"] == "redirect_uri_mismatch")
            #expect(try await Self.token(server, "grant_type=authorization_code&code=\(code)", authorization: authorization).json["code"] == 100)
            #expect(try await Self.token(server, Self.codeGrant(code), authorization: authorization).json["stat"] == "ok")
        }
    }

    @Test func aRefreshTokenIsRedeemedOnce() async throws {
        try await withServer(.socket, configure: Self.configure) { server in
            let code = try #require(try await server.register().result.authorizationCode)
            let authorization = Self.basic(server.config.captureClientId.value, Self.secret)
            let first = try await Self.token(server, Self.codeGrant(code), authorization: authorization)
            let refresh = try #require(first.json["refresh_token"]?.stringValue)
            // A second grant, redeemed with the first, for the lifetime below (the replay of the
            // first's refresh token ends the first).
            let otherCode = try #require(try await server.signIn("ana.ruiz@example.com").signedIn?.authorizationCode)
            let other = try #require(
                try await Self.token(server, Self.codeGrant(otherCode), authorization: authorization).json["refresh_token"]?.stringValue)
            server.clock.advance(4000)
            let oldAccess = try #require(first.json["access_token"]?.stringValue)
            #expect(try await server.readRecord(oldAccess).code == 414)
            let renewed = try await Self.token(server, "grant_type=refresh_token&refresh_token=\(refresh)", authorization: authorization)
            #expect(renewed.json["stat"] == "ok", "\(renewed.json)")
            let access = try #require(renewed.json["access_token"]?.stringValue)
            #expect(access != oldAccess)
            #expect(try await server.record(access)["email"] == "ana.ruiz@example.com")
            let next = try #require(renewed.json["refresh_token"]?.stringValue)
            #expect(next != refresh)
            #expect(
                try await Self.token(server, "grant_type=refresh_token&refresh_token=\(refresh)", authorization: authorization).json["code"] == 200)
            let otherNext = try #require(
                try await Self.token(server, "grant_type=refresh_token&refresh_token=\(other)", authorization: authorization).json["refresh_token"]?
                    .stringValue)
            // Refresh tokens last until 30 days after the code's redemption (renewing does not extend it).
            server.clock.advance(30 * 86_400 - 4000 + 1)
            let late = try await Self.token(server, "grant_type=refresh_token&refresh_token=\(otherNext)", authorization: authorization)
            #expect(late.json["code"] == 200)
            #expect(late.json["error_description"]?.stringValue?.contains("expired") == true)
        }
    }

    @Test func badRequestsAreNamed() async throws {
        try await withServer(.socket, configure: Self.configure) { server in
            let authorization = Self.basic(server.config.captureClientId.value, Self.secret)
            #expect(try await Self.token(server, "code=x&redirect_uri=y", authorization: authorization).json["code"] == 100)
            #expect(try await Self.token(server, "grant_type=password&code=x", authorization: authorization).json["code"] == 200)
            let unknown = try await Self.token(server, "grant_type=authorization_code&cod=x", authorization: authorization)
            #expect(unknown.json["error_description"]?.stringValue?.contains("did you mean 'code'") == true, "\(unknown.json)")
            #expect(
                try await Self.token(server, "grant_type=refresh_token&refresh_token=a&refresh_token=b", authorization: authorization).json["code"]
                    == 201)
            #expect(try await Self.token(server, Self.codeGrant("nope"), authorization: authorization).json["code"] == 200)
            // POST only: a secret in a query string ends up in URLs and their logs.
            let get = try await server.raw(.GET, "/oauth/token?" + Self.codeGrant("nope"))
            #expect(get.status == 405)
        }
    }
}
