import JumpCapture
import JumpForms
import Testing
import TestSupport

/// Fixes to the server's registration, Engage double, reset page and merge flow, one test each.
@Suite(.timeLimit(.minutes(1))) struct ServerRuleFixTests {
    /// A registration with taken values and other errors used to list the other errors only;
    /// the taken ones showed up on the next attempt.
    @Test func one390ListsTakenValuesWithTheOtherErrors() async throws {
        try await withServer { server in
            try await server.register()
            // The client's rules would stop these values: the request bypasses them.
            let request = try server.builder().register(ServerFixtures.registration(email: "ANA.RUIZ@example.com", displayName: "ana_r"),
                                                        refreshSecret: .generate(), today: server.today)
                .setting("lastName", "").setting("newPassword", "short").setting("newPasswordConfirm", "other")
            guard case .failure(.invalidFields(let invalid)) = try await server.send(request) else { Issue.record("no 390"); return }
            #expect(invalid.fields.map(\.field) == ["emailAddress", "displayName", "lastName", "newPassword", "newPasswordConfirm"])
            let taken = invalid.fields.first { $0.field == "emailAddress" }?.messages
            #expect(taken == ["This email address is already registered. Sign in or reset your password."])
            #expect(invalid.fields.first { $0.field == "displayName" }?.messages.count == 1)
            // A field that fails its own rules is not also reported taken.
            guard case .failure(.invalidFields(let rules)) = try await server.send(request.setting("displayName", "x")) else { Issue.record("no 390"); return }
            #expect(rules.fields.first { $0.field == "displayName" }?.messages.count == 1)
            #expect(rules.fields.first { $0.field == "emailAddress" } != nil)
            #expect(try await server.server.accountCount() == 1)
            // Update profile: the account's own value is not taken, another account's is.
            let (eve, _) = try await server.register(ServerFixtures.registration(email: "eve@example.com", displayName: "eve_r"))
            let own = try server.builder().updateProfile(["displayName": "eve_r", "firstName": "Eve", "lastName": "Roe"],
                                                         accessToken: eve.accessToken, today: server.today).setting("lastName", "")
            guard case .failure(.invalidFields(let mine)) = try await server.send(own) else { Issue.record("no 390"); return }
            #expect(mine.fields.map(\.field) == ["lastName"])
            let other = own.setting("displayName", "ANA_R")
            guard case .failure(.invalidFields(let theirs)) = try await server.send(other) else { Issue.record("no 390"); return }
            #expect(theirs.fields.map(\.field) == ["displayName", "lastName"])
        }
    }
}
