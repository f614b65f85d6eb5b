import JumpCapture
import JumpForms
import Testing
import TestSupport

/// Fixes to the server's registration, Engage double, reset page and merge flow, one test each.
@Suite(.timeLimit(.minutes(5))) struct ServerRuleFixTests {
    /// A registration with taken values and other errors used to list the other errors only;
    /// the taken ones showed up on the next attempt.
    @Test func one390ListsTakenValuesWithTheOtherErrors() async throws {
        try await withServer { server in
            try await server.register()
            // The client's rules would stop these values: the request bypasses them.
            let request = try server.builder().register(
                ServerFixtures.registration(email: "ANA.RUIZ@example.com", displayName: "ana_r"),
                refreshSecret: .generate(), today: server.today
            )
            .setting("lastName", "").setting("newPassword", "short").setting("newPasswordConfirm", "other")
            guard case .failure(.invalidFields(let invalid)) = try await server.send(request) else { Issue.record("no 390"); return }
            #expect(invalid.fields.map(\.field) == ["emailAddress", "displayName", "lastName", "newPassword", "newPasswordConfirm"])
            let taken = invalid.fields.first { $0.field == "emailAddress" }?.messages
            #expect(taken == ["This email address is already registered. Sign in or reset your password."])
            #expect(invalid.fields.first { $0.field == "displayName" }?.messages.count == 1)
            // A field that fails its own rules is not also reported taken.
            guard case .failure(.invalidFields(let rules)) = try await server.send(request.setting("displayName", "x")) else {
                Issue.record("no 390"); return
            }
            #expect(rules.fields.first { $0.field == "displayName" }?.messages.count == 1)
            #expect(rules.fields.first { $0.field == "emailAddress" } != nil)
            #expect(try await server.server.accountCount() == 1)
            // Update profile: the account's own value is not taken, another account's is.
            let (eve, _) = try await server.register(ServerFixtures.registration(email: "eve@example.com", displayName: "eve_r"))
            let own = try server.builder().updateProfile(
                ["displayName": "eve_r", "firstName": "Eve", "lastName": "Roe"],
                accessToken: eve.accessToken, today: server.today
            ).setting("lastName", "")
            guard case .failure(.invalidFields(let mine)) = try await server.send(own) else { Issue.record("no 390"); return }
            #expect(mine.fields.map(\.field) == ["lastName"])
            let other = own.setting("displayName", "ANA_R")
            guard case .failure(.invalidFields(let theirs)) = try await server.send(other) else { Issue.record("no 390"); return }
            #expect(theirs.fields.map(\.field) == ["displayName", "lastName"])
        }
    }

    /// The Engage double: auth_info takes POST only (as documented), `provider` cannot
    /// contradict `providername`, repeated parameters get 201, an unknown provider is named.
    @Test func engageDoubleParameters() async throws {
        try await withServer(.socket, configure: { $0.server.apiKey = Located("the-app-secret", at: ServerFixtures.here) }) { server in
            let token = try await server.engageToken("google", identity: "marta.keller@example.com")
            let get = try await server.raw(.GET, "/api/v2/auth_info?apiKey=the-app-secret&token=" + token)
            #expect(get.status == 405)
            #expect(get.headers.first(name: "allow") == "POST")
            let twice = try await server.raw(.POST, "/api/v2/auth_info", form: "apiKey=the-app-secret&token=\(token)&token=\(token)")
            #expect(twice.body.contains(#""code":201"#), "\(twice.body)")
            let post = try await server.raw(.POST, "/api/v2/auth_info", form: "apiKey=the-app-secret&token=" + token)
            #expect(post.body.contains(#""stat":"ok""#), "\(post.body)")

            let mismatch = try await server.raw(.POST, "/signin/oauth_token?providername=google", form: "provider=facebook&token=google-native-marta")
            #expect(mismatch.body.contains(#""code":1"#) && mismatch.body.contains("does not match"), "\(mismatch.body)")
            let repeated = try await server.raw(
                .POST, "/signin/oauth_token?providername=google&providername=google", form: "token=google-native-marta")
            #expect(repeated.body.contains(#""code":201"#), "\(repeated.body)")
            let unknown = try await server.raw(.POST, "/signin/oauth_token?providername=nope", form: "provider=nope&token=x")
            #expect(unknown.body.contains("unknown provider 'nope'") && !unknown.body.contains("token is not valid"), "\(unknown.body)")
            let same = try await server.raw(.POST, "/signin/oauth_token?providername=google", form: "provider=google&token=google-native-marta")
            #expect(same.body.contains(#""stat":"ok""#), "\(same.body)")
        }
    }

    /// The password-reset page speaks the locale its email was sent in.
    @Test func theResetPageIsLocalized() async throws {
        try await withServer { server in
            try await server.register()
            let german = try #require(LocaleTag("de-DE"))
            let request = try server.builder(german).forgotPassword(["signInEmailAddress": "ana.ruiz@example.com"], today: server.today)
            #expect(try await server.send(request).isOK)
            let message = try #require(try await server.server.outbox().first { $0.kind == "forgot_password" })
            #expect(message.subject == "Passwort zurücksetzen")
            let link = try #require(OperationTests.link(in: message.body, path: "/password/reset"))
            let code = try #require(TestServer.query(link)["code"])
            let page = try await server.raw(.GET, "/password/reset?code=" + code)
            #expect(page.status == 200)
            #expect(page.body.contains(#"<html lang="de-DE" dir="ltr">"#))
            #expect(page.body.contains("Neues Passwort wählen") && page.body.contains("Speichern"), "\(page.body)")
            #expect(!page.body.contains("Choose a new password"))
            let short = try await server.raw(.POST, "/password/reset", form: "code=\(code)&password=short")
            #expect(short.status == 400)
            #expect(short.body.contains("mindestens 8 Zeichen"), "\(short.body)")
            let changed = try await server.raw(
                .POST, "/password/reset",
                form: "code=\(code)&password=" + FormEncoding.encode("neues Passwort 1") + "&passwordConfirm="
                    + FormEncoding.encode("neues Passwort 1"))
            #expect(changed.body.contains("Passwort geändert"), "\(changed.body)")
            // A link that is not valid: the server's locale.
            let gone = try await server.raw(.GET, "/password/reset?code=" + code)
            #expect(gone.status == 404)
            #expect(gone.body.contains("Link not valid"))
        }
    }

    /// The email-confirmation page speaks the locale its email was sent in, as the reset page does.
    @Test func theConfirmationPageIsLocalized() async throws {
        try await withServer { server in
            let (session, _) = try await server.register()
            let polish = try #require(LocaleTag("pl-PL"))
            let request = try server.builder(polish).resendVerification(["signInEmailAddress": "ana.ruiz@example.com"], today: server.today)
            #expect(try await server.send(request).isOK)
            let message = try #require(try await server.server.outbox().last { $0.kind == "verify_email" })
            let link = try #require(OperationTests.link(in: message.body, path: "/email/verify"))
            let code = try #require(TestServer.query(link)["code"])
            let page = try await server.raw(.GET, "/email/verify?code=" + code)
            #expect(page.status == 200)
            #expect(page.body.contains(#"<html lang="pl-PL" dir="ltr">"#))
            #expect(page.body.contains("Adres e-mail potwierdzony") && !page.body.contains("Email confirmed"), "\(page.body)")
            #expect(try await server.record(session.accessToken)["emailVerified"] != nil)
            // Used up: the server's locale, and nothing confirmed twice.
            let gone = try await server.raw(.GET, "/email/verify?code=" + code)
            #expect(gone.status == 404)
            #expect(gone.body.contains("This confirmation link is not valid or has expired."), "\(gone.body)")
        }
    }

    /// A merge token links only to the account its 380 named: Ana's Google token could be
    /// spent by Bob, and any unused Engage token worked as a merge token.
    @Test func aMergeTokenLinksOnlyToTheAccountOfIts380() async throws {
        try await withServer(.socket) { server in
            let (ana, _) = try await server.register()
            try await server.register(ServerFixtures.registration(email: "bob@example.com", displayName: "bob_r"))
            let google = try await server.engageToken("google", identity: "ana.ruiz@example.com")
            guard case .failure(.mergeRequired(let merge)) = try await server.socialSignIn(google) else { Issue.record("no 380"); return }
            let intoBob = try await server.signIn("bob@example.com", mergeToken: merge.mergeToken)
            #expect(intoBob.code == 200, "\(intoBob)")
            #expect(intoBob.error?.serverError?.description.contains("another account") == true, "\(intoBob)")
            // A token no 380 answered: refused too.
            let facebook = try await server.engageToken("facebook")
            let noMerge = try await server.signIn("bob@example.com", mergeToken: facebook)
            #expect(noMerge.code == 200, "\(noMerge)")
            #expect(noMerge.error?.serverError?.description.contains("380") == true, "\(noMerge)")
            let bob = try #require(try await server.signIn("bob@example.com").signedIn)
            #expect(bob.record["profiles"]?.arrayValue == [])
            // The account the 380 named still merges.
            let merged = try #require(try await server.signIn("ana.ruiz@example.com", mergeToken: merge.mergeToken).signedIn)
            #expect(merged.record["uuid"] == ana.record["uuid"])
            #expect(merged.record["profiles"]?.arrayValue?.first?["identifier"] == "https://www.google.com/profiles/1002")
        }
    }

    /// A refused merge leaves both tokens usable: a social sign-in whose `merge_token` was
    /// refused used to use up its own `token`, so the client could not retry without it.
    @Test func aRefusedMergeUsesUpNoToken() async throws {
        try await withServer(.socket) { server in
            try await server.register()
            // Tomasz's account, made by a thin registration with Facebook.
            let tomasz = try #require(try await server.socialSignIn(try await server.engageToken("facebook")).signedIn)
            let google = try await server.engageToken("google", identity: "ana.ruiz@example.com")
            guard case .failure(.mergeRequired(let merge)) = try await server.socialSignIn(google) else { Issue.record("no 380"); return }
            // Ana's merge token into Tomasz's account, and a token no 380 answered: refused.
            let facebook = try await server.engageToken("facebook")
            let intoTomasz = try await server.socialSignIn(facebook, mergeToken: merge.mergeToken)
            #expect(intoTomasz.error?.serverError?.description.contains("another account") == true, "\(intoTomasz)")
            let unanswered = try await server.engageToken("corp_openid")
            let noMerge = try await server.socialSignIn(facebook, mergeToken: unanswered)
            #expect(noMerge.error?.serverError?.description.contains("380") == true, "\(noMerge)")
            // Every token is still usable: Tomasz signs in with his, Ana merges with hers.
            let again = try #require(try await server.socialSignIn(facebook).signedIn)
            #expect(again.record["uuid"] == tomasz.record["uuid"])
            #expect(again.record["profiles"]?.arrayValue?.count == 1)
            let merged = try #require(try await server.signIn("ana.ruiz@example.com", mergeToken: merge.mergeToken).signedIn)
            #expect(merged.record["profiles"]?.arrayValue?.first?["identifier"] == "https://www.google.com/profiles/1002")
            // Léa's token was not used up either (a sign-in or a 310, not 200 "not valid").
            let lea = try await server.socialSignIn(unanswered)
            #expect(lea.code != 200, "\(lea)")
            // The merge that went through used its token up.
            #expect(try await server.socialSignIn(try #require(merge.mergeToken)).code == 200)
        }
    }
}
