import Foundation
import JumpCapture
import JumpCaptureNIO
@testable import JumpCaptureServer
import JumpForms
import Logging
import Testing
import TestSupport

/// Just-in-time migration (`server.legacy`): two real servers on 127.0.0.1, one playing the
/// legacy Capture (an owner client in `server.clients`), the other taking its users as they
/// sign in, through the legacy's Entity API with signed requests.
@Suite(.timeLimit(.minutes(5))) struct JustInTimeMigrationTests {
    static let schema = SchemaRecordTests.defaultSchema
    typealias Prepared = (CaptureServerSetup, TemporaryFolder, TestClock, ClientConfig)

    /// The configuration of the new server: the owner client, and the legacy at `url`.
    static func migrating(from url: String) -> (inout ClientConfig) -> Void {
        { config in
            EntityAPITests.configure(&config)
            config.server.writeWithToken = SchemaRecordTests.writable
            let here = ServerFixtures.here
            config.server.legacy = LegacyCapture(
                captureDomain: Located(url, at: here), clientId: Located("owner-client", at: here),
                clientSecret: Located(EntityAPITests.ownerSecret, at: here))
        }
    }

    static func prepareLegacy() throws -> Prepared {
        try TestServer.setup(configure: EntityAPITests.configure, identities: ServerFixtures.identities, schema: schema)
    }

    static func prepareNew(legacy url: ServerURL, configure: @escaping (inout ClientConfig) -> Void = { _ in }) throws -> Prepared {
        let migrating = migrating(from: url.description)
        return try TestServer.setup(
            configure: { config in
                migrating(&config)
                configure(&config)
            }, identities: ServerFixtures.identities, schema: schema)
    }

    /// Starts a prepared server (on `port`, 0: any), its clock at least the real time: the
    /// new server's legacy client and the CLI date their signed requests with the real clock.
    static func start(_ prepared: Prepared, port: Int = 0, logger: Logger = ServerFixtures.quietLogger) async throws -> TestServer {
        let (setup, folder, clock, config) = prepared
        clock.advance(max(0, RefreshSignature.now - clock.now))
        let embedded = try await EmbeddedCaptureServer.start(setup, port: port, logger: logger)
        return TestServer(
            embedded: embedded, folder: folder, clock: clock, config: config, url: ServerURL(embedded.url)!,
            transport: AsyncHTTPTransport(timeoutSeconds: 30, client: ServerFixtures.client),
            decoder: ResponseDecoder(flow: ServerFixtures.flow, config: config))
    }

    /// A legacy and a new server taking users from it, both stopped after `body`.
    static func withServers<T: Sendable>(
        configure: @escaping (inout ClientConfig) -> Void = { _ in }, logger: Logger = ServerFixtures.quietLogger,
        _ body: (TestServer, TestServer) async throws -> T
    ) async throws -> T {
        let legacy = try await start(try prepareLegacy())
        let new: TestServer
        do {
            new = try await start(try prepareNew(legacy: legacy.url, configure: configure), logger: logger)
        } catch {
            await legacy.stop()
            throw error
        }
        do {
            let value = try await body(legacy, new)
            await new.stop()
            await legacy.stop()
            return value
        } catch {
            await new.stop()
            await legacy.stop()
            throw error
        }
    }

    /// A record as a back end creates it on the legacy: email, name, two photos, a password object.
    static func record(_ email: String, password: JSONValue) -> JSONValue {
        [
            "email": .string(email), "displayName": .string("name of \(email)"), "password": password,
            "photos": [["type": "avatar", "value": "a.png"], ["type": "banner", "value": "b.png"]]
        ]
    }

    /// Creates `records` on `server` with `/entity.bulkCreate` (signed requests); their uuids.
    @discardableResult
    static func bulkCreate(_ server: TestServer, _ records: [JSONValue]) async throws -> [String] {
        let answer = try await EntityAPITests.owner(server).call(
            "/entity.bulkCreate", [("type_name", "user"), ("all_attributes", JSONValue.array(records).serialized())])
        let uuids = answer["uuid_results"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(uuids.count == records.count, "\(answer.serialized())")
        return uuids
    }

    /// The record with `email` as an owner's `/entity.find` shows it.
    static func find(_ server: TestServer, _ email: String) async throws -> JSONValue? {
        try await EntityAPITests.owner(server).find(typeName: "user", filter: "email = \(CaptureService.filterText(email))", maxResults: 2)
            .records.first
    }

    static func photoIDs(_ record: JSONValue?) -> [Int] {
        record?["photos"]?.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
    }

    static func metric(_ server: TestServer, _ name: String) async throws -> Double {
        ReadinessMetricsTests.samples(try await server.raw(.GET, "/metrics").body)[name] ?? 0
    }

    static let md5 = ImportedPasswordHashTests.vectors.first { $0.type == "password-md5" }!
    static func passwordObject(_ vector: ImportedPasswordHashTests.Vector) -> JSONValue {
        var entries: [(key: String, value: JSONValue)] = [("type", .string(vector.type)), ("value", .string(vector.value))]
        if let salt = vector.salt { entries.append(("salt", .string(salt))) }
        return .object(entries)
    }

    // MARK: tests

    /// A sign-in for someone only the legacy has: a wrong password moves nothing; the right
    /// one moves the whole record (ids, uuid, plural element ids, timestamps) with a fresh
    /// hash of the server's own, and signs in; later sign-ins are local.
    @Test func movesARecordAtItsFirstSignIn() async throws {
        let log = RecordedLog()
        var logger = Logger(label: "jump-forms.test") { _ in log }
        logger.logLevel = .info
        try await Self.withServers(logger: logger) { legacy, new in
            try await Self.bulkCreate(legacy, [Self.record("ana@example.com", password: Self.passwordObject(Self.md5))])
            let before = try #require(try await Self.find(legacy, "ana@example.com"))

            let wrong = try await new.signIn("ana@example.com", Self.md5.wrong)
            #expect(wrong.code == 210)
            #expect(try await Self.find(new, "ana@example.com") == nil)

            let signedIn = try #require(try await new.signIn("ana@example.com", Self.md5.password).signedIn)
            #expect(signedIn.isNew == false)
            let moved = try #require(try await Self.find(new, "ana@example.com"))
            #expect(moved.setting("password", .null) == before.setting("password", .null))
            #expect(Self.photoIDs(moved).count == 2 && Self.photoIDs(moved) == Self.photoIDs(before))
            #expect(moved["password"]?["type"]?.stringValue == "password-bcrypt")
            #expect(moved["password"]?["value"]?.stringValue?.hasPrefix(PasswordHash.prefix) == true)
            #expect(try await Self.metric(new, "jump_legacy_moves_total") == 1)

            // Local from now on: the wrong password is refused, the right one signs in, nothing moves again.
            #expect(try await new.signIn("ana@example.com", Self.md5.wrong).code == 210)
            #expect(try await new.signIn("ana@example.com", Self.md5.password).signedIn != nil)
            #expect(try await Self.metric(new, "jump_legacy_moves_total") == 1)
            // Someone neither server has: the usual wrong-password answer.
            #expect(try await new.signIn("nobody@example.com", "whatever 123").code == 210)

            // The move logged once, by id and uuid; no password, hash or secret in the log.
            let text = log.text
            let line =
                "notice: just-in-time migration: record \(before["id"]!) (uuid \(before["uuid"]!.stringValue!)) moved from the legacy Capture at a sign-in"
            #expect(text.components(separatedBy: line).count == 2, "\(text)")
            for secret in [Self.md5.password, Self.md5.value, EntityAPITests.ownerSecret, PasswordHash.prefix] {
                #expect(!text.contains(secret), "\(text)")
            }
        }
    }

    /// The sign-in throttle comes first: an account locked by wrong passwords does not reach
    /// the legacy (510, nothing moves) until its wait is over.
    @Test func aLockedAccountDoesNotAskTheLegacy() async throws {
        try await Self.withServers(configure: { $0.server.signInFailureLimit = 2 }) { legacy, new in
            try await Self.bulkCreate(legacy, [Self.record("jun@example.com", password: Self.passwordObject(Self.md5))])
            #expect(try await new.signIn("jun@example.com", Self.md5.wrong).code == 210)
            #expect(try await new.signIn("jun@example.com", Self.md5.wrong).code == 210)
            #expect(try await new.signIn("jun@example.com", Self.md5.password).code == 510)
            #expect(try await Self.find(new, "jun@example.com") == nil)
            #expect(try await Self.metric(new, "jump_legacy_moves_total") == 0)
            new.clock.advance(60)
            #expect(try await new.signIn("jun@example.com", Self.md5.password).signedIn != nil)
            #expect(try await Self.metric(new, "jump_legacy_moves_total") == 1)
        }
    }

    /// The hosted sign-in page takes the same path: the legacy user signs in there and moves.
    @Test func theHostedSignInPageMovesTheRecord() async throws {
        try await Self.withServers { legacy, new in
            try await Self.bulkCreate(legacy, [Self.record("sam@example.com", password: Self.passwordObject(Self.md5))])
            let browser = PageBrowser(new)
            let page = try await browser.get("/forms/signInForm?locale=en-US")
            let signedIn = try await browser.post(
                "/forms/signInForm?locale=en-US", [("signInEmailAddress", "sam@example.com"), ("currentPassword", Self.md5.password)],
                csrf: page.csrf)
            #expect(signedIn.status == 200, "\(signedIn.body)")
            #expect(signedIn.body.contains("You are signed in as sam@example.com."), "\(signedIn.body)")
            #expect(try await Self.find(new, "sam@example.com")?["password"]?["value"]?.stringValue?.hasPrefix(PasswordHash.prefix) == true)
        }
    }

    /// Two sign-ins at once for the same legacy user: both signed in, the record moved once.
    @Test func twoSignInsAtOnceMoveTheRecordOnce() async throws {
        try await Self.withServers { legacy, new in
            try await Self.bulkCreate(legacy, [Self.record("tomasz@example.com", password: Self.passwordObject(Self.md5))])
            async let first = new.signIn("tomasz@example.com", Self.md5.password)
            async let second = new.signIn("tomasz@example.com", Self.md5.password)
            let (a, b) = try await (first, second)
            #expect(a.signedIn != nil, "\(a)")
            #expect(b.signedIn != nil, "\(b)")
            #expect(a.signedIn?.record["uuid"] == b.signedIn?.record["uuid"])
            #expect(try await Self.metric(new, "jump_legacy_moves_total") == 1)
            let users = try await new.server.service.store.findUsers(EntityQuery(limit: 10))
            #expect(users.count == 1)
        }
    }

    /// The legacy down: Capture's error shape, nothing moved; back up, the next sign-in moves it.
    @Test func aLegacyThatIsDownIsAskedAgainAtTheNextSignIn() async throws {
        let prepared = try Self.prepareLegacy()
        var legacy = try await Self.start(prepared)
        let port = try #require(legacy.url.port)
        try await Self.bulkCreate(legacy, [Self.record("lea@example.com", password: Self.passwordObject(Self.md5))])
        let new = try await Self.start(try Self.prepareNew(legacy: legacy.url))
        do {
            await legacy.embedded?.stop()
            let request = try new.builder().signIn(
                ["signInEmailAddress": "lea@example.com", "currentPassword": Self.md5.password], refreshSecret: .generate(), mergeToken: nil,
                today: new.today)
            let refused = try await new.answer(request)
            #expect(refused.status == 503)
            let answer = try JSONValue.parse(String(decoding: refused.body, as: UTF8.self))
            #expect(answer["stat"]?.stringValue == "error")
            #expect(answer["error"]?.stringValue == "legacy_unavailable")
            #expect(answer["code"]?.intValue == 503)
            #expect(try await new.server.service.store.findUsers(EntityQuery(limit: 10)).isEmpty)
            #expect(try await Self.metric(new, "jump_legacy_unavailable_total") == 1)

            legacy = try await Self.start(prepared, port: port)
            #expect(try await new.signIn("lea@example.com", Self.md5.password).signedIn != nil)
            #expect(try await Self.metric(new, "jump_legacy_moves_total") == 1)
        } catch {
            await new.stop()
            await legacy.stop()
            throw error
        }
        await new.stop()
        await legacy.stop()
    }

    /// A social sign-in whose identity the new server does not know: looked up on the legacy by
    /// `profiles.identifier`, the record moved with its identity, signed in.
    @Test func aSocialSignInMovesTheRecordOfItsIdentity() async throws {
        try await Self.withServers { legacy, new in
            try await Self.bulkCreate(legacy, [Self.record("marta.keller@example.com", password: Self.passwordObject(Self.md5))])
            let store = legacy.server.service.store
            let user = try #require(try await store.user(emailNormalized: "marta.keller@example.com"))
            try await store.link(
                userID: user.id,
                identity: StoredIdentity(provider: "google", identifier: "https://www.google.com/profiles/1001", verifiedEmail: nil),
                consuming: [], now: legacy.clock.now)
            let token = try await new.engageToken("google", identity: "marta.keller@example.com")
            let signedIn = try #require(try await new.socialSignIn(token).signedIn)
            #expect(signedIn.record["uuid"]?.stringValue == user.uuid)
            let moved = try #require(try await Self.find(new, "marta.keller@example.com"))
            #expect(moved["profiles"]?.arrayValue?.first?["identifier"]?.stringValue == "https://www.google.com/profiles/1001")
            // The legacy password moved with it, and signs in.
            #expect(try await new.signIn("marta.keller@example.com", Self.md5.password).signedIn != nil)
        }
    }

    // MARK: the issue's end to end

    /// Leaving a Capture, end to end: users with a hash of every Capture type created on the
    /// legacy through `/entity.bulkCreate`; `users export` (the CLI) from it, `users import`
    /// into the new server; each signs in there with the old password, after which an owner's
    /// `/entity.find` shows the server's own hash; plural element ids the same on both sides;
    /// a user added to the legacy after the export moves at its sign-in; a file with a
    /// malformed line and a duplicate email imports the good records and names the bad lines.
    @Test(.timeLimit(.minutes(3))) func leavingCaptureEndToEnd() async throws {
        var byType: [String: ImportedPasswordHashTests.Vector] = [:]
        for vector in ImportedPasswordHashTests.vectors where byType[vector.type] == nil { byType[vector.type] = vector }
        let users = byType.keys.sorted().enumerated().map { index, type in ("user\(index)@example.com", byType[type]!) }
        // One user per type the server reads (the 16 types Capture lists for imported passwords).
        #expect(Set(byType.keys) == Set(PasswordHashSchemes.all.map(\.captureType)) && users.count == 16)
        try await Self.withServers { legacy, new in
            try await Self.bulkCreate(legacy, users.map { Self.record($0.0, password: Self.passwordObject($0.1)) })
            let folder = try TemporaryFolder("leaving-capture")
            defer { folder.remove() }
            let file = folder.path + "/users.jsonl"
            let export = try await UsersExportTests.export(legacy, out: file)
            #expect(export.status == 0, "\(export.stderr)")
            let imported = try await UserImportTests.run(file, into: new.server.service.setup)
            #expect(imported.summary.count(.imported) == users.count, "\(imported.diagnostics)")
            #expect(imported.summary.passwordTypes.count == users.count)

            for (email, vector) in users {
                let before = try #require(try await Self.find(legacy, email))
                let held = try #require(try await Self.find(new, email))
                #expect(held["password"]?["type"]?.stringValue == vector.type)
                #expect(held.setting("password", .null) == before.setting("password", .null), "\(email)")
                #expect(Self.photoIDs(held).count == 2 && Self.photoIDs(held) == Self.photoIDs(before), "\(email)")
                #expect(try await new.signIn(email, vector.password).signedIn != nil, "\(vector.type) \(vector.form)")
                let after = try #require(try await Self.find(new, email))
                #expect(after["password"]?["type"]?.stringValue == "password-bcrypt")
                #expect(after["password"]?["value"]?.stringValue?.hasPrefix(PasswordHash.prefix) == true, "\(vector.type)")
                #expect(Self.photoIDs(after) == Self.photoIDs(before))
            }
            #expect(try await Self.metric(new, "jump_legacy_moves_total") == 0)

            // Added to the legacy after the export: moves at its first sign-in.
            let late = try #require(byType["password-sha-512"] ?? byType.values.first)
            try await Self.bulkCreate(legacy, [Self.record("late@example.com", password: Self.passwordObject(late))])
            #expect(try await Self.find(new, "late@example.com") == nil)
            #expect(try await new.signIn("late@example.com", late.password).signedIn != nil)
            let lateBefore = try #require(try await Self.find(legacy, "late@example.com"))
            let lateAfter = try #require(try await Self.find(new, "late@example.com"))
            #expect(lateAfter["id"] == lateBefore["id"] && lateAfter["uuid"] == lateBefore["uuid"])
            #expect(Self.photoIDs(lateAfter).count == 2 && Self.photoIDs(lateAfter) == Self.photoIDs(lateBefore))
            #expect(lateAfter["password"]?["value"]?.stringValue?.hasPrefix(PasswordHash.prefix) == true)
            #expect(try await Self.metric(new, "jump_legacy_moves_total") == 1)

            // A file with a malformed line (2) and a duplicate email (3): the good records import.
            let bad = folder.path + "/bad.jsonl"
            let lines = [
                #"{"email": "one@example.com", "displayName": "one"}"#,
                #"{"email": "broken@example.com", "displayName": "#,
                #"{"email": "ONE@example.com", "displayName": "again"}"#,
                #"{"email": "two@example.com", "displayName": "two"}"#
            ]
            try (lines.joined(separator: "\n") + "\n").write(toFile: bad, atomically: false, encoding: .utf8)
            let (setup, target, _, _) = try UserImportTests.setup()
            defer { target.remove() }
            let run = try await UserImportTests.run(bad, into: setup)
            #expect(run.summary.count(.imported) == 2)
            #expect(run.summary.count(.refused) == 2)
            #expect(run.outcomes.filter { $0.kind == .refused }.map(\.line) == [2, 3], "\(run.diagnostics)")
            let diagnostics = run.diagnostics.split(separator: "\n")
            #expect(
                diagnostics.count == 2 && diagnostics[0].hasPrefix("bad.jsonl:2:") && diagnostics[1].hasPrefix("bad.jsonl:3:"), "\(run.diagnostics)")
        }
    }
}
