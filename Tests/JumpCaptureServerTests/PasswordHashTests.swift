import HummingbirdBcrypt
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing

/// Passwords count in full: bcrypt alone reads 72 bytes, the flow allows 128 characters.
@Suite(.timeLimit(.minutes(5))) struct PasswordHashTests {
    static let long = String(repeating: "A", count: 72) + "one"
    static let sameStart = String(repeating: "A", count: 72) + "two"
    /// 80 bytes of UTF-8 in 41 characters.
    static let accented = String(repeating: "é", count: 40) + "a"
    static let accentedOther = String(repeating: "é", count: 40) + "b"

    func registration(_ email: String, _ displayName: String, _ password: String) -> FormValues {
        var values = ServerFixtures.registration(email: email, displayName: displayName)
        values["newPassword"] = password
        values["newPasswordConfirm"] = password
        return values
    }

    @Test func everyByteOfAPasswordCounts() async throws {
        try await withServer { server in
            try await server.register(registration("ana.ruiz@example.com", "ana_r", Self.long))
            #expect(try await server.signIn("ana.ruiz@example.com", Self.sameStart).code == 210)
            #expect(try await server.signIn("ana.ruiz@example.com", Self.long).signedIn != nil)
            try await server.register(registration("lea@example.com", "lea_m", Self.accented))
            #expect(try await server.signIn("lea@example.com", Self.accentedOther).code == 210)
            let (session, _) = try await server.register(registration("eve@example.com", "eve_r", "short one!"))
            // Change-password hashes the same way.
            let change = try server.builder().changePassword(
                ["currentPassword": "short one!", "newPassword": Self.long, "newPasswordConfirm": Self.long],
                accessToken: session.accessToken, today: server.today)
            #expect(try await server.send(change).isOK)
            #expect(try await server.signIn("eve@example.com", Self.sameStart).code == 210)
            #expect(try await server.signIn("eve@example.com", Self.long).signedIn != nil)
            // Stored in the versioned format, never in clear.
            let hashes = try await server.server.service.store.texts("SELECT password_hash FROM users").compactMap { $0 }
            #expect(hashes.count == 3)
            for hash in hashes {
                #expect(hash.hasPrefix("bcrypt-sha256$1$$2b$04$"), "\(hash)")
                #expect(!hash.contains("AAAA") && !hash.contains("é"))
            }
        }
    }

    /// A database written before the pre-hash holds plain bcrypt hashes: they still verify.
    @Test func plainBcryptHashesStillVerify() async throws {
        try await withServer { server in
            try await server.register()
            let legacy = Bcrypt.hash(ServerFixtures.password, cost: 4)
            try await server.server.service.store.execute("UPDATE users SET password_hash = ?", [legacy])
            #expect(try await server.signIn("ana.ruiz@example.com").signedIn != nil)
            #expect(try await server.signIn("ana.ruiz@example.com", "correct horse battery!").code == 210)
        }
        #expect(PasswordHash.verify("x", stored: "unknown$format") == false)
        #expect(PasswordHash.preHash(Self.long).utf8.count == 44)
    }

    /// A plain bcrypt hash, or one at a lower cost than `bcryptCost`, used to stay as it was:
    /// a successful sign-in now stores the current format at the configured cost; a failed
    /// one changes nothing.
    @Test func signInUpgradesOldHashes() async throws {
        try await withServer(configure: { $0.server.bcryptCost = 5 }) { server in
            try await server.register()
            let store = server.server.service.store
            func stored() async throws -> String {
                try await store.texts("SELECT password_hash FROM users").first?.flatMap { $0 } ?? ""
            }
            func save(_ hash: String) async throws {
                try await store.execute("UPDATE users SET password_hash = ?", [hash])
            }
            for old in [
                Bcrypt.hash(ServerFixtures.password, cost: 4), Bcrypt.hash(ServerFixtures.password, cost: 5),
                PasswordHash.make(ServerFixtures.password, cost: 4)
            ] {
                try await save(old)
                #expect(try await server.signIn("ana.ruiz@example.com", "correct horse battery!").code == 210)
                #expect(try await stored() == old)
                #expect(try await server.signIn("ana.ruiz@example.com").signedIn != nil)
                let upgraded = try await stored()
                #expect(upgraded.hasPrefix("bcrypt-sha256$1$$2b$05$"), "\(old) -> \(upgraded)")
                #expect(PasswordHash.verify(ServerFixtures.password, stored: upgraded))
                // Once current, it stays as it is.
                #expect(try await server.signIn("ana.ruiz@example.com").signedIn != nil)
                #expect(try await stored() == upgraded)
            }
        }
        #expect(PasswordHash.needsUpgrade(PasswordHash.make("x", cost: 4), cost: 4) == false)
        #expect(PasswordHash.needsUpgrade(PasswordHash.make("x", cost: 4), cost: 5))
        #expect(PasswordHash.needsUpgrade("$2b$12$abc", cost: 10))
    }
}
