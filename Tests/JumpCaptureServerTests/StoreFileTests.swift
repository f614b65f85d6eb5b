import Foundation
import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// The server's SQLite file itself, read through the running server's store: WAL mode, the
/// unique indexes, no secret in clear in any of its files, the bcrypt cost, the files' modes.
@Suite(.timeLimit(.minutes(5))) struct StoreFileTests {
    static func files(_ database: String) -> [String] {
        [database, database + "-wal", database + "-shm"]
    }

    // The SQLite file itself: nothing to look at when the tests run on PostgreSQL.
    @Test(.enabled(if: !PostgresCluster.testsUsePostgres)) func theFileIsInWALModeWithUniqueEmailAndIdentityIndexes() async throws {
        try await withServer(.socket) { server in
            try await server.register()
            #expect(try await server.socialSignIn(try await server.engageToken("google", identity: "marta.keller@example.com")).signedIn != nil)
            let store = server.server.service.store
            #expect(try await store.texts("PRAGMA journal_mode") == ["wal"])
            func uniqueIndexes(_ table: String) async throws -> [[String]] {
                var found: [[String]] = []
                for name in try await store.texts("SELECT name FROM pragma_index_list(?) WHERE \"unique\" = 1", [table]).compactMap({ $0 }) {
                    found.append(try await store.texts("SELECT name FROM pragma_index_info(?) ORDER BY seqno", [name]).compactMap { $0 })
                }
                return found
            }
            #expect(try await uniqueIndexes("users").contains(["email_normalized"]))
            #expect(try await uniqueIndexes("identities").contains(["provider", "identifier"]))
            // They hold, whatever writes the file: the same normalized address, the same identity.
            let userID = try #require(try await store.integers("SELECT id FROM users WHERE email_normalized = 'ana.ruiz@example.com'").first ?? nil)
            for (sql, arguments) in [
                (
                    "INSERT INTO users (uuid, email_normalized, record, created, last_updated) VALUES ('x', 'ana.ruiz@example.com', '{}', '', '')",
                    [any Encodable & Sendable]()
                ),
                ("INSERT INTO identities (user_id, provider, identifier) VALUES (?, 'google', 'https://www.google.com/profiles/1001')", [userID])
            ] {
                do {
                    try await store.execute(sql, arguments)
                    Issue.record("not refused: \(sql)")
                } catch {
                    #expect(StoreDatabase.isUniqueViolation(error), "\(error)")
                }
            }
            #expect(try await server.server.accountCount() == 2)
        }
    }

    /// Access tokens, Engage tokens, refresh secrets and passwords appear nowhere in the
    /// database, its WAL or its shared-memory file, as text or as bytes.
    // The SQLite file itself: nothing to look at when the tests run on PostgreSQL.
    @Test(.enabled(if: !PostgresCluster.testsUsePostgres)) func noSecretIsStoredInClear() async throws {
        try await withServer(.socket) { server in
            let (registered, secret) = try await server.register()
            let signInSecret = RefreshSecret.generate()
            let signedIn = try #require(try await server.signIn("ana.ruiz@example.com", secret: signInSecret).signedIn)
            let refresh = server.builder().refreshAccessToken(
                accessToken: signedIn.accessToken, refreshSecret: signInSecret, epochSeconds: server.clock.now)
            guard case .success(.refreshed(let refreshed, _)) = try await server.send(refresh) else { Issue.record("refresh"); return }
            let usedEngage = try await server.engageToken("google", identity: "marta.keller@example.com")
            let social = try #require(try await server.socialSignIn(usedEngage).signedIn)
            let waitingEngage = try await server.engageToken("facebook")
            let secrets = [
                registered.accessToken, signedIn.accessToken, refreshed, social.accessToken, usedEngage, waitingEngage,
                secret.value, signInSecret.value, ServerFixtures.password
            ]
            var stored: [UInt8] = []
            for path in Self.files(server.databasePath) {
                stored += try #require(FileManager.default.contents(atPath: path), "\(path)")
            }
            // The search finds what is there: the hash of a live token.
            #expect(stored.firstRange(of: Array(CaptureStore.hash(refreshed).utf8)) != nil)
            for value in secrets {
                #expect(stored.firstRange(of: Array(value.utf8)) == nil, "\(value.prefix(8))... is stored in clear")
                if let bytes = Self.hexBytes(value) {
                    #expect(stored.firstRange(of: bytes) == nil, "\(value.prefix(8))... is stored as bytes")
                }
            }
        }
    }

    /// The repository's jump.yaml leaves the bcrypt cost at its default, 10 or more, and the
    /// stored hashes say so.
    /// Tokens are 32 random bytes as lower-case hex, never twice the same.
    @Test func tokensAreRandomHex() {
        let tokens = (0..<1_000).map { _ in CaptureStore.randomToken() }
        #expect(Set(tokens).count == tokens.count)
        #expect(tokens.allSatisfy { $0.utf8.count == 64 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) } })
        // Every hex digit turns up in every position across the tokens (no stuck bits).
        for position in 0..<64 {
            let digits = Set(tokens.map { Array($0.utf8)[position] })
            #expect(digits.count == 16, "position \(position)")
        }
    }

    @Test func theDefaultBcryptCostIsAtLeastTen() async throws {
        let cost = try #require(ServerFixtures.project.config).server.bcryptCost
        #expect(cost >= 10)
        #expect(ServerSettings().bcryptCost == 10)
        try await withServer(configure: { $0.server.bcryptCost = cost }) { server in
            try await server.register()
            let hash = try await server.server.service.store.texts("SELECT password_hash FROM users").first ?? nil
            #expect(hash?.hasPrefix(PasswordHash.prefix + "$2b$" + (cost < 10 ? "0" : "") + "\(cost)$") == true, "\(hash ?? "nil")")
        }
    }

    /// The database holds hashes and personal data: it, its WAL and shared-memory files, and
    /// the key file are the owner's only (mode 0600).
    // The SQLite file itself: nothing to look at when the tests run on PostgreSQL.
    @Test(.enabled(if: !PostgresCluster.testsUsePostgres)) func theDatabaseFilesAreTheOwnersOnly() async throws {
        try await withServer { server in
            try await server.register()
            for path in Self.files(server.databasePath) + [server.databasePath + ".key"] {
                var info = stat()
                #expect(stat(path, &info) == 0, "\(path)")
                #expect(info.st_mode & 0o777 == 0o600, "\(path): \(String(info.st_mode & 0o777, radix: 8))")
            }
        }
    }

    /// The bytes a hexadecimal text stands for, or nil when it is not hexadecimal.
    static func hexBytes(_ text: String) -> [UInt8]? {
        let digits = Array(text.utf8)
        guard digits.count.isMultiple(of: 2), !digits.isEmpty else { return nil }
        var bytes: [UInt8] = []
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let pair = UInt8(String(decoding: digits[index...index + 1], as: UTF8.self), radix: 16) else { return nil }
            bytes.append(pair)
        }
        return bytes
    }
}
