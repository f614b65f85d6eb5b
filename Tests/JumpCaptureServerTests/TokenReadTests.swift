import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Synchronization
import Testing
import TestSupport

/// The token checks (`CaptureStore.session`, and `token` below: the row a refresh reads) and
/// writes (`issueToken`, `refresh`) against a real database (a SQLite file, or PostgreSQL with
/// `JUMP_TEST_DATABASE=postgres`): what a write commits is what the next check sees, and a
/// refresh is decided by the row.
@Suite(.timeLimit(.minutes(5))) struct TokenReadTests {
    static let now = 1_700_000_000

    /// A database for one test: a SQLite file in `folder`, or a fresh PostgreSQL database.
    static func location(_ folder: TemporaryFolder) throws -> DatabaseLocation {
        try ServerFixtures.testDatabase() ?? .sqlite(path: folder.path + "/sessions.sqlite")
    }

    /// A store on `location` (by default a new one), with the folder's key: two stores on one
    /// location and folder are two servers on one database.
    static func store(_ folder: TemporaryFolder, at location: DatabaseLocation? = nil) throws -> CaptureStore {
        try CaptureStore(location: location ?? Self.location(folder), keyPath: folder.path + "/sessions.key")
    }

    @Test func aSessionHasItsUserRecordAndIdentitiesInLinkOrder() async throws {
        let folder = try TemporaryFolder()
        let store = try Self.store(folder)
        let user = try await store.createUser(
            record: ["givenName": "Ana", "email": "ana@example.com"], passwordHash: nil,
            identity: StoredIdentity(provider: "google", identifier: "g-1", verifiedEmail: "ana@example.com"),
            unique: [], now: Self.now)
        let (token, expiresAt) = try await store.issueToken(userID: user.id, refreshSecret: nil, lifetime: 3600, now: Self.now)
        #expect(expiresAt == Self.now + 3600)

        let session = try #require(try await store.session(token, identities: true))
        #expect(session.user.id == user.id)
        #expect(session.user.uuid == user.uuid)
        #expect(session.user.record["givenName"] == "Ana")
        #expect(session.user.emailNormalized == "ana@example.com")
        #expect(session.token.expiresAt == expiresAt)
        #expect(session.identities == [StoredIdentity(provider: "google", identifier: "g-1", verifiedEmail: "ana@example.com")])
        #expect(try await store.session(token, identities: false)?.identities == nil)

        // Written, then seen by the next check.
        try await store.execute("INSERT INTO identities (user_id, provider, identifier) VALUES (?, 'facebook', 'fb-9')", [user.id])
        try await store.execute("UPDATE users SET record = ? WHERE id = ?", [#"{"givenName":"Ana María"}"#, user.id])
        let updated = try #require(try await store.session(token, identities: true))
        let identities = try #require(updated.identities)
        #expect(identities.map(\.identifier) == ["g-1", "fb-9"])
        #expect(identities[1].verifiedEmail == nil)
        #expect(updated.user.record["givenName"] == "Ana María")
    }

    @Test func unknownAndRotatedTokensHaveNoSession() async throws {
        let folder = try TemporaryFolder()
        let store = try Self.store(folder)
        let user = try await store.createUser(record: ["givenName": "Bo"], passwordHash: nil, identity: nil, unique: [], now: Self.now)
        let secret = try #require(RefreshSecret("0123456789abcdef0123456789abcdef01234567"))
        let (token, _) = try await store.issueToken(userID: user.id, refreshSecret: secret, lifetime: 60, now: Self.now)

        #expect(try await store.session("not-a-token", identities: true) == nil)
        #expect(try await store.token("not-a-token") == nil)
        let row = try #require(try await store.token(token))
        #expect(row.userID == user.id)
        #expect(row.refreshSecret == secret)  // opened from its sealed form
        #expect(try await store.session(token, identities: true)?.identities == [])

        let rotated = try #require(try await Self.refresh(store, token, now: Self.now + 1))
        #expect(try await store.session(token, identities: true) == nil)
        #expect(try await store.token(token) == nil)
        #expect(try await store.token(rotated.token)?.refreshSecret == secret)
        #expect(try await store.session(rotated.token, identities: false)?.user.id == user.id)
    }

    /// Checks from many tasks while the writer keeps changing the record: every check sees a
    /// whole committed record, never a missing session.
    @Test func concurrentChecksSeeCommittedRecords() async throws {
        let folder = try TemporaryFolder()
        let store = try Self.store(folder)
        let user = try await store.createUser(record: ["n": 0], passwordHash: nil, identity: nil, unique: [], now: Self.now)
        let (token, _) = try await store.issueToken(userID: user.id, refreshSecret: nil, lifetime: 3600, now: Self.now)
        let writes = 50
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for n in 1...writes {
                    try await store.execute("UPDATE users SET record = ? WHERE id = ?", [#"{"n":\#(n)}"#, user.id])
                }
            }
            for _ in 0..<8 {
                group.addTask {
                    var last = -1
                    for _ in 0..<100 {
                        let session = try #require(try await store.session(token, identities: true))
                        let n = try #require(session.user.record["n"]?.intValue)
                        #expect((0...writes).contains(n))
                        #expect(n >= last)  // one task's checks never go back in time
                        last = n
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try await store.session(token, identities: false)?.user.record["n"]?.intValue == writes)
    }

    /// A refresh's check sees the token's row; when it refuses, nothing is written and the
    /// token stays valid.
    @Test func aRefusedRefreshWritesNothing() async throws {
        let folder = try TemporaryFolder()
        let store = try Self.store(folder)
        let user = try await store.createUser(record: ["givenName": "Bo"], passwordHash: nil, identity: nil, unique: [], now: Self.now)
        let secret = try #require(RefreshSecret("0123456789abcdef0123456789abcdef01234567"))
        let (token, expiresAt) = try await store.issueToken(userID: user.id, refreshSecret: secret, lifetime: 60, now: Self.now)
        let seen = Mutex<StoredToken?>(nil)
        let refreshed = try await store.refresh(token, lifetime: 60, now: Self.now + 1) { stored -> String? in
            seen.withLock { $0 = stored }
            return "refused"
        }
        guard case .refused("refused") = refreshed else {
            Issue.record("expected the check's refusal, got \(refreshed)")
            return
        }
        let row = try #require(seen.withLock { $0 })
        #expect(row.userID == user.id)
        #expect(row.refreshSecret == secret)
        #expect(row.expiresAt == expiresAt)
        #expect(row.signedInAt == Self.now)
        #expect(try await store.token(token)?.expiresAt == expiresAt)
        #expect(try await Self.refresh(store, "not-a-token", now: Self.now + 1) == nil)
    }

    /// Concurrent refreshes of one token, from two servers on one database: exactly one
    /// rotates it (whether the others read it before or after the rotation), and the new token
    /// keeps the session's secret and sign-in.
    @Test func ofConcurrentRefreshesOfOneTokenExactlyOneRotatesIt() async throws {
        let folder = try TemporaryFolder()
        let location = try Self.location(folder)
        let here = try Self.store(folder, at: location)
        let elsewhere = try Self.store(folder, at: location)
        let user = try await here.createUser(record: ["givenName": "Bo"], passwordHash: nil, identity: nil, unique: [], now: Self.now)
        let secret = try #require(RefreshSecret("0123456789abcdef0123456789abcdef01234567"))
        for round in 0..<5 {
            let (token, _) = try await here.issueToken(userID: user.id, refreshSecret: secret, lifetime: 60, now: Self.now)
            let rotations = try await withThrowingTaskGroup(of: String?.self) { group in
                for attempt in 0..<8 {
                    group.addTask { try await Self.refresh(attempt.isMultiple(of: 2) ? here : elsewhere, token, now: Self.now + round)?.token }
                }
                return try await group.reduce(into: [String]()) { if let token = $1 { $0.append(token) } }
            }
            #expect(rotations.count == 1, "round \(round)")
            let rotated = try #require(rotations.first)
            #expect(try await elsewhere.token(token) == nil)
            let row = try #require(try await elsewhere.token(rotated))
            #expect(row.refreshSecret == secret)
            #expect(row.signedInAt == Self.now)
        }
    }

    /// On PostgreSQL a refresh's statements (the token's read, its rotation) and a sign-in's
    /// new token with a refresh secret are the connection's named prepared statements.
    @Test(.enabled(if: PostgresCluster.isAvailable, "PostgreSQL is not installed (apt-get install postgresql): this test needs it"))
    func postgresKeepsTheRefreshsStatementsPrepared() async throws {
        let folder = try TemporaryFolder()
        let location = try DatabaseLocation(parsing: try PostgresCluster.shared().makeDatabase())
        let store = try CaptureStore(location: location, keyPath: folder.path + "/sessions.key", connections: 1)
        let user = try await store.createUser(record: ["givenName": "Bo"], passwordHash: nil, identity: nil, unique: [], now: Self.now)
        let secret = try #require(RefreshSecret("0123456789abcdef0123456789abcdef01234567"))
        let (token, _) = try await store.issueToken(userID: user.id, refreshSecret: secret, lifetime: 60, now: Self.now)
        let rotated = try #require(try await Self.refresh(store, token, now: Self.now + 1))
        #expect(try await Self.refresh(store, token, now: Self.now + 2) == nil)
        #expect(try await store.token(rotated.token)?.refreshSecret == secret)
        let prepared = try await store.read { db in
            try await db.raw("SELECT name FROM pg_prepared_statements ORDER BY name").all().map { try $0.string("name") }
        }
        #expect(prepared == ["jump_NewToken", "jump_TokenRead", "jump_TokenRotation"])
        await store.database.shutdown()
    }

    /// A refresh whose check accepts the token: the new token, or nil when the old one is not
    /// valid.
    static func refresh(_ store: CaptureStore, _ token: String, now: Int) async throws -> (token: String, expiresAt: Int)? {
        switch try await store.refresh(token, lifetime: 60, now: now, check: { _ -> String? in nil }) {
        case .rotated(let token, let expiresAt): (token, expiresAt)
        case .notValid: nil
        case .refused(let refusal): throw RefreshRefused(refusal: refusal)
        }
    }

    struct RefreshRefused: Error {
        var refusal: String
    }
}

extension CaptureStore {
    /// An access token's row, its refresh secret opened: what a refresh reads (`TokenRead`).
    func token(_ token: String) async throws -> StoredToken? {
        let hash = Self.hash(token)
        guard let row = try await read({ db in try await db.all(TokenRead(tokenHash: hash)).first }) else { return nil }
        return try storedToken(row, hash: hash)
    }
}
