import JumpForms
import Testing

/// Signing in as each SDK does: traditional (with the flow's fields, and the `user` /
/// `password` fallback), social (iOS's token-URL and web-view paths, Android's), thin
/// registration, the merge flow (380) and two-step registration (310). docs/sdk-calls.md,
/// "Sign-in".
@Suite(.replayServer(.plain), .timeLimit(.minutes(5)))
struct SignInReplayTests {
    // MARK: Traditional

    @Test("iOS JRCapture.m:414-436 traditional sign-in with the sign-in form's fields (JRCaptureApidInterface.m:571-648)")
    func iOSTraditionalSignIn() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "trad.ios@replay.example.com", displayName: "trad_ios")
        let request = server.iOS.traditionalSignIn(user: account.email, password: account.password, refreshSecret: IOSApp.newRefreshSecret())
        let signedIn = try await server.send(request).read().signedIn()
        #expect(signedIn.user["email"] == .string(account.email))
        #expect(!signedIn.isNew)
    }

    @Test("iOS JRCaptureApidInterface.m:606-612 traditional sign-in before the flow is downloaded: user and password")
    func iOSTraditionalSignInWithoutFlow() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "trad.noflow.ios@replay.example.com", displayName: "trad_noflow_ios")
        var iOS = server.iOS
        iOS.flow = nil
        let request = iOS.traditionalSignIn(user: account.email, password: account.password, refreshSecret: IOSApp.newRefreshSecret())
        #expect(request.bodyParameters["user"] == account.email && request.bodyParameters["flow_version"] == nil)
        let signedIn = try await server.send(request).read().signedIn()
        #expect(signedIn.user["email"] == .string(account.email))
    }

    @Test("iOS JRCaptureError.m:191-283 a wrong password: Capture error 210 as iOS reads it")
    func iOSWrongPassword() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "wrong.ios@replay.example.com", displayName: "wrong_ios")
        let request = server.iOS.traditionalSignIn(user: account.email, password: "not the password", refreshSecret: IOSApp.newRefreshSecret())
        try await server.send(request).read().error(code: 210)
    }

    @Test("Android Capture.java:63-93 traditional sign-in with the sign-in form's fields (CaptureFlowUtils.java:107-157)")
    func androidTraditionalSignIn() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "trad.android@replay.example.com", displayName: "trad_android")
        let request = server.android.traditionalSignIn(user: account.email, password: account.password, refreshSecret: AndroidApp.newRefreshSecret())
        let signedIn = try await server.send(request).read().signedIn()
        #expect(signedIn.user["email"] == .string(account.email))
    }

    @Test("Android Capture.java:79 traditional sign-in before the flow is downloaded: user and password, no flow_version")
    func androidTraditionalSignInWithoutFlow() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "trad.noflow.android@replay.example.com", displayName: "trad_noflow_android")
        var android = server.android
        android.flow = nil
        let request = android.traditionalSignIn(user: account.email, password: account.password, refreshSecret: AndroidApp.newRefreshSecret())
        #expect(request.bodyParameters["user"] == account.email && request.bodyParameters["flow_version"] == nil)
        let signedIn = try await server.send(request).read().signedIn()
        #expect(signedIn.user["email"] == .string(account.email))
    }

    @Test("iOS JRCaptureData.m:487-493 response_type code_and_token: authorization_code a string (JRCapture.m:451, 478-480)")
    func iOSCodeAndToken() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "code.ios@replay.example.com", displayName: "code_ios")
        var iOS = server.iOS
        iOS.responseType = "code_and_token"
        let signedIn = try await server.send(
            iOS.traditionalSignIn(
                user: account.email, password: account.password,
                refreshSecret: IOSApp.newRefreshSecret())
        ).read().signedIn()
        #expect(signedIn.answer["authorization_code"]?.stringValue?.isEmpty == false, "\(signedIn.answer)")
    }

    @Test("Android Jump.java:308-316 response_type code_and_token: authorization_code a string (Jump.java:676-681)")
    func androidCodeAndToken() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "code.android@replay.example.com", displayName: "code_android")
        var android = server.android
        android.responseType = "code_and_token"
        let signedIn = try await server.send(
            android.traditionalSignIn(
                user: account.email, password: account.password,
                refreshSecret: AndroidApp.newRefreshSecret())
        ).read().signedIn()
        #expect(signedIn.answer["authorization_code"]?.stringValue?.isEmpty == false, "\(signedIn.answer)")
    }

    // MARK: Social

    @Test(
        """
        iOS JRCaptureData.m:180-214 social sign-in through the token URL: every parameter in the query of a POST with an empty body \
        (JRSessionData.m:1538-1544), thin registration
        """
    )
    func iOSTokenURLSocialSignIn() async throws {
        let server = try ReplayServer.get()
        let person = ReplayIdentities.iosThin
        let iOS = server.iOS
        let token = try EngageReplayTests.readNativeToken(
            try await server.send(iOS.nativeTokenExchange(provider: "google", token: person.nativeToken)))
        let request = iOS.callTokenURL(iOS.captureTokenURL(refreshSecret: IOSApp.newRefreshSecret()), token: token)
        #expect(request.body == nil && request.header("Content-Type") == nil)
        // JREngageWrapper.m:306-336 hands the answer to signInHandler (JRCapture.m:438-481).
        let signedIn = try await server.send(request).read().signedIn()
        #expect(signedIn.isNew, "a thin registration makes the account: \(signedIn.answer)")
        #expect(signedIn.user["email"] == person.email.map(JSONValue.string))
        #expect(linkedIdentifiers(signedIn.user).contains(person.identifier))
    }

    @Test(
        """
        iOS JRWebViewController.m:509-549 social sign-in from the web view: 310 for a new user, register_native (JRCapture.m:753-806), then signed \
        in
        """
    )
    func iOSWebViewSocialSignIn() async throws {
        let server = try ReplayServer.get()
        let person = ReplayIdentities.iosWebView
        let iOS = server.iOS
        // The dialog (JRSessionData.m:1103-1142) ends at `<whitelisted domain>/?token=`; the web view
        // takes the token from the URL's query (JRWebViewController.m:509-515, 560-570).
        let google = try await server.providerPath("google")
        let location = try await Dialog.run(iOS.startURL(providerPath: google), on: server.url, identity: person.identifier)
        #expect(location.hasPrefix(iOS.dialogEndPrefix), "\(location)")
        let token = try #require(SDKWire.query(location)["token"], "no token in \(location)")
        // No thin_registration: a new identity is not registered (JRWebViewController.m:389 takes 310 and 380 as answers).
        let refused = try await server.send(iOS.webViewSignIn(token: token)).read()
        let error = try refused.error(code: 310)
        // JRCaptureError.m:99-111: prereg_fields (field name -> value) become the new user's record.
        let prefilled = try refused.object("prereg_fields", in: error, "JRCaptureError.m:107")
        var record = NewUser.record(email: person.email, displayName: person.displayName, password: nil)
        for (field, value) in prefilled.objectValue ?? [] {
            if case .path(let path)? = iOS.flow?.fields[field]?.schemaId, value != .null { record = record.replacing(path: path, with: value) }
        }
        let registered = try await server.send(iOS.register(record, socialRegistrationToken: token, refreshSecret: IOSApp.newRefreshSecret())).read()
        let json = try registered.ok()
        let accessToken = try registered.string("access_token", in: json, "JRCapture.m:820")
        // handleRegistrationResponse reads the record with /entity (JRCapture.m:834-864).
        let entity = try await server.send(iOS.entity(accessToken: accessToken, source: "JRCapture.m:863-864")).read().entityResult()
        #expect(entity["email"] == person.email.map(JSONValue.string))
        // The next sign-in with the same provider goes through.
        let again = try await Dialog.run(iOS.startURL(providerPath: google), on: server.url, identity: person.identifier)
        let second = try #require(SDKWire.query(again)["token"], "no token in \(again)")
        let signedIn = try await server.send(iOS.webViewSignIn(token: second)).read().signedIn()
        #expect(!signedIn.isNew)
    }

    @Test(
        """
        Android Capture.java:152-181 social sign-in after the device=android dialog (JRSession.java:921-987, JRWebViewFragment.java:422-430), thin \
        registration
        """
    )
    func androidDialogSocialSignIn() async throws {
        let server = try ReplayServer.get()
        let person = ReplayIdentities.androidDevice
        let android = server.android
        let location = try await Dialog.run(
            android.startURL(providerPath: try await server.providerPath("google")), on: server.url, identity: person.identifier)
        #expect(location.hasPrefix(android.mobileEndpointPrefix), "token_profile dialogs end at \(android.mobileEndpointPrefix): \(location)")
        guard location.hasPrefix(android.mobileEndpointPrefix) else { return }
        let rpx = try EngageReplayTests.readRPXResult(try await server.send(android.mobileEndpoint(location)))
        let token = try #require(rpx["token"]?.stringValue)
        let signedIn = try await server.send(android.socialSignIn(token: token, refreshSecret: AndroidApp.newRefreshSecret())).read().signedIn()
        #expect(signedIn.isNew, "\(signedIn.answer)")
        #expect(signedIn.user["email"] == person.email.map(JSONValue.string))
    }

    @Test("Android Capture.java:152-181 social sign-in with a native token (JREngage.java:907-966), thin registration")
    func androidNativeSocialSignIn() async throws {
        let server = try ReplayServer.get()
        let person = ReplayIdentities.androidThin
        let android = server.android
        let token = try EngageReplayTests.readNativeToken(
            try await server.send(android.nativeTokenExchange(provider: "google", token: person.nativeToken)))
        let signedIn = try await server.send(android.socialSignIn(token: token, refreshSecret: AndroidApp.newRefreshSecret())).read().signedIn()
        #expect(signedIn.isNew, "\(signedIn.answer)")
        #expect(signedIn.user["email"] == person.email.map(JSONValue.string))
    }

    // MARK: Merge (380)

    @Test("iOS merge: 380 from the token URL (JRCaptureError.m:249-251), then JRCapture.m:414-436 sign-in with merge_token")
    func iOSMerge() async throws {
        let server = try ReplayServer.get()
        let person = ReplayIdentities.iosMerge
        let iOS = server.iOS
        let account = try await Arrange.register(server, email: try #require(person.email), displayName: "merge_ios")
        let token = try EngageReplayTests.readNativeToken(
            try await server.send(iOS.nativeTokenExchange(provider: "google", token: person.nativeToken)))
        let refused = try await server.send(iOS.callTokenURL(iOS.captureTokenURL(refreshSecret: IOSApp.newRefreshSecret()), token: token)).read()
        let error = try refused.error(code: 380)
        #expect(try refused.string("existing_provider", in: error, "JRCaptureError.m:76-79") == "capture")
        // The merge token is the Engage token of the failed sign-in (JREngageWrapper.m:322-328).
        let request = iOS.traditionalSignIn(
            user: account.email, password: account.password, mergeToken: token, refreshSecret: IOSApp.newRefreshSecret())
        let signedIn = try await server.send(request).read().signedIn()
        #expect(linkedIdentifiers(signedIn.user).contains(person.identifier), "the Google identity is linked: \(signedIn.user)")
    }

    @Test("Android merge: 380 from Capture.java:152-181 (CaptureApiError.java:207), then Capture.java:63-93 sign-in with merge_token")
    func androidMerge() async throws {
        let server = try ReplayServer.get()
        let person = ReplayIdentities.androidMerge
        let android = server.android
        let account = try await Arrange.register(server, email: try #require(person.email), displayName: "merge_android")
        let token = try EngageReplayTests.readNativeToken(
            try await server.send(android.nativeTokenExchange(provider: "google", token: person.nativeToken)))
        let refused = try await server.send(android.socialSignIn(token: token, refreshSecret: AndroidApp.newRefreshSecret())).read()
        let error = try refused.error(code: 380)
        #expect(try refused.string("existing_provider", in: error, "CaptureApiError.java:207") == "capture")
        let request = android.traditionalSignIn(
            user: account.email, password: account.password, mergeToken: token, refreshSecret: AndroidApp.newRefreshSecret())
        let signedIn = try await server.send(request).read().signedIn()
        #expect(linkedIdentifiers(signedIn.user).contains(person.identifier), "the Google identity is linked: \(signedIn.user)")
    }

    // MARK: Two-step registration (310)

    @Test(
        "iOS two-step: 310 with prereg_fields from the token URL (JRCaptureError.m:237-241), then register_native (JRCapture.m:753-806) and /entity")
    func iOSTwoStepRegistration() async throws {
        let server = try ReplayServer.get()
        let person = ReplayIdentities.iosTwoStep
        let iOS = server.iOS
        let token = try EngageReplayTests.readNativeToken(
            try await server.send(
                iOS.nativeTokenExchange(
                    provider: "twitter", token: person.nativeToken,
                    tokenSecret: "two-step-secret")))
        let refused = try await server.send(iOS.callTokenURL(iOS.captureTokenURL(refreshSecret: IOSApp.newRefreshSecret()), token: token)).read()
        let error = try refused.error(code: 310)
        let prefilled = try refused.object("prereg_fields", in: error, "JRCaptureError.m:107")
        // captureUserObjectWithPrefilledFields:flow: (JRCaptureUser+Extras.m:261-275): field name -> schemaId.
        var record: JSONValue = [:]
        for (field, value) in prefilled.objectValue ?? [] {
            if case .path(let path)? = iOS.flow?.fields[field]?.schemaId, value != .null { record = record.replacing(path: path, with: value) }
        }
        #expect(record["displayName"] == .string(person.displayName), "prereg_fields should carry the profile: \(prefilled)")
        // The user types the email address Twitter did not give.
        record = record.replacing(path: "email", with: "two.step.ios@replay.example.com")
        record = record.replacing(path: "optIn.status", with: true)
        let registered = try await server.send(iOS.register(record, socialRegistrationToken: token, refreshSecret: IOSApp.newRefreshSecret())).read()
        let accessToken = try registered.string("access_token", in: try registered.ok(), "JRCapture.m:820")
        let entity = try await server.send(iOS.entity(accessToken: accessToken, source: "JRCapture.m:863-864")).read().entityResult()
        #expect(entity["email"] == .string("two.step.ios@replay.example.com"))
        #expect(try registered.linkedProfiles(of: entity).contains(person.identifier))
    }

    @Test("Android two-step: 310 with prereg_fields (CaptureApiError.java:223), then Capture.java:200-242 register_native")
    func androidTwoStepRegistration() async throws {
        let server = try ReplayServer.get()
        let person = ReplayIdentities.androidTwoStep
        let android = server.android
        let token = try EngageReplayTests.readNativeToken(
            try await server.send(
                android.nativeTokenExchange(
                    provider: "twitter", token: person.nativeToken,
                    tokenSecret: "two-step-secret")))
        let refused = try await server.send(android.socialSignIn(token: token, refreshSecret: AndroidApp.newRefreshSecret())).read()
        let error = try refused.error(code: 310)
        let prefilled = try refused.object("prereg_fields", in: error, "CaptureApiError.java:223")
        // CaptureRecord.captureRecordWithPrefilledFields (CaptureRecord.java:340-351).
        var record: JSONValue = [:]
        for (field, value) in prefilled.objectValue ?? [] {
            if case .path(let path)? = android.flow?.fields[field]?.schemaId, value != .null { record = record.replacing(path: path, with: value) }
        }
        record = record.replacing(path: "email", with: "two.step.android@replay.example.com")
        record = record.replacing(path: "optIn.status", with: true)
        let signedIn = try await server.send(android.register(record, socialRegistrationToken: token, refreshSecret: AndroidApp.newRefreshSecret()))
            .read().signedIn()
        #expect(signedIn.user["email"] == .string("two.step.android@replay.example.com"))
        #expect(linkedIdentifiers(signedIn.user).contains(person.identifier))
    }
}

/// The identifiers of a record's `profiles` (the linked identities).
func linkedIdentifiers(_ record: JSONValue) -> [String] {
    (record["profiles"]?.arrayValue ?? []).compactMap { $0["identifier"]?.stringValue }
}
