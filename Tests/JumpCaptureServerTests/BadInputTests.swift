import JumpCapture
import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// Malformed bodies, wrong content types and random bytes: always a Capture-style error JSON,
/// never a 500, never internals.
@Suite(.timeLimit(.minutes(5))) struct BadInputTests {
    static let capturePaths = CaptureOperation.allCases.filter { !$0.isEngage }.map(\.path)

    func expectCaptureError(
        _ answer: (status: Int, headers: HTTPHeadersLike, body: String), code: Int? = nil,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) {
        #expect(answer.status != 500, "\(answer.body)", sourceLocation: sourceLocation)
        #expect(answer.headers.contentType?.hasPrefix("application/json") == true, sourceLocation: sourceLocation)
        guard let json = try? JSONValue.parse(Array(answer.body.utf8)) else {
            Issue.record("not JSON: \(answer.body)", sourceLocation: sourceLocation)
            return
        }
        #expect(json["stat"] == "error", "\(answer.body)", sourceLocation: sourceLocation)
        #expect(json["error_description"]?.stringValue != nil, sourceLocation: sourceLocation)
        if let code { #expect(json["code"] == .integer(code), "\(answer.body)", sourceLocation: sourceLocation) }
        for leak in ["Error(", "DatabaseError", "SQLite", "sqlite", ".swift", "Fatal"] {
            #expect(!answer.body.contains(leak), "\(answer.body)", sourceLocation: sourceLocation)
        }
    }

    @Test func malformedFormBodies() async throws {
        try await withServer { server in
            let bodies: [[UInt8]] = [
                Array("client_id=%zz".utf8),  // a bad escape
                Array("client_id=%4".utf8),  // a truncated escape
                Array("client_id=%FF%FE".utf8),  // not UTF-8 once decoded
                [0xFF, 0xFE, 0x00, 0x01],  // not UTF-8 at all
                Array("%=%".utf8)
            ]
            for path in Self.capturePaths {
                for body in bodies {
                    let answer = try await server.raw(.POST, path, body: body)
                    expectCaptureError((answer.status, HTTPHeadersLike(answer.headers), answer.body), code: 200)
                }
            }
        }
    }

    @Test func wrongContentTypes() async throws {
        try await withServer { server in
            let json = #"{"client_id": "localdev0123456789abcdefghijklmn", "access_token": "t"}"#
            for type in ["application/json", "text/plain", "multipart/form-data; boundary=x"] {
                let answer = try await server.raw(.POST, "/entity", body: Array(json.utf8), contentType: type)
                expectCaptureError((answer.status, HTTPHeadersLike(answer.headers), answer.body), code: 200)
                #expect(answer.body.contains("Content-Type"))
            }
        }
    }

    @Test func emptyAndOddBodies() async throws {
        try await withServer { server in
            for body in ["", "&&&", "=", "client_id", "client_id=&client_id=", String(repeating: "a=1&", count: 2000)] {
                for path in Self.capturePaths {
                    let answer = try await server.raw(.POST, path, body: Array(body.utf8))
                    expectCaptureError((answer.status, HTTPHeadersLike(answer.headers), answer.body))
                }
            }
        }
    }

    /// Random bytes and random parameter soups, to every route: no 500.
    @Test func randomInputNeverGivesA500() async throws {
        try await withServer { server in
            var generator = SplitMix(seed: 0x5EED)
            let names = [
                "client_id", "locale", "flow", "flow_version", "redirect_uri", "response_type", "form", "access_token", "token",
                "refresh_secret", "merge_token", "date", "signature", "attribute_name", "value", "attributes", "emailAddress",
                "signInEmailAddress", "currentPassword", "newPassword", "birthdate[dateselect_year]", "birthdate[dateselect_month]",
                "identifier_to_remove", "thin_registration", "registration_form", "code", "password", "providername", "identity"
            ]
            let values = [
                "", "x", "localdev0123456789abcdefghijklmn", "en-US", "fr-FR", "standard", "HEAD", "token", "code_and_token",
                "registrationForm", "signInForm", "editProfileForm", "{}", "[]", "{\"a\":", "[1,2", "null", "/", "/photos", "//",
                "/primaryAddress/city", "2025-06-15 10:30:00", "9999-99-99 99:99:99", "0123456789abcdef0123456789abcdef01234567",
                "ana@example.com", "%00", "\u{0}", "é", "🙂", String(repeating: "z", count: 300), "-1", "99999999999999999999"
            ]
            let paths =
                Self.capturePaths + [
                    "/openid/mobile_config_and_baseurl", "/signin/oauth_token", "/api/v2/auth_info", "/signin/complete",
                    "/email/verify", "/password/reset", "/health", "/google/start", "/openid/start", "/saml2/sso/start"
                ]
            for _ in 0..<400 {
                let path = paths[generator.next(paths.count)]
                var pairs: [(name: String, value: String)] = []
                for _ in 0..<generator.next(8) {
                    pairs.append((names[generator.next(names.count)], values[generator.next(values.count)]))
                }
                let form = FormEncoding.encode(pairs)
                let get = generator.next(4) == 0
                let answer = get ? try await server.raw(.GET, path + "?" + form) : try await server.raw(.POST, path, form: form)
                #expect(answer.status != 500, "\(get ? "GET" : "POST") \(path) \(form): \(answer.body)")
            }
        }
    }
}

/// The content type of an answer, from AsyncHTTPClient's headers.
struct HTTPHeadersLike {
    var contentType: String?
    init(_ headers: HTTPHeaders) { contentType = headers.first(name: "content-type") }
}

import AsyncHTTPClient
import NIOHTTP1
