import Foundation
import JumpCapture
import JumpCaptureNIO
@testable import JumpCaptureServer
import JumpForms
import Synchronization
import Testing
import TestSupport

/// `jump-forms users export` against a real server on 127.0.0.1: every record once, as the
/// owner's `/entity.find` shows it (plurals with their ids, password objects, timestamps),
/// resumed after a cut, and a 510 tried again.
@Suite(.timeLimit(.minutes(5))) struct UsersExportTests {
    /// A server on a socket whose clock is the real one (the CLI signs with the real time),
    /// with `count` records of the default schema, some with photos and passwords.
    static func withRecords<T: Sendable>(
        _ count: Int, configure: @escaping (inout ClientConfig) -> Void = EntityAPITests.configure, _ body: (TestServer) async throws -> T
    ) async throws -> T {
        try await withServer(.socket, configure: configure, schema: SchemaRecordTests.defaultSchema) { server in
            server.clock.advance(RefreshSignature.now - server.clock.now)
            let owner = EntityAPIClient(
                server: server.url, clientID: "owner-client", clientSecret: EntityAPITests.ownerSecret, transport: server.transport,
                clock: { server.clock.now })
            var records: [JSONValue] = []
            for index in 0..<count {
                var entries: [(key: String, value: JSONValue)] = [
                    ("email", .string("e\(index)@example.com")), ("displayName", .string("ü\(index) \"q\""))
                ]
                if index % 3 == 0 {
                    entries.append(("photos", [["type": "avatar", "value": .string("\(index).png")], ["type": "banner", "value": "b.png"]]))
                }
                if index % 4 == 0 { entries.append(("password", ["type": "password-md5", "value": "5f4dcc3b5aa765d61d8327deb882cf99"])) }
                records.append(.object(entries))
            }
            var offset = 0
            while offset < records.count {
                let slice = Array(records[offset..<min(offset + 200, records.count)])
                _ = try await owner.call(
                    "/entity.bulkCreate", [("type_name", "user"), ("all_attributes", JSONValue.array(slice).serialized()), ("commit_each", "true")])
                offset += 200
                server.clock.advance(1)
            }
            // A linked identity: the record's `profiles`.
            let store = server.server.service.store
            let first = try #require(try await store.findUsers(EntityQuery(limit: 1)).first)
            try await store.link(
                userID: first.id,
                identity: StoredIdentity(provider: "google", identifier: "https://www.google.com/profiles/1001", verifiedEmail: nil),
                consuming: [], now: server.clock.now)
            return try await body(server)
        }
    }

    /// Every record as the owner's find shows it, one serialized line each, by id.
    static func expectedLines(_ server: TestServer) async throws -> [String] {
        let service = server.server.service
        let users = try await service.store.findUsers(EntityQuery(limit: 10_000))
        return try await service.entityRecords(users, owner: true, attributes: nil).map { $0.serialized() }
    }

    static func export(_ server: TestServer, out: String, _ extra: [String] = [], environment: [String: String]? = nil) async throws -> CommandResult
    {
        try await Executable.run(
            "jump-forms",
            [
                "users", "export", "--from", server.url.description, "--client-id", "owner-client", "--client-secret-env", "OWNER_SECRET", "--out",
                out,
                "--page-size", "37"
            ] + extra,
            environment: environment ?? ["OWNER_SECRET": EntityAPITests.ownerSecret, "NO_COLOR": "1"], timeout: 60)
    }

    @Test func exportsEveryRecordAndResumes() async throws {
        try await Self.withRecords(250) { server in
            let folder = try TemporaryFolder("users-export")
            defer { folder.remove() }
            let expected = try await Self.expectedLines(server)
            #expect(expected.count == 250)
            #expect(expected.contains { $0.contains(#""password":{"type":"password-md5""#) })
            let withPhotos = try #require(expected.first { $0.contains(#""photos":[{"#) })
            #expect(withPhotos.contains(#""id":2147483648"#) || withPhotos.contains(#""id":21474836"#), "\(withPhotos)")

            let out = folder.path + "/users.jsonl"
            let first = try await Self.export(server, out: out)
            #expect(first.status == 0, "\(first.stderr)")
            #expect(!first.stderr.contains(EntityAPITests.ownerSecret) && !first.stdout.contains(EntityAPITests.ownerSecret))
            // Not a terminal: no progress line, just the summary.
            #expect(first.stderr == "exported 250 records to \(out)\n")
            #expect(first.stdout.isEmpty)
            #expect(expected.first?.contains(#""profiles":[{"identifier":"https://www.google.com/profiles/1001""#) == true)
            let text = try String(contentsOfFile: out, encoding: .utf8)
            #expect(text.split(separator: "\n").map(String.init) == expected)

            // Without --resume an existing file is left alone.
            let again = try await Self.export(server, out: out)
            #expect(again.status == 2)
            #expect(again.stderr.contains("--resume"), "\(again.stderr)")

            // Cut in the middle of line 101: --resume drops the half line and continues after id of line 100.
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            let cut = lines.prefix(100).joined(separator: "\n") + "\n" + lines[100].prefix(20)
            try cut.write(toFile: out, atomically: false, encoding: .utf8)
            let resumed = try await Self.export(server, out: out, ["--resume"])
            #expect(resumed.status == 0, "\(resumed.stderr)")
            #expect(resumed.stderr.contains("exported 150 records"), "\(resumed.stderr)")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == text)

            // A resumed export that is complete asks for nothing more. (Another filter: the
            // server accepts a signed request once a second, and the run before asked the same.)
            let done = try await Self.export(server, out: out, ["--resume", "--filter", "id > 0"])
            #expect(done.status == 0, "\(done.stderr)")
            #expect(try String(contentsOfFile: out, encoding: .utf8) == text)

            let missing = try await Self.export(server, out: folder.path + "/other.jsonl", environment: ["NO_COLOR": "1"])
            #expect(missing.status == 2)
            #expect(missing.stderr.contains("OWNER_SECRET"))
        }
    }

    /// On a terminal, a progress line: the bar, the count of the total, the rate; the secret
    /// nowhere on the screen.
    @Test func showsProgressOnATerminal() async throws {
        try await Self.withRecords(120) { server in
            let folder = try TemporaryFolder("users-export-tty")
            defer { folder.remove() }
            let command =
                "\(Executable.productsFolder)/jump-forms users export --from \(server.url) --client-id owner-client "
                + "--client-secret-env OWNER_SECRET --out \(folder.path)/u.jsonl --page-size 50; echo EXIT=$?"
            let terminal = try TmuxSession(command, in: folder.path, environment: ["OWNER_SECRET": EntityAPITests.ownerSecret, "NO_COLOR": "1"])
            defer { terminal.close() }
            let screen = try terminal.waitFor("EXIT=0")
            #expect(screen.contains("[" + String(repeating: "#", count: 30) + "] 100%"), "\(screen)")
            #expect(screen.contains("] 100% 120 of 120 records  "), "\(screen)")
            #expect(screen.contains("/s"), "\(screen)")
            #expect(screen.contains("exported 120 records"), "\(screen)")
            #expect(!screen.contains(EntityAPITests.ownerSecret))
        }
    }

    /// Refused with 510 (the server's throttle on the client's address): the export waits (an
    /// injected sleep that moves the server's clock) and tries again, losing nothing.
    @Test func retriesA510() async throws {
        let configure: (inout ClientConfig) -> Void = { config in
            EntityAPITests.configure(&config)
            config.server.clientFailureLimit = 1
        }
        try await Self.withRecords(40, configure: configure) { server in
            let wrong = EntityAPIClient(
                server: server.url, clientID: "owner-client", clientSecret: "wrong", transport: server.transport, clock: { server.clock.now })
            for attempt in 0..<3 { _ = try? await wrong.call("/entity.count", [("type_name", "user"), ("n", "\(attempt)")]) }
            let client = EntityAPIClient(
                server: server.url, clientID: "owner-client", clientSecret: EntityAPITests.ownerSecret, transport: server.transport,
                clock: { server.clock.now })
            let slept = Mutex<[Duration]>([])
            let export = UserExport(
                client: client, options: UserExport.Options(pageSize: 15), retry: UserExport.RetryPolicy(attempts: 5),
                sleep: { delay in
                    slept.withLock { $0.append(delay) }
                    server.clock.advance(3600)
                })
            let lines = Mutex<[UInt8]>([])
            let retries = Mutex(0)
            let result = try await export.run(
                after: nil, write: { bytes in lines.withLock { $0 += bytes } },
                progress: { progress in if progress.retrying != nil { retries.withLock { $0 += 1 } } })
            #expect(result.written == 40)
            #expect(slept.withLock { $0 } == [.seconds(1)])
            #expect(retries.withLock { $0 } == 1)
            let expected = try await Self.expectedLines(server)
            #expect(String(decoding: lines.withLock { $0 }, as: UTF8.self) == expected.joined(separator: "\n") + "\n")
        }
    }

    /// The resume point of a file's tail: a cut line is dropped; a tail without a whole line
    /// asks for more; a last line that is no record is an error.
    @Test func resumePoints() throws {
        let file = Array("{\"id\":1}\n{\"id\":22}\n{\"id\":3".utf8)
        let point = try UserExport.resumePoint(tail: file, offset: 0)
        #expect(point?.keep == 19)
        #expect(point?.lastID == 22)
        #expect(try UserExport.resumePoint(tail: Array(file.suffix(8)), offset: file.count - 8) == nil)
        #expect(try UserExport.resumePoint(tail: [], offset: 0)?.keep == 0)
        #expect(throws: UserExportError.lastLineNotARecord) { try UserExport.resumePoint(tail: Array("hello\n".utf8), offset: 0) }
        #expect(UserExport.pageFilter("email = 'a' or id < 3", after: 10) == "(email = 'a' or id < 3) and id > 10")
        #expect(UserExport.pageFilter(nil, after: nil) == nil)
        #expect(UserExport.RetryPolicy().delay(after: 1) == .seconds(1))
        #expect(UserExport.RetryPolicy().delay(after: 4) == .seconds(8))
        #expect(UserExport.RetryPolicy().delay(after: 12) == .seconds(60))
    }
}
