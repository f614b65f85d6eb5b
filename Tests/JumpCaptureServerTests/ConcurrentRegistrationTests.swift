import JumpCapture
import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// 200 registrations with one email address at once: one account, 199 clean 390 answers.
@Suite(.timeLimit(.minutes(5))) struct ConcurrentRegistrationTests {
    @Test func twoHundredRegistrationsWithTheSameEmailMakeOneAccount() async throws {
        // Every registration hashes its password: a queue long enough for all of them.
        try await withServer(configure: { $0.server.passwordHashQueue = 256 }) { server in
            let count = 200
            // The same address, written differently (normalized: trimmed, lower-cased); distinct
            // display names, so only the email conflicts.
            let spellings = ["ana.ruiz@example.com", "Ana.Ruiz@example.com", "ANA.RUIZ@EXAMPLE.COM", "ana.ruiz@Example.com"]
            let requests = try (0..<count).map { index in
                try server.builder().register(
                    ServerFixtures.registration(email: spellings[index % spellings.count], displayName: "ana_\(index)"),
                    refreshSecret: .generate(), today: server.today)
            }
            let results = await withTaskGroup(of: Result<CaptureSuccess, CaptureError>?.self) { group in
                for request in requests {
                    group.addTask { try? await server.send(request) }
                }
                var all: [Result<CaptureSuccess, CaptureError>?] = []
                for await result in group { all.append(result) }
                return all
            }
            #expect(results.count == count)
            #expect(results.allSatisfy { $0 != nil }, "some requests got no answer")
            let signedIn = results.compactMap { $0?.signedIn }
            #expect(signedIn.count == 1)
            let expected = [
                FieldMessages(field: "emailAddress", messages: ["This email address is already registered. Sign in or reset your password."])
            ]
            var clean = 0
            for case .failure(let error)? in results {
                guard case .invalidFields(let invalid) = error, invalid.server.code == 390, invalid.fields == expected,
                    invalid.formMessages.isEmpty
                else {
                    Issue.record("not a clean 390: \(error)")
                    continue
                }
                clean += 1
            }
            #expect(clean == count - 1)
            #expect(try await server.server.accountCount() == 1)
            // The one account works.
            #expect(try await server.signIn("ana.ruiz@example.com").signedIn?.record["uuid"] == signedIn.first?.record["uuid"])
        }
    }
}
