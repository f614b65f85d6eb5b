import JumpCapture
import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// Every error code the clients act on, produced by the local server and decoded by the client.
@Suite(.timeLimit(.minutes(5))) struct ErrorCodeTests {
    @Test func badCredentials210() async throws {
        try await withServer { server in
            try await server.register()
            let wrong = try await server.signIn("ana.ruiz@example.com", "not the password")
            guard case .failure(.badCredentials(let error)) = wrong else { Issue.record("\(wrong)"); return }
            #expect(error.code == 210)
            #expect(error.description == "Incorrect email address or password.")
            // An unknown account gets the same answer, in the request's locale.
            let unknown = try await server.signIn("nobody@example.com", "whatever", locale: ServerFixtures.french)
            guard case .failure(.badCredentials(let french)) = unknown else { Issue.record("\(unknown)"); return }
            #expect(french.description == "Adresse e-mail ou mot de passe incorrect.")
        }
    }

    @Test func unknownAttribute223() async throws {
        try await withServer { server in
            let (session, _) = try await server.register()
            // The default write list is the edit-profile form's attributes: not the email.
            let email = server.builder().updateObject(accessToken: session.accessToken, attribute: nil, value: ["email": "eve@example.com"])
            guard case .failure(.unknownAttribute(let error)) = try await server.send(email) else { Issue.record("no 223"); return }
            #expect(error.code == 223)
            for reserved in ["uuid", "id", "created", "password", "profiles"] {
                let request = server.builder().updateObject(accessToken: session.accessToken, attribute: nil, value: [reserved: "x"])
                #expect(try await server.send(request).code == 223, "\(reserved)")
            }
            let photos = server.builder().replacePlural(accessToken: session.accessToken, attribute: "/photos", value: [["value": "x"]])
            #expect(try await server.send(photos).code == 223)
            #expect(try await server.readRecord(session.accessToken, attribute: "/noSuchThing").code == 223)
            #expect(try await server.record(session.accessToken)["email"] == "ana.ruiz@example.com")
        }
    }

    @Test func writeWithTokenListFromTheConfig223() async throws {
        let writable = [Located("/aboutMe", at: ServerFixtures.here)]
        try await withServer(configure: { $0.server.writeWithToken = writable }) { server in
            let (session, _) = try await server.register()
            let allowed = server.builder().updateObject(accessToken: session.accessToken, attribute: nil, value: ["aboutMe": "ok"])
            #expect(try await server.send(allowed).isOK)
            // displayName is in the edit form, but not in this server's list.
            let refused = server.builder().updateObject(accessToken: session.accessToken, attribute: nil, value: ["displayName": "eve"])
            #expect(try await server.send(refused).code == 223)
            let nested = server.builder().updateObject(accessToken: session.accessToken, attribute: "/primaryAddress", value: ["city": "Oslo"])
            #expect(try await server.send(nested).code == 223)
        }
    }

    @Test func recordNotFound310MapsPreregFields() async throws {
        try await withServer(.socket) { server in
            let token = try await server.engageToken("twitter")
            let result = try await server.socialSignIn(token, locale: ServerFixtures.french)
            guard case .failure(.registrationNeeded(let twoStep)) = result else { Issue.record("\(result)"); return }
            #expect(twoStep.server.code == 310)
            #expect(twoStep.server.body["prereg_fields"] == ["displayName": "jun_sato", "firstName": "Jun", "lastName": "Sato"])
            #expect(twoStep.prefill == ["displayName": "jun_sato", "firstName": "Jun", "lastName": "Sato"])
            #expect(twoStep.token == token)
            #expect(twoStep.server.description == "Aucun compte n’utilise encore cette connexion. Terminez l’inscription pour en créer un.")
        }
    }

    @Test func thinRegistrationThatBreaksARuleEndsIn310() async throws {
        // The profile's display name is taken: thin registration cannot satisfy `unique`.
        let identities = [
            TestIdentity(
                provider: "google", identifier: "g-1", email: "kim@example.com", givenName: "Kim", familyName: "Lee",
                displayName: "ana_r", location: ServerFixtures.here)
        ]
        try await withServer(.socket, identities: identities) { server in
            try await server.register()
            let result = try await server.socialSignIn(try await server.engageToken("google"))
            guard case .failure(.registrationNeeded(let twoStep)) = result else { Issue.record("\(result)"); return }
            #expect(twoStep.prefill["emailAddress"] == "kim@example.com")
            #expect(try await server.server.accountCount() == 1)
        }
    }

    @Test func emailInUse380ThenMergeTokenLinks() async throws {
        try await withServer(.socket) { server in
            let (account, _) = try await server.register()
            let googleToken = try await server.engageToken("google", identity: "ana.ruiz@example.com")
            let result = try await server.socialSignIn(googleToken)
            guard case .failure(.mergeRequired(let merge)) = result else { Issue.record("\(result)"); return }
            #expect(merge.server.code == 380)
            #expect(merge.existingProvider == "capture")
            #expect(merge.conflictingProvider == "google")
            #expect(merge.mergeToken == googleToken)
            // Sign in the existing way with the merge token: Google is linked.
            let merged = try #require(try await server.signIn("ana.ruiz@example.com", mergeToken: merge.mergeToken).signedIn)
            #expect(merged.record["uuid"] == account.record["uuid"])
            #expect(merged.record["profiles"]?.arrayValue?.first?["identifier"] == "https://www.google.com/profiles/1002")
            let viaGoogle = try #require(
                try await server.socialSignIn(try await server.engageToken("google", identity: "ana.ruiz@example.com")).signedIn)
            #expect(viaGoogle.record["uuid"] == account.record["uuid"])
            #expect(try await server.server.accountCount() == 1)
        }
    }

    @Test func mergeIntoASocialAccountNamesItsProvider() async throws {
        let identities = [
            TestIdentity(
                provider: "facebook", identifier: "fb-1", email: "kim@example.com", givenName: "Kim", familyName: "Lee",
                displayName: "kim_lee", location: ServerFixtures.here),
            TestIdentity(
                provider: "google", identifier: "g-1", email: "KIM@example.com", givenName: "Kim", familyName: "Lee",
                displayName: "kim_g", location: ServerFixtures.here)
        ]
        try await withServer(.socket, identities: identities) { server in
            let account = try #require(try await server.socialSignIn(try await server.engageToken("facebook")).signedIn)
            let googleToken = try await server.engageToken("google")
            guard case .failure(.mergeRequired(let merge)) = try await server.socialSignIn(googleToken) else { Issue.record("no 380"); return }
            #expect(merge.existingProvider == "facebook")
            let merged = try #require(try await server.socialSignIn(try await server.engageToken("facebook"), mergeToken: merge.mergeToken).signedIn)
            #expect(merged.record["uuid"] == account.record["uuid"])
            #expect(Set(merged.record["profiles"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue } ?? []) == ["fb-1", "g-1"])
        }
    }

    @Test(arguments: [
        ("en-US", "This email address is already registered. Sign in or reset your password.", "Some fields are not valid."),
        (
            "fr-FR", "Cette adresse e-mail est déjà enregistrée. Connectez-vous ou réinitialisez votre mot de passe.",
            "Certains champs ne sont pas valides."
        )
    ])
    func invalidFields390AreLocalized(locale: String, emailTaken: String, summary: String) async throws {
        try await withServer { server in
            let tag = try #require(LocaleTag(locale))
            try await server.register()
            // `unique` against the database: only the server checks it.
            let secret = RefreshSecret.generate()
            let again = try server.builder(tag).register(
                ServerFixtures.registration(email: "Ana.Ruiz@Example.com", displayName: "ana_2"),
                refreshSecret: secret, today: server.today)
            guard case .failure(.invalidFields(let invalid)) = try await server.send(again) else { Issue.record("no 390"); return }
            #expect(invalid.server.code == 390)
            #expect(invalid.server.description == summary)
            #expect(invalid.fields == [FieldMessages(field: "emailAddress", messages: [emailTaken])])
            // The client's rules, checked again by the server (the request bypasses the client).
            let bypass = again.setting("displayName", "x").setting("newPasswordConfirm", "other")
                .setting("emailAddress", "eve@mailinator.com")
            guard case .failure(.invalidFields(let rules)) = try await server.send(bypass) else { Issue.record("no 390"); return }
            let expected = ServerFixtures.localizer
            let form = try FormInterpreter(flow: ServerFixtures.flow, localizer: expected).model(form: "registrationForm", locale: tag)
            let report = RuleEngine(form: form, today: server.today).validate([
                "emailAddress": "eve@mailinator.com", "displayName": "x", "firstName": "Ana", "lastName": "Ruiz",
                "newPassword": ServerFixtures.password, "newPasswordConfirm": "other", "birthdate": "1990-04-01", "optIn": "true"
            ])
            #expect(rules.fields == expected.messages(for: report.violations, in: form))
            #expect(Set(rules.fields.map(\.field)) == ["emailAddress", "displayName", "newPasswordConfirm"])
            #expect(try await server.server.accountCount() == 1)
        }
    }

    /// `unique`'s documented examples (RuleKind.examples, shown in docs/flow-format.md), run by
    /// the server: the example flow's displayName is unique.
    @Test func uniqueExamplesHoldOnTheServer() async throws {
        for example in RuleKind.unique.examples {
            try await withServer { server in
                #expect(ServerFixtures.flow.field(named: "displayName")?.validation.contains { $0.kind == .unique } == true)
                for (index, taken) in example.taken.enumerated() {
                    try await server.register(ServerFixtures.registration(email: "taken\(index)@example.com", displayName: taken))
                }
                for (index, input) in (example.valid + example.invalid).enumerated() {
                    let values = ServerFixtures.registration(email: "user\(index)@example.com", displayName: input.value)
                    let request = try server.builder(ServerFixtures.english).register(values, refreshSecret: .generate(), today: server.today)
                    let result = try await server.send(request)
                    if example.valid.contains(input) {
                        guard case .success(.signedIn) = result else { Issue.record("'\(input.value)' should pass: \(result)"); continue }
                    } else {
                        guard case .failure(.invalidFields(let invalid)) = result else {
                            Issue.record("'\(input.value)' should fail: \(result)"); continue
                        }
                        #expect(invalid.fields.map(\.field) == ["displayName"], "\(input.value)")
                    }
                }
            }
        }
    }

    @Test func frenchMessagesForTheClientRules390() async throws {
        try await withServer { server in
            let request = try server.builder(ServerFixtures.french).register(
                ServerFixtures.registration(), refreshSecret: .generate(), today: server.today)
            let result = try await server.send(request.setting("displayName", "ab"))
            guard case .failure(.invalidFields(let invalid)) = result else { Issue.record("\(result)"); return }
            let message = try #require(invalid.fields.first { $0.field == "displayName" }?.messages.first)
            #expect(message.contains("3"))
            #expect(message.contains("caractères"))
        }
    }

    @Test func accessTokenExpired414AfterTheLifetime() async throws {
        try await withServer { server in
            let (session, secret) = try await server.register()
            server.clock.advance(3599)
            #expect(try await server.readRecord(session.accessToken).isSuccess)
            server.clock.advance(1)
            let expired = try await server.readRecord(session.accessToken)
            guard case .failure(.accessTokenExpired(let error)) = expired else { Issue.record("\(expired)"); return }
            #expect(error.code == 414)
            #expect(error.description == "Your session has expired. Sign in again.")
            // Every call that needs the token says so.
            let update = server.builder().updateObject(accessToken: session.accessToken, attribute: nil, value: ["aboutMe": "x"])
            #expect(try await server.send(update).code == 414)
            // Refresh, then retry.
            let refresh = server.builder().refreshAccessToken(accessToken: session.accessToken, refreshSecret: secret, epochSeconds: server.clock.now)
            guard case .success(.refreshed(let token, _)) = try await server.send(refresh) else { Issue.record("refresh refused"); return }
            #expect(try await server.readRecord(token).isSuccess)
        }
    }

    @Test func theLifetimeIsConfigurable() async throws {
        try await withServer(configure: { $0.server.accessTokenLifetime = 60 }) { server in
            let (session, _) = try await server.register()
            #expect(session.expiresIn == 60)
            server.clock.advance(60)
            #expect(try await server.readRecord(session.accessToken).code == 414)
        }
    }

    /// Capture compares `redirect_uri` in `/oauth/token` only (420 there): a registration takes
    /// whatever the SDK sends (JRCaptureError.h: 420 "occurs in the oauth/token API call").
    @Test func redirectURIIsNotComparedOutsideTheTokenCall() async throws {
        try await withServer { server in
            let request = try server.builder().register(ServerFixtures.registration(), refreshSecret: .generate(), today: server.today)
                .setting("redirect_uri", "https://other.example.net/cb")
            #expect(try await server.send(request).signedIn != nil)
            #expect(try await server.server.accountCount() == 1)
        }
    }

    @Test func missingArgument100() async throws {
        try await withServer { server in
            let (session, secret) = try await server.register()
            let refresh = server.builder().refreshAccessToken(accessToken: session.accessToken, refreshSecret: secret, epochSeconds: server.clock.now)
            for name in ["date", "signature", "access_token", "client_id"] {
                let result = try await server.send(refresh.removing(name))
                #expect(result.code == 100, "\(name): \(result)")
                #expect(result.error?.serverError?.error == "missing_argument")
            }
        }
    }

    @Test func invalidArgument200() async throws {
        try await withServer { server in
            let (session, secret) = try await server.register()
            func refresh(_ seconds: Int) -> CaptureRequest {
                server.builder().refreshAccessToken(accessToken: session.accessToken, refreshSecret: secret, epochSeconds: seconds)
            }
            // A date more than five minutes off, either way.
            #expect(try await server.send(refresh(server.clock.now - 301)).code == 200)
            #expect(try await server.send(refresh(server.clock.now + 301)).code == 200)
            // A bad signature: another secret, or a signature of another token.
            let forged = server.builder().refreshAccessToken(
                accessToken: session.accessToken, refreshSecret: .generate(), epochSeconds: server.clock.now)
            let result = try await server.send(forged)
            #expect(result.code == 200)
            #expect(result.error?.serverError?.description.contains("signature") == true)
            #expect(try await server.send(refresh(server.clock.now).setting("signature", "AAAA")).code == 200)
            #expect(try await server.send(refresh(server.clock.now).setting("date", "yesterday")).code == 200)
            // The session still refreshes after the refusals.
            guard case .success(.refreshed) = try await server.send(refresh(server.clock.now)) else { Issue.record("refused"); return }
            // Unknown parameters are refused with a hint.
            let unknown = try await server.send(server.builder().readRecord(accessToken: "t").adding("atribute_name", "/email"))
            #expect(unknown.code == 200)
            #expect(unknown.error?.serverError?.description.contains("attribute_name") == true)
            // A form of another operation.
            let request = try server.builder().register(
                ServerFixtures.registration(email: "eve@example.com", displayName: "eve"),
                refreshSecret: .generate(), today: server.today)
            #expect(try await server.send(request.setting("form", "nosuchForm")).code == 200)
            #expect(try await server.send(request.setting("flow", "other")).code == 200)
            #expect(try await server.send(request.setting("flow_version", "1999")).code == 200)
            #expect(try await server.send(request.setting("response_type", "id_token")).code == 200)
            // An access token the server never issued.
            #expect(try await server.readRecord("0123").code == 200)
        }
    }

    @Test func duplicateArgument201() async throws {
        try await withServer { server in
            let (session, _) = try await server.register()
            let request = server.builder().readRecord(accessToken: session.accessToken).adding("access_token", session.accessToken)
            let result = try await server.send(request)
            #expect(result.code == 201)
            #expect(result.error?.serverError?.error == "duplicate_argument")
        }
    }

    @Test func identifierInUse361() async throws {
        try await withServer(.socket) { server in
            let (ana, _) = try await server.register()
            let marta = try #require(
                try await server.socialSignIn(try await server.engageToken("google", identity: "marta.keller@example.com")).signedIn)
            // Marta's Google identity belongs to Marta's account.
            let link = server.builder().linkAccount(
                accessToken: ana.accessToken, token: try await server.engageToken("google", identity: "marta.keller@example.com"))
            #expect(try await server.send(link).code == 361)
            // Nor can a merge token move it: no 380 named Ana's account for it.
            let merge = try await server.engageToken("google", identity: "marta.keller@example.com")
            #expect(try await server.signIn("ana.ruiz@example.com", mergeToken: merge).code == 200)
            #expect(try await server.record(marta.accessToken)["profiles"]?.arrayValue?.count == 1)
        }
    }

    @Test func invalidClient402() async throws {
        try await withServer { server in
            let request = try server.builder().register(ServerFixtures.registration(), refreshSecret: .generate(), today: server.today)
            let result = try await server.send(request.setting("client_id", "someoneelse0000000000000000000000"))
            #expect(result.code == 402)
            #expect(try await server.server.accountCount() == 0)
        }
    }

    @Test func notFound404() async throws {
        try await withServer { server in
            let answer = try await server.raw(.POST, "/oauth/auth_native_everything", form: "a=b")
            #expect(answer.status == 404)
            let json = try JSONValue.parse(Array(answer.body.utf8))
            #expect(json["stat"] == "error")
            #expect(json["code"] == .integer(404))
            var request = server.builder().readRecord(accessToken: "t")
            request.path = "/entity.nothing"
            #expect(try await server.send(request).code == 404)
        }
    }

    @Test func methodNotAllowed405() async throws {
        try await withServer { server in
            for (method, path) in [
                (HTTPMethodName.GET, "/oauth/auth_native_traditional"), (.PUT, "/entity"), (.DELETE, "/oauth/refresh_access_token"),
                (.POST, "/health"), (.POST, "/openid/mobile_config_and_baseurl")
            ] {
                let answer = try await server.raw(method.nio, path)
                #expect(answer.status == 405, "\(method) \(path)")
                let json = try JSONValue.parse(Array(answer.body.utf8))
                #expect(json["code"] == .integer(405))
                #expect(json["error"] == "method_not_allowed")
            }
        }
    }

    @Test func requestTooLarge413() async throws {
        try await withServer { server in
            let limit = ServerFixtures.config.server.maximumRequestSize
            #expect(limit == 65536)
            let big = "client_id=x&aboutMe=" + String(repeating: "a", count: limit)
            let answer = try await server.raw(.POST, "/oauth/update_profile_native", form: big)
            #expect(answer.status == 413)
            let json = try JSONValue.parse(Array(answer.body.utf8))
            #expect(json["code"] == .integer(413))
            // Just under the limit is read (and refused for what it says, not its size).
            let fits = "client_id=x&aboutMe=" + String(repeating: "a", count: limit - 40)
            let small = try await server.raw(.POST, "/oauth/update_profile_native", form: fits)
            #expect(small.status == 200)
            #expect(small.body.contains("\"stat\":\"error\""))
            // The server keeps serving.
            #expect(try await server.raw(.GET, "/health").status == 200)
        }
    }

    @Test func oversizedConfiguredLimit413() async throws {
        try await withServer(configure: { $0.server.maximumRequestSize = 1024 }) { server in
            let request = try server.builder().register(ServerFixtures.registration(), refreshSecret: .generate(), today: server.today)
            let result = try await server.send(request.setting("aboutMe", String(repeating: "é", count: 600)))
            #expect(result.code == 413)
        }
    }
}

enum HTTPMethodName: String, CustomStringConvertible {
    case GET, POST, PUT, DELETE, PATCH, HEAD, OPTIONS
    var description: String { rawValue }
}

import AsyncHTTPClient
import NIOHTTP1

extension HTTPMethodName {
    var nio: HTTPMethod { HTTPMethod(rawValue: rawValue) }
}

extension Result where Success == CaptureSuccess, Failure == CaptureError {
    var isSuccess: Bool {
        if case .success = self { return true }
        return false
    }
}
