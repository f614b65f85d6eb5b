import GRDB
import JumpCapture
@testable import JumpCaptureServer
import Testing
import TestSupport

/// The refreshable tokens a server keeps in memory, on real database files: what they give a
/// refresh is what the row says, and a token whose row went away or changed elsewhere does not
/// rotate, cached or not.
@Suite(.timeLimit(.minutes(5))) struct RefreshableTokensTests {
    static let now = 1_700_000_000
    static let secret = RefreshSecret("0123456789abcdef0123456789abcdef01234567")!

    static func issue(_ store: CaptureStore) async throws -> String {
        let user = try await store.createUser(record: ["givenName": "Bo"], passwordHash: nil, identity: nil, unique: [], now: now)
        return try await store.issueToken(userID: user.id, refreshSecret: secret, lifetime: 60, now: now).token
    }

    /// The entry kept at issue and at rotation says what the row says (read by a second store
    /// on the same file, whose table is empty: from the row, its secret opened from its sealed form).
    @Test func theKeptEntryIsTheRow() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/tokens.sqlite"
        let store = try CaptureStore(path: path)
        let token = try await Self.issue(store)
        #expect(store.refreshable.count == 1)
        let other = try CaptureStore(path: path)
        #expect(other.refreshable.count == 0)
        let kept = try #require(try await store.token(token))
        let row = try #require(try await other.token(token))
        #expect(kept.userID == row.userID && kept.expiresAt == row.expiresAt && kept.refreshSecret == row.refreshSecret)
        #expect(row.refreshSecret == Self.secret)

        let (rotated, _) = try #require(try await store.rotate(kept, lifetime: 120, now: Self.now + 10))
        #expect(store.refreshable.count == 1)
        #expect(try await store.token(token) == nil)   // the old one is gone from both
        #expect(try await other.token(token) == nil)
        let keptAgain = try #require(try await store.token(rotated))
        let rowAgain = try #require(try await other.token(rotated))
        #expect(keptAgain.expiresAt == Self.now + 130 && rowAgain.expiresAt == keptAgain.expiresAt)
        #expect(keptAgain.userID == rowAgain.userID && keptAgain.refreshSecret == rowAgain.refreshSecret)
    }

    /// A row deleted behind the table's back (a purge, another process): the entry still
    /// answers, but the rotation decides, refuses, and forgets it.
    @Test func aKeptTokenWhoseRowIsGoneDoesNotRotate() async throws {
        let folder = try TemporaryFolder()
        let store = try CaptureStore(path: folder.path + "/tokens.sqlite")
        let token = try await Self.issue(store)
        try await store.pool.write { db in try db.execute(sql: "DELETE FROM access_tokens") }
        let kept = try #require(try await store.token(token))
        #expect(try await store.rotate(kept, lifetime: 60, now: Self.now) == nil)
        #expect(store.refreshable.count == 0)
        #expect(try await store.token(token) == nil)
    }

    /// A token rotated by another server on the same database no longer rotates here, though
    /// this server still holds its entry.
    @Test func aTokenRotatedElsewhereDoesNotRotateHere() async throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/tokens.sqlite"
        let here = try CaptureStore(path: path)
        let elsewhere = try CaptureStore(path: path)
        let token = try await Self.issue(here)
        let there = try #require(try await elsewhere.token(token))
        #expect(try await elsewhere.rotate(there, lifetime: 60, now: Self.now) != nil)
        let kept = try #require(try await here.token(token))
        #expect(try await here.rotate(kept, lifetime: 60, now: Self.now) == nil)
    }

    /// Tokens without a refresh secret are not kept, and the table starts over at its limit.
    @Test func theTableIsBounded() async throws {
        let folder = try TemporaryFolder()
        let store = try CaptureStore(path: folder.path + "/tokens.sqlite")
        let user = try await store.createUser(record: [:], passwordHash: nil, identity: nil, unique: [], now: Self.now)
        _ = try await store.issueToken(userID: user.id, refreshSecret: nil, lifetime: 60, now: Self.now)
        #expect(store.refreshable.count == 0)

        let table = RefreshableTokens(limit: 3)
        let entry = RefreshableTokens.Entry(userID: 1, expiresAt: 0, signedInAt: 0, secret: Self.secret)
        for index in 0..<3 { table.issued("h\(index)", entry) }
        #expect(table.count == 3)
        table.issued("h3", entry)
        #expect(table.count == 1)
        #expect(table["h3"] != nil && table["h0"] == nil)
    }
}
