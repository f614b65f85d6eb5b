import JumpCapture
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// Every write leaves a record the server can read back (issue 22, "Data loss"): an update that
/// made the record nest deeper than the JSON reader reads was accepted, the record then read
/// as empty, and the next harmless update replaced it whole (email, uuid and id gone).
@Suite(.timeLimit(.minutes(5))) struct RecordLimitTests {
    static let writable = ["/notes", "/aboutMe"].map { Located($0, at: ServerFixtures.here) }

    /// `{"a": {"a": ... "x" ...}}`, `depth` objects deep.
    static func nested(_ depth: Int) -> String {
        String(repeating: #"{"a":"#, count: depth) + #""x""# + String(repeating: "}", count: depth)
    }

    static func update(_ server: TestServer, _ token: String, attribute: String? = nil, json: String) async throws -> JSONValue {
        var form = "access_token=\(token)&value=" + FormEncoding.encode(json)
        if let attribute { form += "&attribute_name=" + FormEncoding.encode(attribute) }
        return try JSONValue.parse(Array(try await server.raw(.POST, "/entity.update", form: form).body.utf8))
    }

    /// The audit's attack: 510 levels under `/notes/a/b/c` (the value parses, the record
    /// would not), then a harmless update.
    @Test func aWriteThatNestsTooDeepIsRefusedAndTheRecordStays() async throws {
        try await withServer(configure: { $0.server.writeWithToken = Self.writable }) { server in
            let token = try await server.register().result.accessToken
            let deep = try await Self.update(server, token, attribute: "/notes/a/b/c", json: Self.nested(510))
            #expect(deep["code"] == .integer(340), "\(deep)")
            #expect(deep["error"] == "invalid_data_format")
            #expect(deep["error_description"]?.stringValue?.contains("at most \(RecordLimits.maximumDepth)") == true, "\(deep)")
            // A value that fits the JSON reader but not the record's limit is refused too,
            // whether checked before the write or on the record it would leave.
            let root = try await Self.update(server, token, json: #"{"notes":"# + Self.nested(RecordLimits.maximumDepth) + "}")
            #expect(root["code"] == .integer(340), "\(root)")
            // The deepest record the server keeps is read back whole.
            let fits = try await Self.update(server, token, json: #"{"notes":"# + Self.nested(RecordLimits.maximumDepth - 2) + "}")
            #expect(fits == ["stat": "ok"], "\(fits)")
            #expect(try await Self.update(server, token, json: #"{"aboutMe":"still here"}"#) == ["stat": "ok"])
            let record = try await server.record(token)
            #expect(record["email"] == "ana.ruiz@example.com")
            #expect(record["uuid"]?.stringValue?.count == 36)
            #expect(record["aboutMe"] == "still here")
            #expect(record["notes"]?.nestingDepth == RecordLimits.maximumDepth - 2)
            #expect(try await server.signIn("ana.ruiz@example.com").signedIn != nil)
        }
    }

    /// `maximumRecordSize`: a write that would make the record larger answers 363 naming the
    /// limit and its setting; the record stays as it was.
    @Test func aRecordLargerThanTheLimitIsRefused() async throws {
        try await withServer(configure: {
            $0.server.writeWithToken = Self.writable; $0.server.maximumRecordSize = 2048
        }) { server in
            let token = try await server.register().result.accessToken
            let large = try await Self.update(server, token, json: #"{"notes":""# + String(repeating: "é", count: 1500) + #""}"#)
            #expect(large["code"] == .integer(363), "\(large)")
            #expect(large["error"] == "length_violation")
            let description = try #require(large["error_description"]?.stringValue)
            #expect(description.contains("limit of 2048 bytes (server.maximumRecordSize)"), "\(description)")
            #expect(try await server.record(token)["notes"] == nil)
            #expect(try await Self.update(server, token, json: #"{"notes":""# + String(repeating: "é", count: 500) + #""}"#) == ["stat": "ok"])
        }
        // The default is 1 MiB.
        #expect(ServerSettings().maximumRecordSize == 1 << 20)
    }

    /// A record an older version stored too deep (it does not decode) is never replaced: the
    /// write is refused with a clear error and the stored text stays as it was. A password
    /// alone (a reset) still changes.
    @Test func aRecordThatDoesNotDecodeIsNeverReplaced() async throws {
        try await withServer(configure: { $0.server.writeWithToken = Self.writable }) { server in
            let token = try await server.register().result.accessToken
            let store = server.server.service.store
            let uuid = try #require(try await server.record(token)["uuid"]?.stringValue)
            let broken =
                #"{"email":"ana.ruiz@example.com","uuid":""# + uuid + #"","id":1,"notes":"# + String(repeating: "[", count: 600)
                + String(repeating: "]", count: 600) + "}"
            try await store.execute("UPDATE users SET record = ? WHERE id = 1", [broken])
            let update = try await Self.update(server, token, json: #"{"aboutMe":"harmless"}"#)
            #expect(update["code"] == .integer(500), "\(update)")
            #expect(update["error_description"]?.stringValue?.contains("cannot be read") == true, "\(update)")
            let profile = try server.builder().updateProfile(
                ["displayName": "ana_r", "firstName": "Ana", "lastName": "Ruiz", "aboutMe": "harmless"],
                accessToken: token, today: server.today)
            let answer = try await server.send(profile)
            #expect(answer.code == 500, "\(answer)")
            #expect(try await store.texts("SELECT record FROM users WHERE id = 1") == [broken])

            // A reset's password alone is written; the record stays.
            _ = try await store.updateUser(
                id: 1, unique: [], now: server.clock.now, passwordHash: .some(PasswordHash.make("a new passphrase", cost: 4))
            ) { $0 }
            #expect(try await server.signIn("ana.ruiz@example.com", "a new passphrase").signedIn != nil)
            // Any other change is refused.
            await #expect(throws: StoreConflict.self) {
                _ = try await store.updateUser(id: 1, unique: [], now: server.clock.now) { $0.setting("emailVerified", "now") }
            }
            #expect(try await store.texts("SELECT record FROM users WHERE id = 1") == [broken])
        }
    }
}
