import Logging
import JumpCapture
import JumpCaptureNIO
@testable import JumpCaptureServer
import JumpForms
import Testing
import TestSupport

/// Look-alikes on the server (issue 22, "Unicode look-alikes"): `unique` values and the email
/// compare by their keys (folded, a skeleton for `text` fields), the blacklists too, and a
/// database from before the keys gets them.
@Suite(.timeLimit(.minutes(5))) struct LookAlikeServerTests {
    static func register(_ server: TestServer, email: String, displayName: String) async throws -> Result<CaptureSuccess, CaptureError> {
        let request = try server.builder().register(
            ServerFixtures.registration(email: "someone@example.com", displayName: "someone"),
            refreshSecret: .generate(), today: server.today)
        // Set after the client's rules ran: what the server does with what a client sends.
        return try await server.send(request.setting("emailAddress", email).setting("displayName", displayName))
    }

    static func refusedFields(_ result: Result<CaptureSuccess, CaptureError>) -> [String] {
        guard case .failure(.invalidFields(let invalid)) = result else { return ["not a 390: \(result)"] }
        return invalid.fields.map(\.field)
    }

    @Test func uniqueValuesAndTheEmailCompareByTheirKeys() async throws {
        try await withServer { server in
            let (ana, _) = try await server.register()
            for email in ["ａna.ruiz@example.com", "ANA.RUIZ@EXAMPLE.COM", "Ａｎａ.Ｒｕｉｚ＠ｅｘａｍｐｌｅ．ｃｏｍ"] {
                #expect(Self.refusedFields(try await Self.register(server, email: email, displayName: "bo_lind")) == ["emailAddress"], "\(email)")
            }
            for name in ["ａna_r", "\u{0430}na_r", "ANA_R", "ana_ｒ", "\u{0430}n\u{0430}_r"] {
                #expect(Self.refusedFields(try await Self.register(server, email: "bo@example.com", displayName: name)) == ["displayName"], "\(name)")
            }
            #expect(try await server.server.accountCount() == 1)
            // Different values are not look-alikes.
            let bo = try #require(try await Self.register(server, email: "bo@example.com", displayName: "ana_r2").signedIn)
            // /entity.update: 361, as for the value itself.
            let update = server.builder().updateObject(accessToken: bo.accessToken, attribute: nil, value: ["displayName": "ＡＮＡ_Ｒ"])
            #expect(try await server.send(update).code == 361)
            // The edit-profile form: 390.
            var profile = FormValues(
                record: try await server.record(bo.accessToken),
                form: try FormInterpreter(flow: ServerFixtures.flow, localizer: ServerFixtures.localizer)
                    .model(form: "editProfileForm", locale: ServerFixtures.english))
            profile["displayName"] = "\u{0430}na_r"
            let edit = try server.builder().updateProfile(profile, accessToken: bo.accessToken, today: server.today)
            #expect(Self.refusedFields(try await server.send(edit)) == ["displayName"])
            // An account's own value in another form is its own.
            let own = server.builder().updateObject(accessToken: ana.accessToken, attribute: nil, value: ["displayName": "ＡＮＡ_Ｒ"])
            #expect(try await server.send(own).isOK)
            // Records keep what was typed.
            #expect(try await server.record(ana.accessToken)["displayName"] == "ＡＮＡ_Ｒ")
        }
    }

    @Test func blacklistsCompareByTheirKeysOnTheServer() async throws {
        try await withServer { (server: TestServer) async throws in
            for name in ["ａdmin", "\u{0430}dmin", "ADMIN", "ＲＯＯＴ", "supp\u{043E}rt"] {
                #expect(Self.refusedFields(try await Self.register(server, email: "bo@example.com", displayName: name)) == ["displayName"], "\(name)")
            }
            for email in ["eve@mailinator.ｃｏｍ", "eve@MAILINATOR.com", "eve@mailinator.com."] {
                #expect(Self.refusedFields(try await Self.register(server, email: email, displayName: "eve_m")) == ["emailAddress"], "\(email)")
            }
            #expect(try await server.server.accountCount() == 0)
        }
    }

    /// A database written before the keys existed: the migration and the start-up fill them,
    /// and two accounts whose emails were already look-alikes both stay usable.
    @Test func storedAccountsGetTheirKeys() async throws {
        let folder = try TemporaryFolder("jump-lookalike-migration")
        defer { folder.remove() }
        let path = folder.path + "/capture.sqlite"
        do {
            let old = try StoreDatabase(.sqlite(path: path), logger: Logger(label: "test"))
            try await CaptureStore.migrate(old, upTo: "7-authorization-codes")
            let hash = PasswordHash.make(ServerFixtures.password, cost: 4)
            for (id, email, name) in [(1, "ana.ruiz@example.com", "ana_r"), (2, "ａna.ruiz@example.com", "bo_lind")] {
                let record: JSONValue = ["email": .string(email), "displayName": .string(name), "uuid": .string("uuid-\(id)"), "id": .integer(id)]
                try await old.execute(
                    "INSERT INTO users (id, uuid, email_normalized, password_hash, record, created, last_updated) VALUES (?, ?, ?, ?, ?, 'x', 'x')",
                    [id, "uuid-\(id)", normalizeEmail(email), hash, record.serialized()])
            }
        }
        let clock = TestClock(ServerFixtures.start)
        let setup = CaptureServerSetup(
            config: ServerFixtures.config, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer,
            databasePath: path, clock: { clock.now })
        let embedded = try await EmbeddedCaptureServer.start(setup, logger: ServerFixtures.quietLogger)
        let server = TestServer(
            embedded: embedded, folder: folder, clock: clock, config: ServerFixtures.config, url: ServerURL(embedded.url)!,
            transport: AsyncHTTPTransport(timeoutSeconds: 30, client: ServerFixtures.client),
            decoder: ResponseDecoder(flow: ServerFixtures.flow, config: ServerFixtures.config))
        do {
            #expect(Self.refusedFields(try await Self.register(server, email: "ANA.Ruiz@example.com", displayName: "cy_ng")) == ["emailAddress"])
            #expect(Self.refusedFields(try await Self.register(server, email: "cy@example.com", displayName: "\u{0430}na_r")) == ["displayName"])
            #expect(Self.refusedFields(try await Self.register(server, email: "cy@example.com", displayName: "BO_LIND")) == ["displayName"])
            // Both stored accounts sign in; the older holds the key.
            #expect(try await server.signIn("ana.ruiz@example.com").signedIn?.record["id"] == 1)
            #expect(try await server.signIn("ａna.ruiz@example.com").signedIn?.record["id"] == 2)
            let store = embedded.server.service.store
            let ids = try await store.integers("SELECT id FROM users ORDER BY id")
            let keys = try await store.texts("SELECT email_key FROM users ORDER BY id")
            #expect(ids == [1, 2] && keys == ["ana.ruiz@example.com", nil])
        } catch {
            await embedded.stop()
            throw error
        }
        await embedded.stop()
    }
}
