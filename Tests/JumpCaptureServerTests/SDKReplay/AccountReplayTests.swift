import JumpForms
import Testing

/// The account calls: registration (iOS then reads /entity), forgot password, resend
/// verification, the edit-profile form, refresh, link (iOS then reads /entity), /entity
/// before unlink, unlink. docs/sdk-calls.md, "Account".
@Suite(.replayServer(.plain), .timeLimit(.minutes(5)))
struct AccountReplayTests {
    // MARK: Registration

    @Test(
        "iOS JRCapture.m:753-806 traditional registration (fields with a schemaId only), then JRCapture.m:863-864 /entity with the access token alone"
    )
    func iOSTraditionalRegistration() async throws {
        let server = try ReplayServer.get()
        let iOS = server.iOS
        let record = NewUser.record(email: "register.ios@replay.example.com", displayName: "register_ios")
        let request = iOS.register(record, refreshSecret: IOSApp.newRefreshSecret())
        // toFormFieldsForForm (JRCaptureUser+Extras.m:132-171) sends each field of the form by
        // its schemaId: the confirmation shares the password's (flows/standard.yaml), so it is
        // the password again.
        #expect(request.bodyParameters["birthdate[dateselect_month]"] == "04")
        #expect(
            request.bodyParameters["newPasswordConfirm"] != nil
                && request.bodyParameters["newPasswordConfirm"] == request.bodyParameters["newPassword"])
        let registered = try await server.send(request).read()
        // handleRegistrationResponse (JRCapture.m:808-832) reads `access_token` alone...
        let accessToken = try registered.string("access_token", in: try registered.ok(), "JRCapture.m:820")
        // ...then the record from /entity, which must answer `result` (JRCapture.m:834-851).
        let entity = try await server.send(iOS.entity(accessToken: accessToken, source: "JRCapture.m:863-864")).read().entityResult()
        #expect(entity["email"] == .string("register.ios@replay.example.com"))
        #expect(entity.at(path: "optIn.status") == .bool(true))
    }

    @Test("Android Capture.java:200-242 traditional registration (getFormFields, CaptureFlowUtils.java:53-105)")
    func androidTraditionalRegistration() async throws {
        let server = try ReplayServer.get()
        let record = NewUser.record(email: "register.android@replay.example.com", displayName: "register_android")
        let request = server.android.register(record, refreshSecret: AndroidApp.newRefreshSecret())
        #expect(request.bodyParameters["birthdate[dateselect_day]"] == "01")
        #expect(
            request.bodyParameters["newPasswordConfirm"] != nil
                && request.bodyParameters["newPasswordConfirm"] == request.bodyParameters["newPassword"])
        let signedIn = try await server.send(request).read().signedIn()
        #expect(signedIn.isNew)
        #expect(signedIn.user["email"] == .string("register.android@replay.example.com"))
    }

    // MARK: Forgot password, resend verification

    @Test("iOS JRCapture.m:549-592 forgot password: the form's identifying field")
    func iOSForgotPassword() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "forgot.ios@replay.example.com", displayName: "forgot_ios")
        try await server.send(server.iOS.forgotPassword(account.email)).read().ok()
        let outbox = try await server.embedded.server.outbox()
        #expect(outbox.contains { $0.recipient == account.email && $0.kind == "forgot_password" }, "\(outbox)")
    }

    @Test("Android Capture.java:246-264 forgot password (CaptureFlowUtils.java:212-227)")
    func androidForgotPassword() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "forgot.android@replay.example.com", displayName: "forgot_android")
        try await server.send(server.android.forgotPassword(account.email)).read().ok()
    }

    @Test("iOS JRCapture.m:594-624 resend verification (JRCaptureUIRequestBuilder.m:58-95)")
    func iOSResendVerification() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "resend.ios@replay.example.com", displayName: "resend_ios")
        try await server.send(server.iOS.resendVerification(account.email)).read().ok()
    }

    @Test("Android Capture.java:273-310 resend verification")
    func androidResendVerification() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "resend.android@replay.example.com", displayName: "resend_android")
        try await server.send(server.android.resendVerification(account.email)).read().ok()
    }

    // MARK: Edit profile

    @Test("iOS JRCapture.m:867-904 update profile: the edit-profile form's fields from the record, no redirect_uri")
    func iOSUpdateProfile() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "profile.ios@replay.example.com", displayName: "profile_ios")
        // The app edits its JRCaptureUser (the record sign-in gave it) and saves it.
        var record = account.record.replacing(path: "displayName", with: "profile_ios_2")
        record = record.replacing(path: "primaryAddress.address1", with: "Seestrasse 12/3")
        record = record.replacing(path: "primaryAddress.city", with: "Zürich")
        record = record.replacing(path: "aboutMe", with: "50% café & tea + more")
        let request = server.iOS.updateProfile(record, accessToken: account.accessToken)
        #expect(request.bodyParameters["redirect_uri"] == nil && request.bodyParameters["addressCity"] == "Zürich")
        try await server.send(request).read().ok()
        let stored = try await Check.record(server, account.accessToken)
        #expect(stored["displayName"] == .string("profile_ios_2") && stored.at(path: "primaryAddress.city") == .string("Zürich"), "\(stored)")
        #expect(stored["aboutMe"] == .string("50% café & tea + more"), "\(stored)")
    }

    @Test("Android Capture.java:329-374 update profile")
    func androidUpdateProfile() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "profile.android@replay.example.com", displayName: "profile_android")
        var record = account.record.replacing(path: "givenName", with: "Ana María")
        record = record.replacing(path: "gender", with: "female")
        record = record.replacing(path: "aboutMe", with: "~tilde* and a+b=c")
        try await server.send(server.android.updateProfile(record, accessToken: account.accessToken)).read().ok()
        let stored = try await Check.record(server, account.accessToken)
        #expect(stored["givenName"] == .string("Ana María") && stored["gender"] == .string("female"), "\(stored)")
        #expect(stored["aboutMe"] == .string("~tilde* and a+b=c"), "\(stored)")
    }

    // MARK: Refresh

    @Test("iOS JRCapture.m:490-547 refresh: flow and flow_version always sent, the new access_token read (JRCapture.m:531-533)")
    func iOSRefresh() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "refresh.ios@replay.example.com", displayName: "refresh_ios")
        let answer = try await server.send(server.iOS.refresh(accessToken: account.accessToken, refreshSecret: account.refreshSecret))
        let read = answer.read()
        let token = try read.string("access_token", in: try read.ok(), "JRCapture.m:533")
        #expect(try await Check.record(server, token)["email"] == .string(account.email))
    }

    @Test("Android CaptureRecord.java:366-406 refresh with the flow downloaded: flow and flow_version")
    func androidRefresh() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "refresh.android@replay.example.com", displayName: "refresh_android")
        let answer = try await server.send(server.android.refresh(accessToken: account.accessToken, refreshSecret: account.refreshSecret))
        let read = answer.read()
        let token = try read.string("access_token", in: try read.ok(), "CaptureRecord.java:399")
        #expect(try await Check.record(server, token)["email"] == .string(account.email))
    }

    @Test("Android CaptureRecord.java:385-392 refresh before the flow is downloaded: no flow, no flow_version")
    func androidRefreshWithoutFlow() async throws {
        let server = try ReplayServer.get()
        let account = try await Arrange.register(server, email: "refresh.noflow.android@replay.example.com", displayName: "refresh_noflow_android")
        var android = server.android
        android.flow = nil
        let request = android.refresh(accessToken: account.accessToken, refreshSecret: account.refreshSecret)
        #expect(request.bodyParameters["flow"] == nil && request.bodyParameters["flow_version"] == nil)
        let read = try await server.send(request).read()
        _ = try read.string("access_token", in: try read.ok(), "CaptureRecord.java:399")
    }

    // MARK: Link, unlink

    @Test("iOS JRCapture.m:1014-1043 link, then JRCapture.m:1045-1071 /entity for the linked profiles")
    func iOSLink() async throws {
        let server = try ReplayServer.get()
        let person = ReplayIdentities.iosLink
        let iOS = server.iOS
        let account = try await Arrange.register(server, email: "link.ios@replay.example.com", displayName: "link_ios")
        let token = try EngageReplayTests.readNativeToken(
            try await server.send(iOS.nativeTokenExchange(provider: "facebook", token: person.nativeToken)))
        try await server.send(iOS.link(accessToken: account.accessToken, token: token)).read().ok()
        let entity = try await server.send(iOS.entity(accessToken: account.accessToken, source: "JRCapture.m:1047-1052")).read()
        // `[[result valueForKey:@"result"] valueForKey:@"profiles"]` (JRCapture.m:1060).
        #expect(try entity.linkedProfiles(of: entity.entityResult()).contains(person.identifier))
    }

    @Test("Android Capture.java:595-620 link, then Capture.java:652-657 /entity")
    func androidLink() async throws {
        let server = try ReplayServer.get()
        let person = ReplayIdentities.androidLink
        let android = server.android
        let account = try await Arrange.register(server, email: "link.android@replay.example.com", displayName: "link_android")
        let token = try EngageReplayTests.readNativeToken(
            try await server.send(android.nativeTokenExchange(provider: "facebook", token: person.nativeToken)))
        // CaptureApiResultHandler (Capture.java:547-558): stat ok.
        try await server.send(android.link(accessToken: account.accessToken, token: token)).read().ok()
        let entity = try await server.send(android.entity(accessToken: account.accessToken)).read().entityResult()
        #expect(linkedIdentifiers(entity).contains(person.identifier), "\(entity)")
    }

    @Test("iOS JRCapture.m:695-726 /entity before unlinking, then JRCapture.m:1080-1119 unlink (no redirect_uri)")
    func iOSUnlink() async throws {
        let server = try ReplayServer.get()
        let person = ReplayIdentities.iosUnlink
        let iOS = server.iOS
        let account = try await Arrange.register(server, email: "unlink.ios@replay.example.com", displayName: "unlink_ios")
        let token = try EngageReplayTests.readNativeToken(
            try await server.send(iOS.nativeTokenExchange(provider: "facebook", token: person.nativeToken)))
        try await server.send(iOS.link(accessToken: account.accessToken, token: token)).read().ok()
        // startAccountUnLinking: /entity first; `result` is checked for a password
        // (JRCaptureUser+Extras.m:173-179) before the unlink is sent.
        let entity = try await server.send(iOS.entity(accessToken: account.accessToken, source: "JRCapture.m:698-704")).read().entityResult()
        #expect(linkedIdentifiers(entity).contains(person.identifier), "\(entity)")
        try await server.send(iOS.unlink(accessToken: account.accessToken, identifier: person.identifier)).read().ok()
        #expect(!linkedIdentifiers(try await Check.record(server, account.accessToken)).contains(person.identifier))
    }

    @Test("Android Capture.java:628-645 unlink")
    func androidUnlink() async throws {
        let server = try ReplayServer.get()
        let person = ReplayIdentities.androidUnlink
        let android = server.android
        let account = try await Arrange.register(server, email: "unlink.android@replay.example.com", displayName: "unlink_android")
        let token = try EngageReplayTests.readNativeToken(
            try await server.send(android.nativeTokenExchange(provider: "facebook", token: person.nativeToken)))
        try await server.send(android.link(accessToken: account.accessToken, token: token)).read().ok()
        try await server.send(android.unlink(accessToken: account.accessToken, identifier: person.identifier)).read().ok()
        #expect(!linkedIdentifiers(try await Check.record(server, account.accessToken)).contains(person.identifier))
    }
}
