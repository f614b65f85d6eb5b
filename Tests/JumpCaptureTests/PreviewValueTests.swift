import JumpCapture
import JumpForms
import Testing

/// The values an app makes for SwiftUI previews and tests are the values the decoder makes
/// from the same answers.
@Suite struct PreviewValueTests {
    static let decoder = CaptureFixtures.decoder

    static func decode(_ operation: CaptureOperation, _ json: String, engageToken: String? = nil) -> Result<CaptureSuccess, CaptureError> {
        decoder.decode(operation, status: 200, body: Array(json.utf8), engageToken: engageToken)
    }

    @Test func aServerErrorsDefaultBodyIsCapturesAndDecodesBackToIt() throws {
        let error = ServerError(code: 210, error: "bad username/password combo", description: "Invalid credentials")
        #expect(error.body["stat"]?.stringValue == "error" && error.body["code"]?.intValue == 210)
        #expect(Self.decode(.signIn, error.body.serialized()) == .failure(.badCredentials(error)))
    }

    @Test func aSignInIsTheDecodedOne() throws {
        let record: JSONValue = try JSONValue.parse(#"{"email": "ana@example.com", "displayName": "ana_r"}"#)
        let made = SignInResult(accessToken: "z3b5token", authorizationCode: "c0de", isNew: true, record: record, expiresIn: 3600)
        let answer = """
            {"stat": "ok", "access_token": "z3b5token", "authorization_code": "c0de", "is_new": true, "expires_in": 3600,
             "capture_user": {"email": "ana@example.com", "displayName": "ana_r"}}
            """
        #expect(Self.decode(.register, answer) == .success(.signedIn(made)))
        #expect(SignInResult(accessToken: "t").record == .null && !SignInResult(accessToken: "t").isNew)
    }

    @Test func invalidFieldsMergeAndTwoStepAreTheDecodedOnes() throws {
        let invalid = """
            {"stat": "error", "code": 390, "error": "invalid_form_fields", "error_description": "some fields are invalid",
             "invalid_fields": {"emailAddress": ["This email address is already registered."], "registrationForm": ["Fix the errors."]}}
            """
        let server390 = ServerError(
            code: 390, error: "invalid_form_fields", description: "some fields are invalid", body: try JSONValue.parse(invalid))
        let fields = InvalidFields(
            fields: [FieldMessages(field: "emailAddress", messages: ["This email address is already registered."])],
            formMessages: ["Fix the errors."], server: server390)
        #expect(Self.decode(.register, invalid) == .failure(.invalidFields(fields)))

        let merge = """
            {"stat": "error", "code": 380, "error": "email_address_in_use", "error_description": "email address is already in use",
             "existing_provider": "capture", "conflicting_provider": "google"}
            """
        let server380 = ServerError(
            code: 380, error: "email_address_in_use", description: "email address is already in use", body: try JSONValue.parse(merge))
        let made = MergeRequired(existingProvider: "capture", conflictingProvider: "google", mergeToken: "engage-token", server: server380)
        #expect(Self.decode(.socialSignIn, merge, engageToken: "engage-token") == .failure(.mergeRequired(made)))

        let twoStep = """
            {"stat": "error", "code": 310, "error": "record_not_found", "error_description": "no such user",
             "prereg_fields": {"emailAddress": "ana@example.com"}}
            """
        let server310 = ServerError(code: 310, error: "record_not_found", description: "no such user", body: try JSONValue.parse(twoStep))
        let registration = TwoStepRegistration(prefill: ["emailAddress": "ana@example.com"], token: "engage-token", server: server310)
        #expect(Self.decode(.socialSignIn, twoStep, engageToken: "engage-token") == .failure(.registrationNeeded(registration)))
        #expect(MalformedResponse(status: 502, reason: "the body is empty").description.contains("HTTP 502"))
    }
}
