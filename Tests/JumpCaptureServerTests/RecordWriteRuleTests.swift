import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// Writes to a record run the flow's and the schema's rules: an operation takes only its own forms,
/// `entity.update` and `entity.replace` check what they write, and a 390 lists every taken value.
@Suite(.timeLimit(.minutes(5))) struct RecordWriteRuleTests {
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

    /// `/entity.update` runs the flow's rules on what it writes: a value of the wrong JSON type
    /// is 200, a value the field's rules refuse is 390 keyed by the field's name, in the
    /// request's locale, with the same messages the client's rule engine gives.
    @Test func entityUpdateRunsTheFieldsRules() async throws {
        try await withServer { server in
            let (session, _) = try await server.register()
            let token = session.accessToken
            func update(_ value: JSONValue, attribute: String? = nil, locale: LocaleTag = ServerFixtures.english) async throws -> Result<
                CaptureSuccess, CaptureError
            > {
                var request = server.builder(locale).updateObject(accessToken: token, attribute: attribute, value: value)
                request.parameters.removeAll { $0.name == "locale" }
                request.parameters.append(RequestParameter("locale", locale.identifier))
                return try await server.send(request)
            }
            // The audit's example: a number for a string field.
            let typed = try await update(["displayName": "!", "givenName": 123])
            #expect(typed.code == 200, "\(typed)")
            #expect(typed.error?.serverError?.body["error_description"]?.stringValue?.contains("/givenName") == true)
            // The display name's rules, in French, as the client's engine words them.
            let refused = try await update(["displayName": "!"], locale: ServerFixtures.french)
            #expect(refused.code == 390, "\(refused)")
            let fields = refused.error?.serverError?.body["invalid_fields"]
            let edit = try FormInterpreter(flow: ServerFixtures.flow, localizer: ServerFixtures.localizer)
                .model(form: "editProfileForm", locale: ServerFixtures.french)
            let report = RuleEngine(form: edit, today: server.today, side: .server).validate(["displayName": "!"])
            let expected = ServerFixtures.localizer.messages(for: report.violations.filter { $0.field == "displayName" }, in: edit)
            #expect(!expected.isEmpty)
            #expect(fields == .object([("displayName", .array(expected[0].messages.map(JSONValue.string)))]))
            // A locale without a file is negotiated as the forms do (issue 26): fr-CA and fr get
            // fr-FR's French, not the default locale's English.
            for tag in ["fr-CA", "fr"] {
                let negotiated = try await update(["displayName": "!"], locale: LocaleTag(tag)!)
                #expect(negotiated.error?.serverError?.body["invalid_fields"] == fields, "\(tag): \(negotiated)")
            }
            // Nested values: a postal code the pattern refuses, a street without a city.
            #expect(
                try await update(["zip": "!!"], attribute: "/primaryAddress").error?.serverError?.body.at("invalid_fields.addressPostalCode") != nil)
            #expect(
                try await update(["primaryAddress": ["address1": "5 rue Vaubecour"]]).error?.serverError?.body.at("invalid_fields.addressStreet")
                    != nil)
            // A checkbox takes a boolean; an object that holds fields takes no list.
            #expect(try await update(["optIn": ["status": "yes"]]).code == 200)
            #expect(try await update(["primaryAddress": [["city": "Lyon"]]]).code == 200)
            #expect(try await update(["primaryAddress": "Lyon"]).code == 200)
            // Nothing of that was written.
            let record = try await server.record(token)
            #expect(record["displayName"] == "ana_r")
            #expect(record["givenName"] == "Ana")
            #expect(record["primaryAddress"] == nil)
            #expect(record.at("optIn.status") == .bool(true))
            // Values the rules accept go through.
            #expect(try await update(["displayName": "ana_ruiz", "givenName": "Anna", "optIn": ["status": false]]).isOK)
            #expect(try await update(["primaryAddress": ["address1": "5 rue Vaubecour", "city": "Lyon", "zip": "69002"]]).isOK)
            let after = try await server.record(token)
            #expect(after["displayName"] == "ana_ruiz")
            #expect(after["givenName"] == "Anna")
            #expect(after.at("optIn.status") == .bool(false))
            #expect(after.at("primaryAddress.zip") == "69002")
            // A required field cannot be cleared.
            #expect(try await update(["givenName": nil]).code == 390)
        }
    }

    /// `/entity.replace` replaces plurals only; `/entity.update` takes no list for an object.
    @Test func entityReplaceTakesPluralsOnly() async throws {
        let writable = ["/photos", "/aboutMe", "/primaryAddress", "/givenName"].map { Located($0, at: ServerFixtures.here) }
        try await withServer(configure: { $0.server.writeWithToken = writable }) { server in
            let (session, _) = try await server.register()
            let list: JSONValue = [["value": "x"]]
            for attribute in ["/aboutMe", "/primaryAddress", "/givenName", "/primaryAddress/city"] {
                let request = server.builder().replacePlural(accessToken: session.accessToken, attribute: attribute, value: list)
                let result = try await server.send(request)
                #expect(result.code == 200, "\(attribute): \(result)")
                #expect(result.error?.serverError?.description.contains("entity.replace") == true, "\(attribute)")
            }
            #expect(try await server.record(session.accessToken)["aboutMe"] == nil)
            // A plural (not set yet, or set as a list) is replaced.
            let photos = server.builder().replacePlural(accessToken: session.accessToken, attribute: "/photos", value: list)
            #expect(try await server.send(photos).isOK)
            #expect(try await server.send(photos).isOK)
            // An object the record holds takes no list through entity.update either.
            let object = server.builder().updateObject(
                accessToken: session.accessToken, attribute: nil,
                value: ["primaryAddress": ["address1": "1 Main St", "city": "Oslo"]])
            #expect(try await server.send(object).isOK)
            let asList = server.builder().updateObject(accessToken: session.accessToken, attribute: nil, value: ["primaryAddress": list])
            #expect(try await server.send(asList).code == 200)
            #expect(try await server.record(session.accessToken).at("primaryAddress.city") == "Oslo")
        }
    }

    /// An attribute the record could hold but does not is null, not 223 (Capture answers a
    /// schema attribute that is not set with null).
    @Test func readingAnUnsetAttributeGivesNull() async throws {
        try await withServer { server in
            let (session, _) = try await server.register()
            #expect(try await server.readRecord(session.accessToken, attribute: "/primaryAddress") == .success(.record(.null)))
            #expect(try await server.readRecord(session.accessToken, attribute: "/primaryAddress/city") == .success(.record(.null)))
            #expect(try await server.readRecord(session.accessToken, attribute: "/aboutMe") == .success(.record(.null)))
            // Not attributes: unknown names, and parts of a value.
            #expect(try await server.readRecord(session.accessToken, attribute: "/noSuchThing").code == 223)
            #expect(try await server.readRecord(session.accessToken, attribute: "/givenName/first").code == 223)
            #expect(try await server.readRecord(session.accessToken, attribute: "/optIn/status/x").code == 223)
        }
    }
}
