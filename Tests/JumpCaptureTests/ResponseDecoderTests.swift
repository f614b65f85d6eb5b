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
                return "signedIn token=\(value.accessToken) code=\(value.authorizationCode ?? "-") isNew=\(value.isNew) expiresIn=\(value.expiresIn.map(String.init) ?? "-")\nrecord=\(value.record.serialized())\n"
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
                out += "kind=mergeRequired existing=\(value.existingProvider) conflicting=\(value.conflictingProvider ?? "-") mergeToken=\(value.mergeToken ?? "-")\n"
            case .invalidFields(let value):
                out += "kind=invalidFields\n"
                for entry in value.fields { out += "field \(entry.field): \(entry.messages.joined(separator: " | "))\n" }
                for message in value.formMessages { out += "form: \(message)\n" }
            case .accessTokenExpired: out += "kind=accessTokenExpired\n"
            case .unknownAttribute: out += "kind=unknownAttribute\n"
            case .redirectURIMismatch: out += "kind=redirectURIMismatch\n"
            case .server(let value): out += "kind=server code=\(value.code) error=\(value.error)\n"
            case .malformedResponse: out += "kind=malformedResponse\n"
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

    @Test func everyCodeTheClientsActOnHasAFixture() {
        let names = Self.fixtures.joined(separator: " ")
        for code in ["210", "223", "310", "380", "390", "414", "420", "3210", "html", "empty", "truncated"] {
            #expect(names.contains(code), "no fixture for \(code)")
        }
    }

    @Test func messageIsPreferredOverErrorDescription() throws {
        let body = #"{"stat":"error","code":210,"error":"bad","error_description":"old text","message":"new text"}"#
        let result = CaptureFixtures.decoder.decode(.signIn, status: 200, body: Array(body.utf8))
        guard case .failure(.badCredentials(let error)) = result else { Issue.record("\(result)"); return }
        #expect(error.description == "new text")
    }
}
