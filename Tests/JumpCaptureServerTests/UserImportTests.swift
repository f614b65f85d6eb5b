import Foundation
import JumpCapture
import JumpCaptureNIO
@testable import JumpCaptureServer
import JumpForms
import JumpSchema
import SQLKit
import Synchronization
import TestSupport
import Testing

/// `users import`: real files into a real store (SQLite, or PostgreSQL with
/// `JUMP_TEST_DATABASE=postgres`), then a real server signing the imported users in.
@Suite(.timeLimit(.minutes(5))) struct UserImportTests {
    static let fixtures = "Tests/JumpCaptureServerTests/Fixtures/import"
    static let schema = SchemaRecordTests.defaultSchema
    static let password = "correct horse battery staple"

    /// A run's outcomes, in file order, and its diagnostics as the CLI prints them.
    struct Run {
        var summary: UserImportSummary
        var outcomes: [UserImportOutcome]
        var diagnostics: String

        func kind(line: Int) -> UserImportOutcome.Kind? { outcomes.first { $0.line == line }?.kind }
    }

    final class Outcomes: Sendable {
        let list = Mutex<[UserImportOutcome]>([])
    }

    /// A fresh server setup (its database in a temporary folder, or a fresh PostgreSQL one).
    static func setup(configure: (inout ClientConfig) -> Void = { _ in }) throws -> (CaptureServerSetup, TemporaryFolder, TestClock, ClientConfig) {
        try TestServer.setup(configure: configure, identities: [], schema: schema)
    }

    static func run(
        _ path: String, into setup: CaptureServerSetup, format: ImportFormat? = nil, dryRun: Bool = false,
        onConflict: UserImportOptions.OnConflict = .skip, batchSize: Int = 1000
    ) async throws -> Run {
        let descriptor = open(path, O_RDONLY)
        #expect(descriptor >= 0, "cannot open \(path)")
        var options = UserImportOptions(format: format ?? ImportFormat.guess(path: path), dryRun: dryRun, onConflict: onConflict)
        options.batchSize = batchSize
        let importer = try UserImport(setup: setup, options: options, logger: ServerFixtures.quietLogger)
        let outcomes = Outcomes()
        let summary = try await importer.run(descriptor: descriptor) { outcome in outcomes.list.withLock { $0.append(outcome) } }
        await importer.store.database.shutdown()
        let list = outcomes.list.withLock { $0 }
        let name = (path as NSString).lastPathComponent
        let diagnostics = list.compactMap { outcome in
            outcome.kind == .refused || outcome.kind == .stopped ? outcome.refusal?.rendered(file: name, line: outcome.line) : nil
        }.map { $0 + "\n" }.joined()
        return Run(summary: summary, outcomes: list, diagnostics: diagnostics)
    }

    /// The users table as (id, uuid, password hash, record), by id.
    struct Row: Sendable, Equatable {
        var id: Int64
        var uuid: String
        var passwordHash: String?
        var record: String
        var nextElementID: Int
    }

    static func rows(_ setup: CaptureServerSetup) async throws -> [Row] {
        let store = try CaptureStore(location: setup.database ?? .sqlite(path: setup.databasePath), keyPath: setup.databasePath + ".key")
        let rows = try await store.read { db in
            try await db.raw("SELECT id, uuid, password_hash, record, next_element_id FROM users ORDER BY id").all().map {
                Row(
                    id: try $0.int64("id"), uuid: try $0.string("uuid"), passwordHash: try $0.optionalString("password_hash"),
                    record: try $0.string("record"), nextElementID: try $0.int("next_element_id"))
            }
        }
        await store.database.shutdown()
        return rows
    }

    static func identities(_ setup: CaptureServerSetup, of id: Int64) async throws -> [StoredIdentity] {
        let store = try CaptureStore(location: setup.database ?? .sqlite(path: setup.databasePath), keyPath: setup.databasePath + ".key")
        let identities = try await store.identities(of: id)
        await store.database.shutdown()
        return identities
    }

    static func path(_ name: String) -> String { Repository.path(fixtures + "/" + name) }

    // MARK: files

    /// A malformed line and a duplicate email (a look-alike of one imported before) are named
    /// with their lines; the good records are imported with their ids, uuids, timestamps,
    /// plural element ids and password hashes as they were.
    @Test func importsJSONLinesAndNamesTheBadLines() async throws {
        let (setup, folder, _, _) = try Self.setup()
        defer { folder.remove() }
        let run = try await Self.run(Self.path("mixed.jsonl"), into: setup)
        Snapshot.check(run.diagnostics, against: Repository.path("Tests/JumpCaptureServerTests/Golden/import/mixed.txt"))
        #expect(run.summary.count(.imported) == 3)
        #expect(run.summary.count(.refused) == 3)
        #expect([1, 2, 5].map { run.kind(line: $0) } == [.imported, .imported, .imported])
        #expect([3, 4, 6].map { run.kind(line: $0) } == [.refused, .refused, .refused])
        #expect(run.summary.passwordTypes == ["password-bcrypt": 1, "password-crypt-sha512": 1, "none": 1])
        // No hash value is ever printed.
        #expect(!run.diagnostics.contains("$2a$") && !run.diagnostics.contains("9cc2ae8a"))

        let rows = try await Self.rows(setup)
        #expect(rows.map(\.id) == [101, 102, 105])
        let ana = try #require(rows.first)
        #expect(ana.uuid == "0b5e1d3c-5b2a-4c1e-9a57-3f1e2d4c5b6a")
        #expect(
            ana.passwordHash
                == ImportedPasswordHash(type: "password-bcrypt", value: "$2a$04$XvNQlvvIbLIV1TzQluo8LuoAV.FKcV2gzMN.X.eQvOiTnFsOrfQX2").storedText)
        let record = try JSONValue.parse(ana.record)
        #expect(record["created"] == "2016-05-04 03:02:01.123456 +0000")
        #expect(record["lastUpdated"] == "2024-01-02 03:04:05.000000 +0000")
        #expect(record["photos"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [5001, 5002])
        #expect(record["password"] == nil && record["profiles"] == nil)
        #expect(ana.nextElementID == ElementIDs.first)
        #expect(try await Self.identities(setup, of: 105) == [StoredIdentity(provider: "twitter", identifier: "twitter:4004")])
    }

    /// Dataload CSV: a header of attribute paths, JSON in the cells of plurals and passwords,
    /// a quoted cell over two lines (the next record's line counts it).
    @Test func importsCSV() async throws {
        let (setup, folder, _, _) = try Self.setup()
        defer { folder.remove() }
        let run = try await Self.run(Self.path("users.csv"), into: setup)
        Snapshot.check(run.diagnostics, against: Repository.path("Tests/JumpCaptureServerTests/Golden/import/users-csv.txt"))
        #expect(run.outcomes.map(\.line) == [2, 3, 5, 6, 7])
        #expect(run.outcomes.map(\.kind) == [.imported, .imported, .refused, .refused, .imported])
        let rows = try await Self.rows(setup)
        #expect(rows.map(\.id) == [201, 202, 205])
        let first = try JSONValue.parse(rows[0].record)
        #expect(first["photos"] == [["id": 7001, "type": "small", "value": "https://example.com/c.png"]])
        #expect(first["primaryAddress"]?["city"] == "Lyon")
        #expect(try JSONValue.parse(rows[1].record)["givenName"] == "Two\nLines")
        #expect(rows[1].passwordHash?.contains("password-crypt-sha512") == true)
    }

    static let invalidFixtures: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path("invalid"))) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.map { String($0.dropLast(6)) }.sorted()
    }()

    /// Each invalid record is refused with its line, the attribute and the reason (golden), the
    /// store stays empty, and no password value appears in the message.
    @Test(arguments: invalidFixtures) func refusesTheInvalidRecord(_ name: String) async throws {
        let (setup, folder, _, _) = try Self.setup()
        defer { folder.remove() }
        let run = try await Self.run(Self.path("invalid/\(name).jsonl"), into: setup)
        #expect(run.summary.count(.refused) == 1 && run.summary.records == 1)
        Snapshot.check(run.diagnostics, against: Repository.path("Tests/JumpCaptureServerTests/Golden/import/invalid/\(name).txt"))
        #expect(!run.diagnostics.contains("hunter2") && !run.diagnostics.contains("c2VjcmV0"))
        #expect(try await Self.rows(setup).isEmpty)
    }

    @Test func invalidFixturesAreThere() {
        #expect(Self.invalidFixtures.count >= 15)
    }

    /// A record without an id or uuid gets new ones (past the largest imported id), and its
    /// plural elements without ids get new ids; a duplicate after it in the same batch is
    /// still refused.
    @Test func aRecordWithoutIDsGetsNewOnes() async throws {
        let (setup, folder, _, _) = try Self.setup()
        defer { folder.remove() }
        let file = try folder.write(
            "no-ids.jsonl",
            [
                #"{"id": 50, "uuid": "4c5d6e7f-8a9b-4c0d-9e1f-2a3b4c5d6e7f", "email": "first@example.com", "displayName": "first"}"#,
                #"{"email": "second@example.com", "displayName": "second", "photos": [{"type": "small", "value": "s"}]}"#,
                #"{"id": 60, "uuid": "5d6e7f8a-9b0c-4d1e-8f2a-3b4c5d6e7f8a", "email": "SECOND@example.com", "displayName": "third"}"#,
                #"{"id": 61, "uuid": "6e7f8a9b-0c1d-4e2f-9a3b-4c5d6e7f8a9b", "email": "fourth@example.com", "displayName": "Second"}"#
            ].joined(separator: "\n") + "\n")
        let run = try await Self.run(file, into: setup)
        #expect(run.outcomes.map(\.kind) == [.imported, .imported, .refused, .refused])
        #expect(run.diagnostics.contains("no-ids.jsonl:3: /email: another record holds this value"))
        #expect(run.diagnostics.contains("no-ids.jsonl:4: /displayName: another record holds this value"), "\(run.diagnostics)")
        let rows = try await Self.rows(setup)
        #expect(rows.count == 2 && rows[1].id > 50)
        let second = try JSONValue.parse(rows[1].record)
        #expect(second["id"]?.intValue == Int(rows[1].id))
        #expect(second["photos"]?.arrayValue?.first?["id"]?.intValue == ElementIDs.first)
        #expect(rows[1].nextElementID == ElementIDs.first + 1)
        #expect(SchemaValueRules.isUUID(rows[1].uuid))
    }

    // MARK: re-runs and conflicts

    /// The same file twice: nothing changes, every record is skipped (or refused again).
    @Test func aSecondRunChangesNothing() async throws {
        let (setup, folder, _, _) = try Self.setup()
        defer { folder.remove() }
        _ = try await Self.run(Self.path("mixed.jsonl"), into: setup)
        let before = try await Self.rows(setup)
        for mode in [UserImportOptions.OnConflict.skip, .update] {
            let again = try await Self.run(Self.path("mixed.jsonl"), into: setup, onConflict: mode)
            #expect(again.summary.count(.skipped) == 3, "\(mode)")
            #expect(again.summary.count(.imported) == 0 && again.summary.count(.updated) == 0, "\(mode)")
            #expect(again.summary.count(.refused) == 3, "\(mode)")
            #expect(try await Self.rows(setup) == before, "\(mode)")
        }
    }

    /// `update` replaces a changed record (and an imported password); `skip` leaves it; `fail`
    /// stops at it, keeping the records before and writing none after.
    @Test func onConflictModes() async throws {
        let (setup, folder, _, _) = try Self.setup()
        defer { folder.remove() }
        _ = try await Self.run(Self.path("mixed.jsonl"), into: setup)
        let changed = try folder.write(
            "changed.jsonl",
            [
                #"{"id": 301, "uuid": "4c5d6e7f-8a9b-4c0d-9e1f-2a3b4c5d6e7f", "email": "new.one@example.com", "displayName": "new_one"}"#,
                #"{"id": 101, "uuid": "0b5e1d3c-5b2a-4c1e-9a57-3f1e2d4c5b6a", "email": "ana.ruiz@example.com", "displayName": "ana_r", "givenName": "Anita", "password": {"type": "password-md5", "value": "9cc2ae8a1ba7a93da39b46fc1019c481"}}"#,
                #"{"id": 302, "uuid": "5d6e7f8a-9b0c-4d1e-8f2a-3b4c5d6e7f8a", "email": "new.two@example.com", "displayName": "new_two"}"#
            ].joined(separator: "\n") + "\n")

        let skip = try await Self.run(changed, into: setup, onConflict: .skip, batchSize: 2)
        #expect(skip.outcomes.map(\.kind) == [.imported, .skipped, .imported])
        #expect(try JSONValue.parse(try await Self.rows(setup)[0].record)["givenName"] == "Ana")

        let update = try await Self.run(changed, into: setup, onConflict: .update)
        #expect(update.outcomes.map(\.kind) == [.skipped, .updated, .skipped])
        let ana = try await Self.rows(setup)[0]
        #expect(try JSONValue.parse(ana.record)["givenName"] == "Anita")
        #expect(ana.passwordHash?.contains("password-md5") == true)
        #expect(update.summary.passwordTypes == ["password-md5": 1])

        let (other, otherFolder, _, _) = try Self.setup()
        defer { otherFolder.remove() }
        _ = try await Self.run(Self.path("mixed.jsonl"), into: other)
        let fail = try await Self.run(changed, into: other, onConflict: .fail, batchSize: 2)
        #expect(fail.outcomes.map(\.kind) == [.imported, .stopped])
        #expect(fail.summary.stoppedAtLine == 2)
        #expect(fail.diagnostics == "changed.jsonl:2: /uuid: the store holds this record already (--on-conflict fail)\n")
        #expect(try await Self.rows(other).map(\.id) == [101, 102, 105, 301])
    }

    /// A dry run checks every record (duplicates within the file too) and writes nothing.
    @Test func aDryRunWritesNothing() async throws {
        let (setup, folder, _, _) = try Self.setup()
        defer { folder.remove() }
        let dry = try await Self.run(Self.path("mixed.jsonl"), into: setup, dryRun: true, batchSize: 2)
        #expect(dry.summary.dryRun)
        #expect(dry.outcomes.map(\.kind) == [.imported, .imported, .refused, .refused, .imported, .refused])
        #expect(try await Self.rows(setup).isEmpty)
        let real = try await Self.run(Self.path("mixed.jsonl"), into: setup)
        #expect(real.diagnostics == dry.diagnostics)
    }

    // MARK: the server

    /// Imported users sign in on a real server with their old passwords (bcrypt and SHA-crypt);
    /// the imported hash is replaced by the server's own at that sign-in; plural element ids
    /// are Capture's, and elements added later get fresh ones; a new sign-up gets a new id.
    @Test func importedUsersSignInWithTheirOldPasswords() async throws {
        let (setup, folder, clock, config) = try Self.setup { $0.server.writeWithToken = SchemaRecordTests.writable }
        let run = try await Self.run(Self.path("mixed.jsonl"), into: setup)
        #expect(run.summary.count(.imported) == 3)
        let embedded = try await EmbeddedCaptureServer.start(setup, logger: ServerFixtures.quietLogger)
        let server = TestServer(
            embedded: embedded, folder: folder, clock: clock, config: config, url: ServerURL(embedded.url)!,
            transport: AsyncHTTPTransport(timeoutSeconds: 30, client: ServerFixtures.client),
            decoder: ResponseDecoder(flow: ServerFixtures.flow, config: config))
        do {
            #expect(try await server.signIn("ana.ruiz@example.com", "Zorrect horse battery staple").signedIn == nil)
            let ana = try #require(try await server.signIn("ana.ruiz@example.com", Self.password).signedIn)
            let tomasz = try #require(try await server.signIn("tomasz.nowak@example.net", Self.password).signedIn)
            let rows = try await Self.rows(setup)
            #expect(rows.filter { [101, 102].contains($0.id) }.allSatisfy { $0.passwordHash?.hasPrefix(PasswordHash.prefix) == true })

            let record = try await server.record(ana.accessToken)
            #expect(record["id"] == 101)
            #expect(record["photos"]?.arrayValue?.compactMap { $0["id"]?.intValue } == [5001, 5002])
            let added = try await server.send(
                server.builder().updateObject(accessToken: ana.accessToken, attribute: nil, value: ["photos": [["type": "medium", "value": "m"]]]))
            #expect(added.isOK, "\(added)")
            let ids = try await server.record(ana.accessToken)["photos"]?.arrayValue?.compactMap { $0["id"]?.intValue } ?? []
            #expect(ids.count == 3 && ids[0...1] == [5001, 5002] && ids[2] >= ElementIDs.first)
            #expect(try await server.record(tomasz.accessToken)["primaryAddress"]?["city"] == "Kraków")

            let newcomer = try await server.register(ServerFixtures.registration(email: "new.person@example.com", displayName: "new_person"))
            #expect((try await server.record(newcomer.result.accessToken)["id"]?.intValue ?? 0) > 105)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
