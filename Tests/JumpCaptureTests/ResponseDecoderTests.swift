import Foundation
import JumpCapture
import JumpForms
import Testing
import TestSupport

/// Every fixture under Fixtures/responses decoded, against `<name>.expected`.
@Suite struct ResponseDecoderTests {
    static let folder = "Tests/JumpCaptureTests/Fixtures/responses"
    static let fixtures: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: Repository.path(folder))) ?? [])
        .filter { $0.hasSuffix(".json") || $0.hasSuffix(".txt") }.sorted()

    /// The operation a fixture answers, from its name.
    static func operation(_ name: String) -> CaptureOperation {
        let ordered = CaptureOperation.allCases.sorted { $0.rawValue.count > $1.rawValue.count }
        return ordered.first { name.hasPrefix($0.rawValue + "-") } ?? .signIn
    }

    static func describe(_ result: Result<CaptureSuccess, CaptureError>) -> String {
        switch result {
        case .success(let success):
            switch success {
            case .signedIn(let value):
                return
                    "signedIn token=\(value.accessToken) code=\(value.authorizationCode ?? "-") isNew=\(value.isNew) expiresIn=\(value.expiresIn.map(String.init) ?? "-")\nrecord=\(value.record.serialized())\n"
            case let .refreshed(token, expiresIn): return "refreshed token=\(token) expiresIn=\(expiresIn.map(String.init) ?? "-")\n"
            case .record(let record): return "record=\(record.serialized())\n"
            case .ok(let json): return "ok \(json.serialized())\n"
            case .engageToken(let token): return "engageToken=\(token)\n"
            case .engageConfiguration(let json): return "engageConfiguration \(json.serialized())\n"
            }
        case .failure(let error):
            var out = "\(error)\n"
            switch error {
            case .badCredentials: out += "kind=badCredentials\n"
            case .registrationNeeded(let value):
                out += "kind=registrationNeeded token=\(value.token ?? "-")\n"
                out += "prefill=\(value.prefill.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ", "))\n"
            case .mergeRequired(let value):
                out +=
                    "kind=mergeRequired existing=\(value.existingProvider) conflicting=\(value.conflictingProvider ?? "-") mergeToken=\(value.mergeToken ?? "-")\n"
            case .invalidFields(let value):
                out += "kind=invalidFields\n"
                for entry in value.fields { out += "field \(entry.field): \(entry.messages.joined(separator: " | "))\n" }
                for message in value.formMessages { out += "form: \(message)\n" }
            case .accessTokenExpired: out += "kind=accessTokenExpired\n"
            case .unknownAttribute: out += "kind=unknownAttribute\n"
            case .redirectURIMismatch: out += "kind=redirectURIMismatch\n"
            case .server(let value): out += "kind=server code=\(value.code) error=\(value.error)\n"
            case .malformedResponse: out += "kind=malformedResponse\n"
            case .engage(let value):
                out += "kind=engage code=\(value.code.map(String.init) ?? "-") meaning=\(value.kind.rawValue) needsSignIn=\(value.needsSignIn)\n"
            }
            return out
        }
    }

    @Test(arguments: fixtures)
    func decodesAsExpected(_ name: String) throws {
        let body = try #require(FileManager.default.contents(atPath: Repository.path("\(Self.folder)/\(name)")))
        let operation = Self.operation(name)
        let status = name.contains("html") ? 502 : 200
        let result = CaptureFixtures.decoder.decode(operation, status: status, body: Array(body), engageToken: "engage-token-of-the-failed-signin")
        let stem = name.split(separator: ".").dropLast().joined(separator: ".")
        Snapshot.check("operation=\(operation.rawValue)\n" + Self.describe(result), against: Repository.path("\(Self.folder)/\(stem).expected"))
    }

    /// The case a failure decodes to, by name.
    static func kind(_ error: CaptureError) -> String {
        switch error {
        case .badCredentials: "badCredentials"
        case .registrationNeeded: "registrationNeeded"
        case .mergeRequired: "mergeRequired"
        case .invalidFields: "invalidFields"
        case .accessTokenExpired: "accessTokenExpired"
        case .unknownAttribute: "unknownAttribute"
        case .redirectURIMismatch: "redirectURIMismatch"
        case .server: "server"
        case .malformedResponse: "malformedResponse"
        case .engage: "engage"
        }
    }

    @Test func everyCodeTheClientsActOnHasAFixtureDecodedToItsCase() throws {
        // fixture, the case it must decode to, the code it keeps (nil: not a Capture answer)
        let expected: [(String, String, Int?)] = [
            ("signin-210-bad-credentials.json", "badCredentials", 210),
            ("signin-ios-3210.json", "badCredentials", 210),
            ("entity-update-223-unknown-attribute.json", "unknownAttribute", 223),
            ("social-signin-310-record-not-found.json", "registrationNeeded", 310),
            ("social-signin-310-prereg-attributes.json", "registrationNeeded", 310),
            ("social-signin-380-merge.json", "mergeRequired", 380),
            ("register-390-invalid-fields.json", "invalidFields", 390),
            ("read-record-414-expired.json", "accessTokenExpired", 414),
            ("signin-420-redirect-mismatch.json", "redirectURIMismatch", 420),
            ("signin-510-other.json", "server", 510),
            ("engage-token-fail.json", "server", nil),
            ("share-fail-missing-api-key.json", "engage", 0),
            ("share-fail-character-limit.json", "engage", 100),
            ("set-status-fail-duplicate.json", "engage", 6),
            ("set-status-fail-without-code.json", "engage", 0),
            ("engage-device-fail.json", "engage", 0),
            ("engage-device-without-rpx-result.json", "malformedResponse", nil),
            ("signin-html-error-page.txt", "malformedResponse", nil),
            ("signin-plain-text.txt", "malformedResponse", nil),
            ("signin-empty-body.txt", "malformedResponse", nil),
            ("signin-truncated.txt", "malformedResponse", nil),
            ("signin-not-an-object.txt", "malformedResponse", nil)
        ]
        for (name, kind, code) in expected {
            #expect(Self.fixtures.contains(name), "no fixture \(name)")
            let body = try #require(FileManager.default.contents(atPath: Repository.path("\(Self.folder)/\(name)")))
            let result = CaptureFixtures.decoder.decode(Self.operation(name), status: 200, body: Array(body))
            guard case .failure(let error) = result else {
                Issue.record("\(name) decoded to a success")
                continue
            }
            #expect(Self.kind(error) == kind, "\(name)")
            if let code { #expect(error.serverError?.code == code, "\(name)") }
        }
    }

    @Test func plainTextIsNamedAsSuch() throws {
        let result = CaptureFixtures.decoder.decode(.signIn, status: 503, body: Array("Service Unavailable\nlater".utf8))
        guard case .failure(.malformedResponse(let malformed)) = result else { Issue.record("\(result)"); return }
        #expect(malformed.description == "the server's answer (HTTP 503) is not a Capture response: plain text, not JSON (\"Service Unavailable\")")
    }

    @Test func aMergeWithoutTheEngageTokenTakesTheBodysMergeToken() {
        let body = #"{"stat":"error","code":380,"error":"email_address_in_use","existing_provider":"google","merge_token":"token-from-body"}"#
        let result = CaptureFixtures.decoder.decode(.signIn, status: 200, body: Array(body.utf8), engageToken: nil)
        guard case .failure(.mergeRequired(let merge)) = result else { Issue.record("\(result)"); return }
        #expect(merge.mergeToken == "token-from-body")
        #expect(merge.existingProvider == "google")
        // The Engage token of the failed sign-in wins when there is one.
        let withToken = CaptureFixtures.decoder.decode(.socialSignIn, status: 200, body: Array(body.utf8), engageToken: "engage-1")
        guard case .failure(.mergeRequired(let merged)) = withToken else { Issue.record("\(withToken)"); return }
        #expect(merged.mergeToken == "engage-1")
    }

    @Test func preregAttributesFillTheSubValuesOfAMapField() {
        let body =
            #"{"stat":"error","code":310,"error":"record_not_found","prereg_attributes":{"email":"ana@example.com","displayName":"ana_r","phones":{"home":"+48 12 000 00 00","work":"+48 22 111 11 11"}}}"#
        let result = CaptureFixtures.fixtureDecoder.decode(.socialSignIn, status: 200, body: Array(body.utf8), engageToken: "engage-1")
        guard case .failure(.registrationNeeded(let twoStep)) = result else { Issue.record("\(result)"); return }
        #expect(
            twoStep.prefill.values == [
                "email": "ana@example.com", "username": "ana_r", "phone[home]": "+48 12 000 00 00", "phone[work]": "+48 22 111 11 11"
            ])
    }

    @Test func messageIsPreferredOverErrorDescription() throws {
        let body = #"{"stat":"error","code":210,"error":"bad","error_description":"old text","message":"new text"}"#
        let result = CaptureFixtures.decoder.decode(.signIn, status: 200, body: Array(body.utf8))
        guard case .failure(.badCredentials(let error)) = result else { Issue.record("\(result)"); return }
        #expect(error.description == "new text")
    }
}
