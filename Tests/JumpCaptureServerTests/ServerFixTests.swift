import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// Server bugs found while writing the end-to-end tests, one test per fix.
@Suite(.timeLimit(.minutes(5))) struct ServerFixTests {
    /// An operation only takes its own forms: update_profile with `form=registrationForm` used
    /// to change the password without the current one, and with `form=signInForm` to write the
    /// email (a 500 when another account had it).
    @Test func operationsOnlyTakeTheirOwnForms() async throws {
        try await withServer { server in
            let (ana, _) = try await server.register()
            try await server.register(ServerFixtures.registration(email: "eve@example.com", displayName: "eve_r"))
            let base = try server.builder().updateProfile(
                ["displayName": "ana_r", "firstName": "Ana", "lastName": "Ruiz"],
                accessToken: ana.accessToken, today: server.today)
            var takeover = base.removing("displayName").removing("firstName").removing("lastName").setting("form", "registrationForm")
            for (name, value) in ServerFixtures.registration(email: "ana.ruiz@example.com", displayName: "ana_r").values
            where !name.hasPrefix("birthdate") && name != "newPassword" && name != "newPasswordConfirm" {
                takeover = takeover.setting(name, value)
            }
            takeover = takeover.setting("newPassword", "stolen password").setting("newPasswordConfirm", "stolen password")
            let refused = try await server.send(takeover)
            #expect(refused.code == 200, "\(refused)")
            #expect(try await server.signIn("ana.ruiz@example.com", "stolen password").code == 210)
            let email = base.removing("displayName").removing("firstName").removing("lastName").setting("form", "signInForm")
                .setting("signInEmailAddress", "eve@example.com")
            let answer = try await server.answer(email)
            #expect(answer.status != 500)
            #expect(server.decoder.decode(.updateProfile, status: answer.status, body: answer.body).code == 200)
            // Registration and sign-in too.
            let register = try server.builder().register(
                ServerFixtures.registration(email: "kim@example.com", displayName: "kim"),
                refreshSecret: .generate(), today: server.today)
            #expect(try await server.send(register.setting("form", "editProfileForm")).code == 200)
            let signIn = try server.builder().signIn(
                ["signInEmailAddress": "ana.ruiz@example.com", "currentPassword": ServerFixtures.password],
                refreshSecret: .generate(), today: server.today)
            #expect(try await server.send(signIn.setting("form", "forgotPasswordForm")).code == 200)
            // The change-password form is an update_profile form.
            let change = try server.builder().changePassword(
                ["currentPassword": ServerFixtures.password, "newPassword": "new battery staple", "newPasswordConfirm": "new battery staple"],
                accessToken: ana.accessToken, today: server.today)
            #expect(try await server.send(change).isOK)
        }
    }

    /// entity.update that fails other rules and sets a taken unique value: one 390 lists both,
    /// as the forms' 390 does (the taken value used to come as a 361 on the next call).
    @Test func entityUpdate390ListsTakenValues() async throws {
        let writable = ["/displayName", "/aboutMe"].map { Located($0, at: ServerFixtures.here) }
        try await withServer(configure: { $0.server.writeWithToken = writable }) { server in
            let (ana, _) = try await server.register()
            try await server.register(ServerFixtures.registration(email: "eve@example.com", displayName: "eve_r"))
            let tooLong = JSONValue.string(String(repeating: "a", count: 501))
            for attribute in [nil, "/"] {
                let write = server.builder().updateObject(
                    accessToken: ana.accessToken, attribute: attribute,
                    value: ["displayName": "EVE_R", "aboutMe": tooLong])
                guard case .failure(.invalidFields(let invalid)) = try await server.send(write) else { Issue.record("no 390"); return }
                #expect(Set(invalid.fields.map(\.field)) == ["displayName", "aboutMe"], "\(invalid)")
                // The message of displayName's `unique` rule, as a registration gives it.
                let registration = try server.builder().register(
                    ServerFixtures.registration(email: "kim@example.com", displayName: "eve_r"),
                    refreshSecret: .generate(), today: server.today)
                guard case .failure(.invalidFields(let registered)) = try await server.send(registration) else { Issue.record("no 390"); return }
                #expect(
                    invalid.fields.first { $0.field == "displayName" }?.messages == registered.fields.first { $0.field == "displayName" }?.messages)
            }
            // A taken value alone is still 361, and nothing was written.
            let taken = server.builder().updateObject(accessToken: ana.accessToken, attribute: nil, value: ["displayName": "EVE_R"])
            #expect(try await server.send(taken).code == 361)
            let record = try await server.record(ana.accessToken)
            #expect(record["displayName"] == "ana_r")
            #expect(record["aboutMe"] == nil)
        }
    }

    /// entity.update of a unique attribute another account holds: 361, not a 500 (email, by
    /// the index) nor a silent duplicate (displayName, by the flow's `unique` rule).
    @Test func entityUpdateRespectsUniqueAttributes() async throws {
        let writable = ["/email", "/displayName", "/aboutMe"].map { Located($0, at: ServerFixtures.here) }
        try await withServer(configure: { $0.server.writeWithToken = writable }) { server in
            let (ana, _) = try await server.register()
            try await server.register(ServerFixtures.registration(email: "eve@example.com", displayName: "eve_r"))
            let email = server.builder().updateObject(accessToken: ana.accessToken, attribute: nil, value: ["email": "EVE@example.com"])
            let answer = try await server.answer(email)
            #expect(answer.status != 500)
            let result = server.decoder.decode(.updateObject, status: answer.status, body: answer.body)
            #expect(result.code == 361, "\(result)")
            let name = server.builder().updateObject(accessToken: ana.accessToken, attribute: nil, value: ["displayName": "EVE_R"])
            #expect(try await server.send(name).code == 361)
            let record = try await server.record(ana.accessToken)
            #expect(record["email"] == "ana.ruiz@example.com")
            #expect(record["displayName"] == "ana_r")
            // A free value is written, and the email is found by sign-in under its new address.
            let free = server.builder().updateObject(
                accessToken: ana.accessToken, attribute: nil, value: ["email": "ana@example.org", "displayName": "ana"])
            #expect(try await server.send(free).isOK)
            #expect(try await server.signIn("ana@example.org").signedIn != nil)
        }
    }

    /// A refresh secret that is not 40 hex characters used to be dropped silently, leaving a
    /// session that could never refresh.
    @Test func aMalformedRefreshSecretIsRefused() async throws {
        try await withServer { server in
            let request = try server.builder().register(ServerFixtures.registration(), refreshSecret: .generate(), today: server.today)
            let result = try await server.send(request.setting("refresh_secret", "not-a-secret"))
            #expect(result.code == 200, "\(result)")
            #expect(result.error?.serverError?.description.contains("refresh_secret") == true)
            #expect(try await server.server.accountCount() == 0)
        }
    }

    /// The Engage double hands tokens only to the whitelisted domain (and loopback, where the
    /// CLI listens), as Engage does.
    @Test func tokenURLsOutsideTheWhitelistAreRefused() async throws {
        try await withServer(.socket) { server in
            await #expect(throws: HarnessError.self) {
                _ = try await server.engageToken("facebook", tokenURL: "https://evil.example.net/steal")
            }
            let google = try #require(ServerFixtures.flow.providers.first { $0.id.value == "facebook" })
            let start = server.engage.startURL(for: google, returnTo: .tokenURL("https://example.com.evil.net/"), installationID: "i").url
            let page = try await server.raw(.GET, String(start.dropFirst(server.url.description.count)))
            #expect(page.status == 400)
            #expect(page.headers.first(name: "location") == nil)
            #expect(page.body.contains("whitelist"))
            // The whitelisted domain, its subdomains, and loopback addresses are fine.
            for url in ["https://example.com/token", "https://app.example.com/t", "http://127.0.0.1:9/", "http://localhost:8/cb"] {
                #expect(try await server.engageToken("facebook", tokenURL: url).count == 64, "\(url)")
            }
        }
    }

    /// A token refreshes once: concurrent refreshes of one token used to all pass the check
    /// (made before the write) and each rotate it, leaving several live tokens.
    @Test func concurrentRefreshesOfOneTokenRotateItOnce() async throws {
        try await withServer { server in
            let (session, secret) = try await server.register()
            let request = server.builder().refreshAccessToken(accessToken: session.accessToken, refreshSecret: secret, epochSeconds: server.clock.now)
            let results = await withTaskGroup(of: Result<CaptureSuccess, CaptureError>?.self) { group in
                for _ in 0..<24 { group.addTask { try? await server.send(request) } }
                var all: [Result<CaptureSuccess, CaptureError>?] = []
                for await result in group { all.append(result) }
                return all
            }
            var tokens: [String] = []
            for case .success(.refreshed(let token, _))? in results { tokens.append(token) }
            #expect(tokens.count == 1, "\(tokens.count) refreshes of one token went through")
            #expect(results.filter { $0?.code == 200 }.count == 23)
            if let token = tokens.first { #expect(try await server.readRecord(token).isSuccess) }
        }
    }

    /// Unknown locales are served (with the default texts) without growing the form cache
    /// without bound.
    @Test func manyLocalesAreServed() async throws {
        // 300 wrong passwords: the sign-in throttle off.
        try await withServer(configure: {
            $0.server.signInFailureLimit = 0; $0.server.clientFailureLimit = 0
        }) { server in
            for index in 0..<300 {
                let tag = try #require(LocaleTag("en-US-v\(10000 + index)"))
                let request = try server.builder(tag).signIn(
                    ["signInEmailAddress": "nobody@example.com", "currentPassword": "whatever"],
                    refreshSecret: .generate(), today: server.today)
                #expect(try await server.send(request).code == 210)
            }
            #expect(server.server.service.cachedFormCount <= 256)
        }
    }
}
