import AsyncHTTPClient
import Crypto
import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import NIOCore
import Testing
import TestSupport

/// The server API's clients (`server.clients`) and the ways a call authenticates as Capture
/// accepts them: parameters, HTTP Basic, Janrain's signed requests, and an end user's token.
@Suite(.timeLimit(.minutes(5))) struct APIClientAuthenticationTests {
    static let ownerSecret = "owner-secret-0123456789"
    static let readerSecret = "reader-secret-9876543210"

    static func configure(_ config: inout ClientConfig) {
        let here = ServerFixtures.here
        config.server.clients = [
            APIClient(id: Located("owner-client", at: here), secret: Located(ownerSecret, at: here), features: [.owner]),
            APIClient(id: Located("reader", at: here), secret: Located(readerSecret, at: here), features: [.directAccess])
        ]
    }

    /// The signature as janrain-python-api's `generate_signature` makes it, worked out here
    /// from the recipe: Base64(HMAC-SHA1(secret, "<path>\n<Date>\n" + sorted "key=value\n"
    /// lines)).
    static func signature(_ id: String, _ secret: String, path: String, date: String, _ parameters: [(String, String)]) -> String {
        var text = path + "\n" + date + "\n"
        for line in parameters.map({ "\($0.0)=\($0.1)" }).sorted() { text += line + "\n" }
        let code = HMAC<Insecure.SHA1>.authenticationCode(for: Data(text.utf8), using: SymmetricKey(data: Data(secret.utf8)))
        return "Signature \(id):" + Data(code).base64EncodedString()
    }

    /// `YYYY-MM-DD HH:MM:SS` (UTC) of seconds since 1970.
    static func signatureDate(_ seconds: Int) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd HH:mm:ss"
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    static func credentials(
        _ parameters: [(String, String)], path: String = "/entity.find", authorization: String? = nil, date: String? = nil
    ) -> APICredentials {
        APICredentials(
            path: path, parameters: RequestParameters(pairs: parameters.map { (name: $0.0, value: $0.1) }), authorization: authorization,
            date: date)
    }

    /// The code of a refusal, or nil for an accepted call.
    static func code(_ result: APIAuthentication) -> Int? {
        guard case .refused(let reply) = result else { return nil }
        return (try? JSONValue.parse(reply.body))?["code"].flatMap { $0.stringValue ?? $0.description }.flatMap { Int($0) }
    }

    static func clientID(_ result: APIAuthentication) -> String? {
        guard case .accepted(.client(let client)) = result else { return nil }
        return client.id.value
    }

    /// janrain-python-api's own test vector, and the recipe worked out here, give the same
    /// signature; the server accepts it once, within the clock skew.
    @Test func signedRequestsAreAcceptedOnceWithinTheSkew() async throws {
        let vector = Self.signature(
            "foo", "bar", path: "/entity", date: "2000-01-01 01:01:01",
            [("param1", "this is a string"), ("param2", "10"), ("param3", "one=1\ntwo=2,three=3")])
        #expect(vector == "Signature foo:G3N5RxCVc0d6rDLmBRGvcg2hCVY=")
        #expect(CaptureService.signatureDate("2000-01-01 01:01:01") == 946_688_461)
        #expect(CaptureService.signatureDate("2000-02-30 1:01:01") == nil)
        try await withServer(configure: Self.configure) { server in
            let service = server.server.service
            let date = Self.signatureDate(server.clock.now)
            let parameters = [("type_name", "user"), ("filter", "id > 10"), ("attributes", #"["email","familyName"]"#)]
            let signed = Self.signature("reader", Self.readerSecret, path: "/entity.find", date: date, parameters)
            let request = Self.credentials(parameters, authorization: signed, date: date)
            #expect(try await Self.clientID(service.authenticateAPICall(request, needs: .directAccess, client: "10.0.0.1")) == "reader")
            // Never twice.
            #expect(try await Self.code(service.authenticateAPICall(request, needs: .directAccess, client: "10.0.0.1")) == 402)
            // Another parameter value, or another path: not the signed request.
            let changed = Self.credentials([("type_name", "user"), ("filter", "id > 11"), parameters[2]], authorization: signed, date: date)
            #expect(try await Self.code(service.authenticateAPICall(changed, needs: .directAccess, client: "10.0.0.1")) == 402)
            let elsewhere = Self.credentials(parameters, path: "/entity.count", authorization: signed, date: date)
            #expect(try await Self.code(service.authenticateAPICall(elsewhere, needs: .directAccess, client: "10.0.0.1")) == 402)
            // The wrong secret.
            let wrong = Self.signature("reader", Self.ownerSecret, path: "/entity.find", date: date, parameters)
            #expect(
                try await Self.code(
                    service.authenticateAPICall(
                        Self.credentials(parameters, authorization: wrong, date: date), needs: .directAccess, client: "10.0.0.1")) == 402)
            // Within five minutes either way, not beyond.
            for (offset, accepted) in [(-300, true), (299, true), (-301, false), (301, false)] {
                let when = Self.signatureDate(server.clock.now + offset)
                let header = Self.signature("reader", Self.readerSecret, path: "/entity.find", date: when, parameters)
                let result = try await service.authenticateAPICall(
                    Self.credentials(parameters, authorization: header, date: when), needs: .directAccess, client: "10.0.0.2")
                #expect((Self.clientID(result) == "reader") == accepted, "\(offset) s")
                if !accepted { #expect(Self.code(result) == 402) }
            }
            // No Date, or one of another form.
            #expect(
                try await Self.code(
                    service.authenticateAPICall(Self.credentials(parameters, authorization: signed), needs: .directAccess, client: nil)) == 100)
            #expect(
                try await Self.code(
                    service.authenticateAPICall(
                        Self.credentials(parameters, authorization: signed, date: "Sun, 15 Jun 2025 10:30:00 GMT"), needs: .directAccess, client: nil)
                )
                    == 200)
            // The credentials' parameters are not signed (the Python client sends none).
            let withID = Self.credentials(
                parameters + [("client_id", "reader")],
                authorization: Self.signature(
                    "reader", Self.readerSecret, path: "/entity.find", date: Self.signatureDate(server.clock.now + 1), parameters),
                date: Self.signatureDate(server.clock.now + 1))
            #expect(try await Self.clientID(service.authenticateAPICall(withID, needs: .directAccess, client: nil)) == "reader")
            // Once the skew has passed, the signature is forgotten (and refused for its Date).
            server.clock.advance(301)
            #expect(try await Self.code(service.authenticateAPICall(request, needs: .directAccess, client: "10.0.0.1")) == 402)
        }
    }

    @Test func parametersAndBasicAuthenticateAClient() async throws {
        try await withServer(configure: Self.configure) { server in
            let service = server.server.service
            let good = Self.credentials([("client_id", "owner-client"), ("client_secret", Self.ownerSecret), ("type_name", "user")])
            #expect(try await Self.clientID(service.authenticateAPICall(good, needs: .directAccess, client: nil)) == "owner-client")
            let wrong = Self.credentials([("client_id", "owner-client"), ("client_secret", Self.readerSecret)])
            #expect(try await Self.code(service.authenticateAPICall(wrong, needs: .directAccess, client: nil)) == 402)
            let unknown = Self.credentials([("client_id", "nobody"), ("client_secret", Self.readerSecret)])
            #expect(try await Self.code(service.authenticateAPICall(unknown, needs: .directAccess, client: nil)) == 402)
            #expect(
                try await Self.code(service.authenticateAPICall(Self.credentials([("client_id", "reader")]), needs: .directAccess, client: nil))
                    == 100)
            #expect(try await Self.code(service.authenticateAPICall(Self.credentials([]), needs: .directAccess, client: nil)) == 100)

            let basic = "Basic " + Data("reader:\(Self.readerSecret)".utf8).base64EncodedString()
            #expect(
                try await Self.clientID(service.authenticateAPICall(Self.credentials([], authorization: basic), needs: .directAccess, client: nil))
                    == "reader")
            let badBasic = "Basic " + Data("reader:\(Self.ownerSecret)".utf8).base64EncodedString()
            #expect(
                try await Self.code(service.authenticateAPICall(Self.credentials([], authorization: badBasic), needs: .directAccess, client: nil))
                    == 402)
            #expect(
                try await Self.code(service.authenticateAPICall(Self.credentials([], authorization: "Bearer abc"), needs: .directAccess, client: nil))
                    == 205)

            // An end user's token is handed on, for the call to check.
            guard
                case .accepted(.endUser(let token)) = try await service.authenticateAPICall(
                    Self.credentials([], authorization: "OAuth tok123"), needs: .directAccess, client: nil)
            else {
                Issue.record("OAuth was not read as an end user's token")
                return
            }
            #expect(token == "tok123")
        }
    }

    /// A client without the feature a call needs gets 403 `access_denied`, whatever way it
    /// authenticated; an owner has every feature.
    @Test func aMissingFeatureIsRefused() async throws {
        try await withServer(configure: Self.configure) { server in
            let service = server.server.service
            let reader = Self.credentials([("client_id", "reader"), ("client_secret", Self.readerSecret)])
            let result = try await service.authenticateAPICall(reader, needs: .accessIssuer, client: nil)
            #expect(Self.code(result) == 403)
            if case .refused(let reply) = result {
                let answer = try JSONValue.parse(reply.body)
                #expect(answer["stat"] == "error" && answer["error"] == "access_denied", "\(answer)")
                #expect(!reply.body.contains(Self.readerSecret))
            }
            let owner = Self.credentials([("client_id", "owner-client"), ("client_secret", Self.ownerSecret)])
            for feature in APIClient.Feature.allCases {
                #expect(try await Self.clientID(service.authenticateAPICall(owner, needs: feature, client: nil)) == "owner-client")
            }
        }
    }

    /// Wrong secrets count against the client's address as wrong passwords do: once it must
    /// wait, even the right secret is refused unchecked (510).
    @Test func wrongSecretsAreThrottled() async throws {
        try await withServer(configure: {
            Self.configure(&$0); $0.server.clientFailureLimit = 2
        }) { server async throws in
            let service = server.server.service
            let wrong = Self.credentials([("client_id", "reader"), ("client_secret", "guess")])
            for _ in 1...2 { #expect(try await Self.code(service.authenticateAPICall(wrong, needs: .directAccess, client: "10.9.9.9")) == 402) }
            let right = Self.credentials([("client_id", "reader"), ("client_secret", Self.readerSecret)])
            #expect(try await Self.code(service.authenticateAPICall(right, needs: .directAccess, client: "10.9.9.9")) == 510)
            #expect(try await Self.clientID(service.authenticateAPICall(right, needs: .directAccess, client: "10.9.9.8")) == "reader")
        }
    }

    /// `/oauth/token` takes a client of `server.clients` with `login_client` (or `owner`); one
    /// without gets 403, as Capture refuses a client without the feature.
    @Test func oauthTokenTakesLoginClients() async throws {
        try await withServer(
            .socket,
            configure: { config in
                Self.configure(&config)
                config.server.clients.append(
                    APIClient(
                        id: Located("login", at: ServerFixtures.here), secret: Located("login-secret-42", at: ServerFixtures.here),
                        features: [.loginClient]))
            }
        ) { server in
            let form = "grant_type=refresh_token&refresh_token=unknown"
            let login = try await OAuthTokenTests.token(server, form, authorization: OAuthTokenTests.basic("login", "login-secret-42"))
            #expect(login.json["code"] == 200, "\(login.json)")  // past authentication: the token is unknown
            let reader = try await OAuthTokenTests.token(server, form, authorization: OAuthTokenTests.basic("reader", Self.readerSecret))
            #expect(reader.json["code"] == 403 && reader.json["error"] == "access_denied", "\(reader.json)")
            let wrong = try await OAuthTokenTests.token(server, form, authorization: OAuthTokenTests.basic("login", "nope"))
            #expect(wrong.json["code"] == 402, "\(wrong.json)")
        }
    }
}
