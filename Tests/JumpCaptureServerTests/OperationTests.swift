import Foundation
import JumpCapture
import JumpCaptureNIO
import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// Every Capture operation end to end: requests built by `RequestBuilder`, sent by
/// `AsyncHTTPTransport` to the local server on 127.0.0.1, answers decoded by `ResponseDecoder`.
@Suite(.timeLimit(.minutes(5))) struct OperationTests {
    // MARK: sign-in and registration

    @Test func traditionalRegistrationCreatesTheAccountAndWritesTheVerificationEmail() async throws {
        try await withServer { server in
            let (result, _) = try await server.register()
            #expect(result.isNew)
            #expect(result.expiresIn == 3600)
            #expect(result.record["email"] == "ana.ruiz@example.com")
            #expect(result.record["displayName"] == "ana_r")
            #expect(result.record["givenName"] == "Ana")
            #expect(result.record["birthday"] == "1990-04-01")
            #expect(result.record.at("optIn.status") == .bool(true))
            #expect(result.record["password"] == nil)
            #expect(result.record["uuid"]?.stringValue?.count == 36)
            #expect(result.record["created"] == "2025-06-15 10:30:00.000000 +0000")
            #expect(try await server.server.accountCount() == 1)
            let outbox = try await server.server.outbox()
            #expect(outbox.map(\.kind) == ["verify_email"])
            #expect(outbox.first?.recipient == "ana.ruiz@example.com")
        }
    }

    @Test func traditionalSignIn() async throws {
        try await withServer { server in
            let (registered, _) = try await server.register()
            let result = try await server.signIn("ANA.Ruiz@example.com")
            let signedIn = try #require(result.signedIn, "\(result)")
            #expect(!signedIn.isNew)
            #expect(signedIn.accessToken != registered.accessToken)
            #expect(signedIn.accessToken.count == 64)
            #expect(signedIn.authorizationCode == nil)
            #expect(signedIn.record["uuid"] == registered.record["uuid"])
            #expect(signedIn.record["password"] == nil)
        }
    }

    @Test func codeAndTokenHandsOverAnAuthorizationCode() async throws {
        try await withServer(configure: { $0.responseType = Located("code_and_token", at: ServerFixtures.here) }) { server in
            let (registered, _) = try await server.register()
            #expect(registered.authorizationCode?.isEmpty == false)
        }
    }

    @Test func socialSignInWithThinRegistration() async throws {
        try await withServer(.socket) { server in
            let token = try await server.engageToken("google", identity: "marta.keller@example.com")
            let first = try #require(try await server.socialSignIn(token).signedIn)
            #expect(first.isNew)
            #expect(first.record["email"] == "marta.keller@example.com")
            #expect(first.record["displayName"] == "marta_k")
            #expect(first.record["givenName"] == "Marta")
            #expect(first.record["familyName"] == "Keller")
            let profiles = first.record["profiles"]?.arrayValue ?? []
            #expect(profiles.count == 1)
            #expect(profiles.first?["identifier"] == "https://www.google.com/profiles/1001")
            #expect(profiles.first?["domain"] == "google.com")
            #expect(profiles.first?["verifiedEmail"] == "marta.keller@example.com")
            // The same identity again: the same account.
            let again = try #require(
                try await server.socialSignIn(try await server.engageToken("google", identity: "marta.keller@example.com")).signedIn)
            #expect(!again.isNew)
            #expect(again.record["uuid"] == first.record["uuid"])
            #expect(try await server.server.accountCount() == 1)
        }
    }

    @Test func thinRegistrationOffSendsEveryoneToTwoStepRegistration() async throws {
        try await withServer(.socket, configure: { $0.enableThinRegistration = Located(false, at: ServerFixtures.here) }) { server in
            let token = try await server.engageToken("google", identity: "marta.keller@example.com")
            let result = try await server.socialSignIn(token)
            guard case .failure(.registrationNeeded(let twoStep)) = result else { Issue.record("\(result)"); return }
            #expect(twoStep.prefill["emailAddress"] == "marta.keller@example.com")
            #expect(try await server.server.accountCount() == 0)
        }
    }

    @Test func twoStepSocialRegistration() async throws {
        try await withServer(.socket) { server in
            // Twitter gives no email: the social registration form cannot be satisfied (310).
            let token = try await server.engageToken("twitter")
            let result = try await server.socialSignIn(token)
            guard case .failure(.registrationNeeded(let twoStep)) = result else { Issue.record("\(result)"); return }
            #expect(twoStep.token == token)
            #expect(twoStep.prefill == ["displayName": "jun_sato", "firstName": "Jun", "lastName": "Sato"])
            #expect(twoStep.server.description == "No account uses this sign-in yet. Complete the registration to create one.")
            var values = twoStep.prefill
            values["emailAddress"] = "jun.sato@example.org"
            values["optIn"] = "false"
            let request = try server.builder().socialRegister(
                values, token: try #require(twoStep.token), refreshSecret: .generate(), today: server.today)
            let registered = try #require(try await server.send(request).signedIn)
            #expect(registered.isNew)
            #expect(registered.record["email"] == "jun.sato@example.org")
            #expect(registered.record["profiles"]?.arrayValue?.first?["identifier"] == "twitter:4004")
            // From now on Twitter signs in to that account, and the email works for a password reset.
            let again = try #require(try await server.socialSignIn(try await server.engageToken("twitter")).signedIn)
            #expect(again.record["uuid"] == registered.record["uuid"])
            #expect(!again.isNew)
        }
    }

    // MARK: emails

    @Test func forgotPasswordWritesTheOutboxAndTheLinkChangesThePassword() async throws {
        try await withServer(.socket) { server in
            try await server.register()
            let request = try server.builder().forgotPassword(["signInEmailAddress": "ana.ruiz@example.com"], today: server.today)
            #expect(try await server.send(request).isOK)
            // An unknown address gets the same answer and no email.
            let unknown = try server.builder().forgotPassword(["signInEmailAddress": "nobody@example.com"], today: server.today)
            #expect(try await server.send(unknown).isOK)
            let messages = try await server.server.outbox().filter { $0.kind == "forgot_password" }
            #expect(messages.count == 1)
            let message = try #require(messages.first)
            #expect(message.recipient == "ana.ruiz@example.com")
            let link = try #require(Self.link(in: message.body, path: "/password/reset"))
            #expect(link.hasPrefix(server.url.description + "/password/reset?code="))
            let code = try #require(TestServer.query(link)["code"])
            let page = try await server.raw(.GET, "/password/reset?code=" + code)
            #expect(page.status == 200)
            #expect(page.body.contains("<form id=\"form-passwordReset\" method=\"post\" action=\"/password/reset\">"))
            // The password field's rules apply (minLength 8).
            let short = try await server.raw(.POST, "/password/reset", form: "code=\(code)&password=short")
            #expect(short.status == 400)
            #expect(short.body.contains("at least 8") || short.body.contains("8"))
            let changed = try await server.raw(
                .POST, "/password/reset",
                form: "code=\(code)&password=" + FormEncoding.encode("new battery staple") + "&passwordConfirm="
                    + FormEncoding.encode("new battery staple"))
            #expect(changed.status == 200)
            #expect(changed.body.contains("Password changed"))
            #expect(try await server.signIn("ana.ruiz@example.com", "new battery staple").signedIn != nil)
            #expect(try await server.signIn("ana.ruiz@example.com").code == 210)
            // A link works once.
            let reused = try await server.raw(.POST, "/password/reset", form: "code=\(code)&password=another+password")
            #expect(reused.status == 404)
        }
    }

    @Test func resendVerificationAndTheVerifyLink() async throws {
        try await withServer { server in
            let (session, _) = try await server.register()
            let request = try server.builder().resendVerification(["signInEmailAddress": "ana.ruiz@example.com"], today: server.today)
            #expect(try await server.send(request).isOK)
            let messages = try await server.server.outbox().filter { $0.kind == "verify_email" }
            #expect(messages.count == 2)
            #expect(try await server.record(session.accessToken)["emailVerified"] == nil)
            let last = try #require(messages.last)
            let link = try #require(Self.link(in: last.body, path: "/email/verify"))
            let code = try #require(TestServer.query(link)["code"])
            let page = try await server.raw(.GET, "/email/verify?code=" + code)
            #expect(page.status == 200)
            #expect(page.body.contains("Email confirmed"))
            #expect(try await server.record(session.accessToken)["emailVerified"] == "2025-06-15 10:30:00.000000 +0000")
            #expect(try await server.raw(.GET, "/email/verify?code=" + code).status == 404)
        }
    }

    static func link(in body: String, path: String) -> String? {
        body.split(separator: " ").map(String.init).first { $0.contains(path + "?code=") }
    }

    // MARK: profile

    @Test func updateProfileWithTheEditFormRules() async throws {
        try await withServer { server in
            let (session, _) = try await server.register()
            let values: FormValues = [
                "displayName": "ana_ruiz", "firstName": "Ana María", "lastName": "Ruiz", "gender": "female", "birthdate": "1990-04-02",
                "mobileNumber": "+34 612 345 678", "addressStreet": "Calle Mayor 1", "addressCity": "Madrid", "addressPostalCode": "28013",
                "addressCountry": "ES", "optIn": "false", "aboutMe": "Hola"
            ]
            let request = try server.builder().updateProfile(values, accessToken: session.accessToken, today: server.today)
            #expect(request.parameter("redirect_uri") == nil)
            #expect(try await server.send(request).isOK)
            let record = try await server.record(session.accessToken)
            #expect(record["displayName"] == "ana_ruiz")
            #expect(record["givenName"] == "Ana María")
            #expect(record["gender"] == "female")
            #expect(record["birthday"] == "1990-04-02")
            #expect(record.at("primaryAddress.mobile") == "+34 612 345 678")
            #expect(record.at("primaryAddress.city") == "Madrid")
            #expect(record.at("primaryAddress.country") == "ES")
            #expect(record.at("optIn.status") == .bool(false))
            #expect(record["email"] == "ana.ruiz@example.com")
        }
    }

    @Test func changePassword() async throws {
        try await withServer { server in
            let (session, _) = try await server.register()
            let wrong = try server.builder().changePassword(
                ["currentPassword": "not my password", "newPassword": "new battery staple", "newPasswordConfirm": "new battery staple"],
                accessToken: session.accessToken, today: server.today)
            guard case .failure(.invalidFields(let invalid)) = try await server.send(wrong) else { Issue.record("no 390"); return }
            #expect(invalid.fields == [FieldMessages(field: "currentPassword", messages: ["The current password is not correct."])])
            let request = try server.builder().changePassword(
                ["currentPassword": ServerFixtures.password, "newPassword": "new battery staple", "newPasswordConfirm": "new battery staple"],
                accessToken: session.accessToken, today: server.today)
            #expect(try await server.send(request).isOK)
            #expect(try await server.signIn("ana.ruiz@example.com", "new battery staple").signedIn != nil)
            #expect(try await server.signIn("ana.ruiz@example.com").code == 210)
        }
    }

    // MARK: tokens

    @Test func refreshRotatesTheAccessToken() async throws {
        try await withServer { server in
            let (session, secret) = try await server.register()
            server.clock.advance(120)
            let request = server.builder().refreshAccessToken(accessToken: session.accessToken, refreshSecret: secret, epochSeconds: server.clock.now)
            let result = try await server.send(request)
            guard case .success(.refreshed(let token, let expiresIn)) = result else { Issue.record("\(result)"); return }
            #expect(token != session.accessToken)
            #expect(expiresIn == 3600)
            #expect(try await server.record(token)["email"] == "ana.ruiz@example.com")
            // The old token is gone, and so is a second refresh with it.
            #expect(try await server.readRecord(session.accessToken).code == 200)
            #expect(try await server.send(request).code == 200)
            // The client's date may be up to five minutes off the server's; each refresh rotates.
            var current = token
            for skew in [-300, 300] {
                let skewed = server.builder().refreshAccessToken(accessToken: current, refreshSecret: secret, epochSeconds: server.clock.now + skew)
                guard case .success(.refreshed(let next, _)) = try await server.send(skewed) else { Issue.record("skew \(skew) refused"); return }
                current = next
            }
            #expect(try await server.record(current)["email"] == "ana.ruiz@example.com")
        }
    }

    @Test func expiredTokensCanBeRefreshed() async throws {
        try await withServer { server in
            let (session, secret) = try await server.register()
            server.clock.advance(3600 * 5)
            #expect(try await server.readRecord(session.accessToken).code == 414)
            let request = server.builder().refreshAccessToken(accessToken: session.accessToken, refreshSecret: secret, epochSeconds: server.clock.now)
            guard case .success(.refreshed(let token, _)) = try await server.send(request) else { Issue.record("refused"); return }
            #expect(try await server.record(token)["email"] == "ana.ruiz@example.com")
        }
    }

    @Test func linkAccount() async throws {
        try await withServer(.socket) { server in
            let (session, _) = try await server.register()
            let token = try await server.engageToken("facebook")
            #expect(try await server.send(server.builder().linkAccount(accessToken: session.accessToken, token: token)).isOK)
            let record = try await server.record(session.accessToken)
            #expect(record["profiles"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue } == ["facebook:3003"])
            // Facebook now signs in to Ana's account, though its email differs.
            let signedIn = try #require(try await server.socialSignIn(try await server.engageToken("facebook")).signedIn)
            #expect(signedIn.record["uuid"] == session.record["uuid"])
            // Linking it again (with a new token: each completes one operation) is harmless.
            #expect(try await server.send(server.builder().linkAccount(accessToken: session.accessToken, token: token)).code == 200)
            #expect(
                try await server.send(server.builder().linkAccount(accessToken: session.accessToken, token: try await server.engageToken("facebook")))
                    .isOK)
        }
    }

    @Test func unlinkAccount() async throws {
        try await withServer(.socket) { server in
            let (session, _) = try await server.register()
            let token = try await server.engageToken("facebook")
            #expect(try await server.send(server.builder().linkAccount(accessToken: session.accessToken, token: token)).isOK)
            let request = server.builder().unlinkAccount(accessToken: session.accessToken, identifier: "facebook:3003")
            #expect(try await server.send(request).isOK)
            #expect(try await server.record(session.accessToken)["profiles"] == .array([]))
            // Facebook no longer signs in to the account: its email is free, so a thin registration.
            let signedIn = try #require(try await server.socialSignIn(try await server.engageToken("facebook")).signedIn)
            #expect(signedIn.isNew)
        }
    }

    @Test func unlinkRefusesTheLastIdentityOfAnAccountWithoutPassword() async throws {
        try await withServer(.socket) { server in
            let session = try #require(
                try await server.socialSignIn(try await server.engageToken("google", identity: "marta.keller@example.com")).signedIn)
            let request = server.builder().unlinkAccount(accessToken: session.accessToken, identifier: "https://www.google.com/profiles/1001")
            let refused = try await server.send(request)
            #expect(refused.code == 200)
            #expect(refused.error?.serverError?.description.contains("last way to sign in") == true)
            // With a second identity the first one may go.
            #expect(
                try await server.send(server.builder().linkAccount(accessToken: session.accessToken, token: try await server.engageToken("facebook")))
                    .isOK)
            #expect(try await server.send(request).isOK)
            let profiles = try await server.record(session.accessToken)["profiles"]?.arrayValue ?? []
            #expect(profiles.compactMap { $0["identifier"]?.stringValue } == ["facebook:3003"])
        }
    }

    // MARK: entity

    @Test func readRecordAndOneAttribute() async throws {
        try await withServer { server in
            let (session, _) = try await server.register()
            let record = try await server.record(session.accessToken)
            #expect(record["email"] == "ana.ruiz@example.com")
            #expect(record["password"] == nil)
            #expect(record["profiles"] == .array([]))
            #expect(record["id"] == .integer(1))
            let result = try await server.readRecord(session.accessToken, attribute: "/givenName")
            #expect(result == .success(.record("Ana")))
            let nested = try await server.readRecord(session.accessToken, attribute: "/optIn/status")
            #expect(nested == .success(.record(.bool(true))))
            // GET works too (the SDKs POST).
            var get = server.builder().readRecord(accessToken: session.accessToken)
            get.method = .get
            guard case .success(.record(let viaGet)) = try await server.send(get) else { Issue.record("GET /entity"); return }
            #expect(viaGet["uuid"] == record["uuid"])
        }
    }

    @Test func entityUpdateOfRecordChanges() async throws {
        try await withServer { server in
            let (session, _) = try await server.register()
            let before = try await server.record(session.accessToken)
            var after = before
            after = after.setting("aboutMe", "Je lis.")
            after = after.setting("primaryAddress", ["address1": "5 rue Vaubecour", "city": "Lyon", "country": "FR"])
            let changes = RecordChanges.changes(from: before, to: after)
            // primaryAddress was null: it is compared with an empty object, so it gets its own update.
            #expect(
                changes == [
                    .update(attribute: nil, value: ["aboutMe": "Je lis."]),
                    .update(attribute: "/primaryAddress", value: ["address1": "5 rue Vaubecour", "city": "Lyon", "country": "FR"])
                ])
            for change in changes {
                guard case .update(let attribute, let value) = change else { Issue.record("\(change)"); continue }
                let request = server.builder().updateObject(accessToken: session.accessToken, attribute: attribute, value: value)
                #expect(try await server.send(request).isOK)
            }
            // An object is merged: updating one key of /primaryAddress keeps the others.
            let inner = server.builder().updateObject(accessToken: session.accessToken, attribute: "/primaryAddress", value: ["zip": "69001"])
            #expect(try await server.send(inner).isOK)
            let record = try await server.record(session.accessToken)
            #expect(record["aboutMe"] == "Je lis.")
            #expect(record["primaryAddress"] == ["address1": "5 rue Vaubecour", "city": "Lyon", "country": "FR", "zip": "69001"])
            #expect(record["lastUpdated"] != nil)
            // iOS sends the value as `attributes`.
            let ios = server.builder().updateObject(accessToken: session.accessToken, attribute: nil, value: ["aboutMe": "iOS"])
            let renamed = CaptureRequest(
                operation: ios.operation, server: ios.server, path: ios.path,
                parameters: ios.parameters.map { $0.name == "value" ? RequestParameter("attributes", $0.value) : $0 })
            #expect(try await server.send(renamed).isOK)
            #expect(try await server.record(session.accessToken)["aboutMe"] == "iOS")
        }
    }

    @Test func entityReplaceOfAPlural() async throws {
        let writable = ["/photos", "/aboutMe"].map { Located($0, at: ServerFixtures.here) }
        try await withServer(configure: { $0.server.writeWithToken = writable }) { server in
            let (session, _) = try await server.register()
            let photos: JSONValue = [
                ["type": "small", "value": "https://img.example.com/ana-s.jpg"], ["type": "large", "value": "https://img.example.com/ana-l.jpg"]
            ]
            let request = server.builder().replacePlural(accessToken: session.accessToken, attribute: "/photos", value: photos)
            #expect(try await server.send(request).isOK)
            let result = try await server.readRecord(session.accessToken, attribute: "/photos")
            guard case .success(.record(let stored)) = result else { Issue.record("\(result)"); return }
            #expect(stored.arrayValue?.count == 2)
            #expect(stored.arrayValue?.compactMap { $0["id"]?.intValue } == [1 << 31, (1 << 31) + 1])
            #expect(stored.arrayValue?.last?["value"] == "https://img.example.com/ana-l.jpg")
            // The whole plural is replaced.
            let one = server.builder().replacePlural(accessToken: session.accessToken, attribute: "/photos", value: [["type": "small", "value": "x"]])
            #expect(try await server.send(one).isOK)
            guard case .success(.record(let replaced)) = try await server.readRecord(session.accessToken, attribute: "/photos") else { return }
            #expect(replaced.arrayValue?.count == 1)
        }
    }

    // MARK: Engage double

    @Test func engageMobileConfiguration() async throws {
        try await withServer(.socket) { server in
            let result = try await server.send(server.engage.mobileConfiguration(device: "android"))
            guard case .success(.engageConfiguration(let json)) = result else { Issue.record("\(result)"); return }
            #expect(json["baseurl"] == .string(server.url.description))
            #expect(json["enabled_providers"] == ["facebook", "google", "twitter", "apple", "linkedin", "corp_openid", "corp_saml"])
            // The providers of social sharing: the flow's `sharing` (EngageSharingTests).
            #expect(json["social_providers"] == ["twitter", "facebook"])
            #expect(json.at("provider_info.google.url") == "/google/start")
            #expect(json.at("provider_info.google.friendly_name") == "Google")
            // A string: iOS compares it with isEqualToString: (EngageSDKTests).
            #expect(json.at("provider_info.google.requires_input") == "NO")
            #expect(json.at("provider_info.corp_openid.url") == "/openid/start/corp_openid")
            #expect(json.at("provider_info.corp_openid.openid_identifier") == "https://id.example.com/openid")
            #expect(json.at("provider_info.corp_openid.opx_blob") == "some_blob")
            #expect(json.at("provider_info.corp_saml.url") == "/saml2/sso/start/corp_saml")
            #expect(json.at("provider_info.corp_saml.saml_provider") == "example_saml_implementation")
        }
    }

    @Test(arguments: ["google", "corp_openid", "corp_saml"])
    func providerStartURLsCompleteToTheTokenURL(provider: String) async throws {
        try await withServer { server in
            let definition = try #require(ServerFixtures.flow.providers.first { $0.id.value == provider })
            var start = server.engage.startURL(
                for: definition, returnTo: .tokenURL("https://example.com/token?app=1"), forceReauth: true,
                installationID: "7d0c1a3e-3f43-4a4e-9d56-0b6c1e0f2a11"
            ).url
            if provider == "google" { start += "&identity=marta.keller%40example.com" }
            let target = String(start.dropFirst(server.url.description.count))
            let answer = try await server.raw(.GET, target)
            #expect(answer.status == 302)
            let location = try #require(answer.headers.first(name: "location"))
            #expect(location.hasPrefix("https://example.com/token?app=1&token="))
            let token = try #require(TestServer.query(location)["token"])
            let signedIn = try #require(try await server.socialSignIn(token).signedIn)
            let expected = ServerFixtures.identities.first {
                $0.provider == provider && (provider != "google" || $0.email == "marta.keller@example.com")
            }
            #expect(signedIn.record["profiles"]?.arrayValue?.first?["identifier"] == expected.map { .string($0.identifier) })
        }
    }

    @Test func aStartURLWithSeveralIdentitiesShowsAChoice() async throws {
        try await withServer { server in
            let google = try #require(ServerFixtures.flow.providers.first { $0.id.value == "google" })
            let start = server.engage.startURL(for: google, returnTo: .tokenURL("https://example.com/token"), installationID: "i").url
            let page = try await server.raw(.GET, String(start.dropFirst(server.url.description.count)))
            #expect(page.status == 200)
            #expect(page.body.contains("marta_k"))
            #expect(page.body.contains("ana_google"))
            #expect(page.body.contains("identity=https%3A%2F%2Fwww.google.com%2Fprofiles%2F1001"))
            // A provider the flow does not have.
            #expect(try await server.raw(.GET, "/myspace/start").status == 404)
        }
    }

    @Test func nativeTokenExchange() async throws {
        try await withServer { server in
            let result = try await server.send(server.engage.nativeTokenExchange(provider: "google", token: "google-native-marta"))
            guard case .success(.engageToken(let token)) = result else { Issue.record("\(result)"); return }
            let signedIn = try #require(try await server.socialSignIn(token).signedIn)
            #expect(signedIn.record["email"] == "marta.keller@example.com")
            // Twitter needs its token secret.
            let twitter = try await server.send(
                server.engage.nativeTokenExchange(provider: "twitter", token: "twitter-native-jun", tokenSecret: "s3cr3t"))
            guard case .success(.engageToken) = twitter else { Issue.record("\(twitter)"); return }
            let noSecret = try await server.send(server.engage.nativeTokenExchange(provider: "twitter", token: "twitter-native-jun"))
            #expect(noSecret.code == 1)
            let wrong = try await server.send(server.engage.nativeTokenExchange(provider: "google", token: "forged"))
            #expect(wrong.code == 2)
        }
    }

    @Test func authInfoForTokenURLServers() async throws {
        try await withServer(.socket, configure: { $0.server.apiKey = Located("the-app-secret", at: ServerFixtures.here) }) { server in
            let token = try await server.engageToken("corp_openid")
            let answer = try await server.raw(.POST, "/api/v2/auth_info", form: "apiKey=the-app-secret&token=" + token)
            #expect(answer.status == 200)
            let json = try JSONValue.parse(Array(answer.body.utf8))
            #expect(json["stat"] == "ok")
            #expect(json.at("profile.providerName") == "corp_openid")
            #expect(json.at("profile.identifier") == "https://id.example.com/openid/u/lea.martin")
            #expect(json.at("profile.email") == "lea.martin@corp.example.com")
            #expect(json.at("profile.verifiedEmail") == "lea.martin@corp.example.com")
            #expect(json.at("profile.name.givenName") == "Léa")
            let unknown = try await server.raw(.POST, "/api/v2/auth_info", form: "apiKey=the-app-secret&token=0000")
            #expect(unknown.body.contains("\"stat\":\"fail\""))
            // Engage tokens last ten minutes.
            let unused = try await server.engageToken("corp_openid")
            server.clock.advance(601)
            let late = try await server.raw(.POST, "/api/v2/auth_info", form: "apiKey=the-app-secret&token=" + unused)
            #expect(late.body.contains("\"stat\":\"fail\""))
        }
    }

    @Test func theRepositoryIdentitiesFileLoads() throws {
        let loaded = IdentitiesLoaderCheck.load()
        #expect(loaded.errors.isEmpty, "\(loaded.errors)")
        let providers = Set(loaded.identities.map(\.provider))
        #expect(providers.isSuperset(of: ["google", "facebook", "twitter", "corp_openid", "corp_saml"]))
        // One of them shares the email of the example registration (the merge demo).
        #expect(loaded.identities.contains { $0.email == ServerFixtures.registration()["emailAddress"] })
        let flowProviders = Set(ServerFixtures.flow.providers.map(\.id.value))
        #expect(providers.isSubset(of: flowProviders))
    }
}

import JumpFormsLoader

enum IdentitiesLoaderCheck {
    static func load() -> (identities: [TestIdentity], errors: [String]) {
        let result = IdentitiesLoader.load(path: Repository.path("identities.yaml"))
        return (result.identities, result.diagnostics.map { "\($0)" })
    }
}
