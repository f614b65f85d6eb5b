import Foundation
import JumpCapture
import JumpCaptureNIO
@testable import JumpCaptureServer
import JumpForms
import Logging
import TestSupport
import Testing

/// Passwords imported with their records from another system (Capture's password types):
/// every type checks against vectors made by passlib (scripts/generate-password-hash-vectors.py),
/// and a sign-in replaces the imported hash with the server's own.
@Suite(.timeLimit(.minutes(5))) struct ImportedPasswordHashTests {
    struct Vector: Decodable, Sendable, CustomTestStringConvertible {
        var type: String
        var form: String
        var password: String
        var wrong: String
        var value: String
        var salt: String?

        var testDescription: String { "\(type), \(form), \(password.debugDescription)" }
        var hash: ImportedPasswordHash { ImportedPasswordHash(type: type, value: value, salt: salt) }
    }

    struct VectorFile: Decodable {
        var vectors: [Vector]
    }

    static let vectors: [Vector] = {
        let path = Repository.path("Tests/JumpCaptureServerTests/Fixtures/password-hash-vectors.json")
        guard let data = FileManager.default.contents(atPath: path), let file = try? JSONDecoder().decode(VectorFile.self, from: data) else {
            return []
        }
        return file.vectors
    }()

    /// The types Capture lists for imported passwords (docs/local-server.md).
    static let captureTypes = [
        "password-bcrypt", "password-crypt-sha256", "password-crypt-sha512", "password-crypt-md5", "password-crypt-des",
        "password-md5", "password-md5-salted-left-base64", "password-md5-salted-right-base64", "password-sha-256",
        "password-sha-512", "password-pbkdf2-sha1", "password-pbkdf2-sha256", "password-pbkdf2-sha512", "password-phpass-55",
        "password-phpass-sha512-truncated-55"
    ]

    @Test(arguments: vectors) func checksTheVector(_ vector: Vector) {
        // Through the stored text, as a sign-in reads it.
        let stored = vector.hash.storedText
        #expect(PasswordHash.check(vector.password, stored: stored) == .matches)
        #expect(PasswordHash.check(vector.wrong, stored: stored) == .wrong)
        #expect(PasswordHash.needsUpgrade(stored, cost: 4))
    }

    @Test func everyCaptureTypeHasASchemeAndVectors() {
        #expect(Self.vectors.count >= 150)
        for type in Self.captureTypes {
            #expect(PasswordHashSchemes.scheme(for: type) != nil, "\(type)")
            #expect(Self.vectors.filter { $0.type == type }.count >= 6, "\(type)")
        }
        #expect(Set(PasswordHashSchemes.all.map(\.captureType)).count == PasswordHashSchemes.all.count)
        #expect(PasswordHashSchemes.scheme(for: "PASSWORD-MD5")?.captureType == "password-md5")
    }

    @Test func readsCapturesPasswordObject() throws {
        let object = try JSONValue.parse(#"{"type": "password-md5-salted-right-base64", "value": "n3rptdkghkLcOO7pEbiBDg==", "salt": "S41t"}"#)
        let hash = try #require(ImportedPasswordHash(captureAttribute: object))
        #expect(hash == ImportedPasswordHash(type: "password-md5-salted-right-base64", value: "n3rptdkghkLcOO7pEbiBDg==", salt: "S41t"))
        #expect(ImportedPasswordHash(storedText: hash.storedText) == hash)
        #expect(PasswordHash.check("Pass123", stored: hash.storedText) == .matches)
        #expect(ImportedPasswordHash(captureAttribute: .string("$2a$04$abc")) == nil)
        #expect(ImportedPasswordHash(captureAttribute: try JSONValue.parse(#"{"type": "password-md5"}"#)) == nil)
        #expect(ImportedPasswordHash(captureAttribute: try JSONValue.parse(#"{"type": "password-md5", "value": "x", "salt": 4}"#)) == nil)
        // The MD5 in dataload's README, of "Pass123".
        let dataload = ImportedPasswordHash(type: "password-md5", value: "2f23fa3579f3f75175793649115c1b25")
        #expect(PasswordHash.check("Pass123", stored: dataload.storedText) == .matches)
    }

    /// An unknown type, or a value in no form its type is read in, matches nothing and says so
    /// (by type, without the value).
    @Test func unreadableHashesMatchNothing() {
        let unknown = ImportedPasswordHash(type: "password-netforum", value: "secret-hash-value").storedText
        guard case .unreadable(let reason) = PasswordHash.check("x", stored: unknown) else {
            Issue.record("an unknown type was checked")
            return
        }
        #expect(reason.contains(#""password-netforum""#) && !reason.contains("secret-hash-value"), "\(reason)")
        for (type, value) in [
            ("password-md5", "not hex"), ("password-crypt-sha512", "$5$salt$hash"), ("password-crypt-des", "short"),
            ("password-bcrypt", "$2x$04$abcdefghijklmnopqrstuuVCfVa9Dz4BvT5Dux4iivbVgIhJNtYRa"),
            ("password-pbkdf2-sha256", "$pbkdf2-sha256$0$c2FsdA$aGFzaA"),
            ("password-phpass-55", "$P$Babc"), ("password-md5-salted-left-base64", "c2hvcnQ=")
        ] {
            let stored = ImportedPasswordHash(type: type, value: value).storedText
            #expect(PasswordHash.check("x", stored: stored) != .matches, "\(type)")
            if case .unreadable = PasswordHash.check("x", stored: stored) {} else { Issue.record("\(type) \(value) was read") }
        }
        #expect(PasswordHash.check("x", stored: "{not json") == .unreadable("a stored password of no known format"))
    }

    /// Sign-in with an imported hash: a wrong password changes nothing; the right one signs in
    /// and stores the server's own hash in its place; the old password goes on working, and a
    /// wrong one gets the same answer as before.
    @Test(arguments: [
        ImportedPasswordHash(type: "password-crypt-md5", value: "$1$saltsalt$UevX3RQ4rPNbqFqf8dVFn."),
        ImportedPasswordHash(type: "password-md5", value: "88e4ddd2402d92d50e1879d6ecd9ffd4")
    ])
    func signInReplacesAnImportedHash(_ imported: ImportedPasswordHash) async throws {
        // Made by passlib from ServerFixtures.password ("correct horse battery").
        #expect(PasswordHash.check(ServerFixtures.password, stored: imported.storedText) == .matches)
        try await withServer { server in
            try await server.register()
            let store = server.server.service.store
            let email = "ana.ruiz@example.com"
            let user = try #require(try await store.user(emailNormalized: email))
            _ = try await store.updateUser(id: user.id, unique: [], now: 0, passwordHash: .some(imported.storedText)) { $0 }
            let wrongBefore = try await server.signIn(email, "correct horse battery!")
            #expect(wrongBefore.code == 210)
            #expect(try await store.user(emailNormalized: email)?.passwordHash == imported.storedText)
            #expect(try await server.signIn(email).signedIn != nil)
            let replaced = try #require(try await store.user(emailNormalized: email)?.passwordHash)
            #expect(replaced.hasPrefix(PasswordHash.prefix), "\(replaced)")
            #expect(try await server.signIn(email).signedIn != nil)
            #expect(try await store.user(emailNormalized: email)?.passwordHash == replaced)
            let wrongAfter = try await server.signIn(email, "correct horse battery!")
            #expect(wrongAfter.code == 210)
            #expect(String(describing: wrongAfter.error) == String(describing: wrongBefore.error))
        }
    }

    /// An account whose imported hash is of a type the server does not read: its sign-in gets
    /// the wrong-password answer, and the log names the type (never the hash).
    @Test func unknownTypeSignsInAsAWrongPassword() async throws {
        let lines = RecordedLog()
        var logger = Logger(label: "jump-forms.test") { _ in lines }
        logger.logLevel = .info
        let server = try await TestServer.start(logger: logger)
        do {
            try await server.register()
            let wrong = try await server.signIn("ana.ruiz@example.com", "correct horse battery!")
            let store = server.server.service.store
            let user = try #require(try await store.user(emailNormalized: "ana.ruiz@example.com"))
            let unknown = ImportedPasswordHash(type: "password-netforum", value: "c2VjcmV0LWhhc2g=")
            _ = try await store.updateUser(id: user.id, unique: [], now: 0, passwordHash: .some(unknown.storedText)) { $0 }
            let refused = try await server.signIn("ana.ruiz@example.com")
            #expect(refused.code == 210)
            #expect(String(describing: refused.error) == String(describing: wrong.error))
            #expect(try await store.user(emailNormalized: "ana.ruiz@example.com")?.passwordHash == unknown.storedText)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        let text = lines.text
        #expect(
            text.contains(#"warning: a password check was refused as wrong: the account holds an imported password of type "password-netforum""#),
            "\(text)")
        #expect(!text.contains("c2VjcmV0LWhhc2g="))
    }
}
