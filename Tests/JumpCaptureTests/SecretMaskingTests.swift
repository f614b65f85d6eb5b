import JumpCapture
import JumpForms
import Testing

/// Values holding secrets never print them: not in interpolation, `debugPrint`,
/// `String(reflecting:)` nor `dump`.
@Suite struct SecretMaskingTests {
    static let secrets = [
        "access-token-SECRET", "0123456789abcdef0123456789abcdef01234567", "p@ss-SECRET", "engage-token-SECRET",
        "merge-token-SECRET", "auth-code-SECRET"
    ]

    /// Every way Swift prints a value.
    static func printouts(_ value: Any) -> [String] {
        var dumped = ""
        dump(value, to: &dumped)
        var debugPrinted = ""
        debugPrint(value, to: &debugPrinted)
        return ["\(value)", String(describing: value), String(reflecting: value), dumped, debugPrinted]
    }

    static func expectMasked(_ value: Any, _ label: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        for text in printouts(value) {
            for secret in secrets {
                #expect(!text.contains(secret), "\(label) prints \(secret): \(text)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func requestsParametersSessionsAndResultsPrintMasked() throws {
        let secret = RefreshSecret(Self.secrets[1])!
        let request = try CaptureFixtures.builder().signIn(
            ["signInEmailAddress": "ana@example.com", "currentPassword": "p@ss-SECRET"],
            refreshSecret: secret, mergeToken: "merge-token-SECRET", today: CaptureFixtures.today)
        Self.expectMasked(request, "CaptureRequest")
        Self.expectMasked(request.parameters, "[RequestParameter]")
        Self.expectMasked(CaptureFixtures.builder().refreshAccessToken(accessToken: "access-token-SECRET", refreshSecret: secret), "refresh request")
        Self.expectMasked(secret, "RefreshSecret")
        let record: JSONValue = ["email": "ana@example.com"]
        let session = Session(
            captureDomain: "https://example.com", clientId: "client", accessToken: "access-token-SECRET",
            refreshSecret: secret, record: record)
        Self.expectMasked(session, "Session")
        Self.expectMasked(Optional(session) as Any, "Session?")
        let answer =
            #"{"stat":"ok","access_token":"access-token-SECRET","authorization_code":"auth-code-SECRET","capture_user":{"email":"ana@example.com"}}"#
        let result = CaptureFixtures.decoder.decode(.signIn, status: 200, body: Array(answer.utf8))
        guard case .success(.signedIn(let signedIn)) = result else { Issue.record("\(result)"); return }
        Self.expectMasked(signedIn, "SignInResult")
        Self.expectMasked(result, "Result<CaptureSuccess, CaptureError>")
        Self.expectMasked(CaptureSuccess.refreshed(accessToken: "access-token-SECRET", expiresIn: 3600), "CaptureSuccess.refreshed")
        Self.expectMasked(CaptureSuccess.engageToken("engage-token-SECRET"), "CaptureSuccess.engageToken")
        Self.expectMasked(HTTPAnswer(status: 200, contentType: "application/json", body: Array(answer.utf8)), "HTTPAnswer")
        Self.expectMasked(FormValues(["currentPassword": "p@ss-SECRET"]), "FormValues")
        // What is not secret is still shown.
        #expect("\(session)".contains("https://example.com"))
        #expect("\(signedIn)".contains("ana@example.com"))
        #expect("\(request)".contains("signInEmailAddress=ana@example.com"))
        #expect("\(request.parameters[0])" == #"RequestParameter(name: "client_id", value: "localdev0123456789abcdefghijklmn", isSecret: false)"#)
    }

    @Test func errorsCarryingTokensPrintMasked() {
        let merge = #"{"stat":"error","code":380,"error":"email_address_in_use","existing_provider":"capture","merge_token":"engage-token-SECRET"}"#
        let merged = CaptureFixtures.decoder.decode(.socialSignIn, status: 200, body: Array(merge.utf8), engageToken: "merge-token-SECRET")
        guard case .failure(let mergeError) = merged, case .mergeRequired(let value) = mergeError else { Issue.record("\(merged)"); return }
        #expect(value.mergeToken == "merge-token-SECRET")
        Self.expectMasked(mergeError, "CaptureError.mergeRequired")
        Self.expectMasked(value, "MergeRequired")
        Self.expectMasked(value.server, "ServerError (its body holds a merge token)")
        #expect("\(value.server)" == "the server refused the request", "the message for users is unchanged")
        let twoStep = #"{"stat":"error","code":310,"error":"record_not_found"}"#
        let registration = CaptureFixtures.decoder.decode(.socialSignIn, status: 200, body: Array(twoStep.utf8), engageToken: "engage-token-SECRET")
        guard case .failure(let twoStepError) = registration else { Issue.record("\(registration)"); return }
        Self.expectMasked(twoStepError, "CaptureError.registrationNeeded")
        Self.expectMasked(registration, "Result")
    }
}
