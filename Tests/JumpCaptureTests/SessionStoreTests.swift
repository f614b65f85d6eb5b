import Foundation
import JumpCapture
import JumpForms
import Testing
import TestSupport

@Suite struct SessionStoreTests {
    let session = Session(
        captureDomain: "https://example.com", clientId: "client", accessToken: "secret-access-token-123",
        refreshSecret: RefreshSecret("0123456789abcdef0123456789abcdef01234567")!, expiresAt: Date(timeIntervalSince1970: 1_800_000_000),
        record: ["email": "ana@example.com"])

    @Test func sessionsRoundTripSealedInPrivateFiles() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileSessionStore(name: "client", environment: ["HOME": folder.path])
        #expect(try store.load() == nil)
        try store.save(session)
        #expect(try store.load() == session)
        #expect(store.path == folder.path + "/.local/state/jump-forms/session-client.sealed")

        let attributes = try FileManager.default.attributesOfItem(atPath: store.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect((try FileManager.default.attributesOfItem(atPath: store.keyPath)[.posixPermissions] as? Int) == 0o600)
        let raw = try #require(FileManager.default.contents(atPath: store.path))
        for secret in ["secret-access-token-123", "0123456789abcdef0123456789abcdef01234567", "ana@example.com"] {
            #expect(raw.range(of: Data(secret.utf8)) == nil, "\(secret) is in clear text")
        }
        try store.clear()
        #expect(try store.load() == nil)
    }

    @Test func aSessionSealedWithAnotherKeyIsRefusedClearly() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let store = FileSessionStore(name: "client", environment: ["HOME": folder.path])
        try store.save(session)
        let other = FileSessionStore(name: "client", environment: ["HOME": folder.path, "JUMP_FORMS_SESSION_KEY": String(repeating: "ab", count: 32)])
        #expect(throws: SessionStoreError.self) { try other.load() }
    }

    /// The library's in-memory store: starts empty (or with a session), saves, clears; a copy
    /// of it is the same store; nothing is written to disk.
    @Test func theMemoryStoreKeepsTheSessionForItsLife() throws {
        let store = MemorySessionStore()
        #expect(try store.load() == nil)
        try store.save(session)
        let same = store
        #expect(try same.load() == session)
        var renewed = session
        renewed.accessToken = "renewed-access-token"
        try store.save(renewed)
        #expect(try store.load() == renewed)
        try store.clear()
        #expect(try same.load() == nil)
        try store.clear()
        #expect(try MemorySessionStore(session).load() == session)
    }

    @Test func xdgStateHomeIsHonoured() {
        let store = FileSessionStore(name: "a/b c", environment: ["HOME": "/home/u", "XDG_STATE_HOME": "/state", "XDG_CONFIG_HOME": "/conf"])
        #expect(store.path == "/state/jump-forms/session-abc.sealed")
        #expect(store.keyPath == "/conf/jump-forms/session.key")
    }
}

/// `Session`'s public JSON form: what `FileSessionStore` seals, through `Codable` or
/// `jsonText`, secrets masked in every description.
@Suite struct SessionJSONTests {
    let session = SessionStoreTests().session

    @Test func theCodableFormIsTheStoresJSON() throws {
        let encoded = try JSONEncoder().encode(session)
        let object = try JSONValue.parse(Array(encoded))
        #expect(object == (try JSONValue.parse(session.jsonText)))
        #expect(object["refreshSecret"] == "0123456789abcdef0123456789abcdef01234567")
        #expect(object["expiresAt"] == .integer(1_800_000_000))
        #expect(session.expiresAt == Date(timeIntervalSince1970: 1_800_000_000))
        #expect(object["record"] == ["email": "ana@example.com"])
        #expect(try JSONDecoder().decode(Session.self, from: encoded) == session)
        #expect(Session(jsonText: session.jsonText) == session)
        #expect(Session(jsonText: String(decoding: encoded, as: UTF8.self)) == session)

        // No expiry: null, and read back as nil.
        var unknown = session
        unknown.expiresAt = nil
        let text = String(decoding: try JSONEncoder().encode(unknown), as: UTF8.self)
        #expect(text.contains("\"expiresAt\":null"))
        #expect(try JSONDecoder().decode(Session.self, from: Data(text.utf8)) == unknown)

        // The JSON keeps whole seconds since 1970: a fraction is dropped, as the stores did
        // before `expiresAt` was a `Date`.
        var fraction = session
        fraction.expiresAt = Date(timeIntervalSince1970: 1_800_000_000.75)
        #expect(try JSONValue.parse(fraction.jsonText)["expiresAt"] == .integer(1_800_000_000))
        #expect(Session(jsonText: fraction.jsonText)?.expiresAt == Date(timeIntervalSince1970: 1_800_000_000))
    }

    @Test func aBadRefreshSecretIsRefusedWithoutQuotingIt() throws {
        let text = session.jsonText.replacingOccurrences(of: "0123456789abcdef0123456789abcdef01234567", with: "not-a-secret-0042")
        #expect(Session(jsonText: text) == nil)
        #expect(Session(jsonText: "{}") == nil)
        do {
            _ = try JSONDecoder().decode(Session.self, from: Data(text.utf8))
            Issue.record("a bad refresh secret was read")
        } catch {
            #expect(!"\(error)".contains("not-a-secret-0042"), "\(error)")
        }
    }

    @Test func descriptionsMaskTheSecrets() {
        for text in [session.description, String(reflecting: session), "\(session)"] {
            #expect(!text.contains("secret-access-token-123"), "\(text)")
            #expect(!text.contains("0123456789abcdef0123456789abcdef01234567"), "\(text)")
            #expect(text.contains("ana@example.com"))
        }
    }
}
