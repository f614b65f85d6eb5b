import CLITestSupport
import Foundation
import JumpForms
import Testing
import TestSupport

/// `jump-forms users import` as typed: refusals on standard error (golden), the summary on
/// standard output, exit status 1 when a record was refused, the report file, standard input.
@Suite(.timeLimit(.minutes(5))) struct UsersImportCommandTests {
    static let mixed = Repository.path("Tests/JumpCaptureServerTests/Fixtures/import/mixed.jsonl")

    static func arguments(_ file: String, db: String, _ more: [String] = []) -> [String] {
        ["users", "import", file, "--config", "jump.yaml", "--schema", "schemas/default-schema.json", "--db", db] + more
    }

    @Test func namesTheRefusedRecordsAndCountsThePasswords() async throws {
        let folder = try TemporaryFolder("jump-users-import")
        defer { folder.remove() }
        let report = folder.path + "/report.jsonl"
        // A dry run first: the same refusals, nothing written.
        let dry = try await InProcess.run(Self.arguments(Self.mixed, db: folder.path + "/capture.sqlite", ["--dry-run"]))
        #expect(dry.status == 1)
        #expect(dry.stdout.hasPrefix("dry run (nothing was written): would import 3, updated 0, skipped 0, refused 3 of 6 records\n"))
        let result = try await InProcess.run(Self.arguments(Self.mixed, db: folder.path + "/capture.sqlite", ["--report", report]))
        #expect(result.status == 1)
        #expect(dry.stderr == result.stderr)
        Snapshot.check(
            "$ jump-forms users import mixed.jsonl\n--- stderr\n" + result.stderr.replacingOccurrences(of: Self.mixed, with: "mixed.jsonl")
                + "--- stdout\n" + result.stdout,
            against: Repository.path("Tests/JumpFormsCLITests/Golden/users-import.txt"))
        let lines = try String(contentsOfFile: report, encoding: .utf8).split(separator: "\n").map { try JSONValue.parse(String($0)) }
        #expect(lines.map { $0["outcome"]?.stringValue } == ["imported", "imported", "refused", "refused", "imported", "refused"])
        #expect(lines[3]["attribute"] == "/email")
        #expect(!(try String(contentsOfFile: report, encoding: .utf8)).contains("$2a$"))

        // Again, as JSON: nothing new, every record skipped or refused.
        let again = try await InProcess.run(Self.arguments(Self.mixed, db: folder.path + "/capture.sqlite", ["--format", "json"]))
        let summary = try JSONValue.parse(again.stdout)
        #expect(summary["imported"] == 0 && summary["skipped"] == 3 && summary["refused"] == 3)
    }

    /// `-` reads standard input; a clean file exits 0.
    @Test func readsStandardInput() async throws {
        let folder = try TemporaryFolder("jump-users-import")
        defer { folder.remove() }
        let input =
            #"{"id": 7, "uuid": "0b5e1d3c-5b2a-4c1e-9a57-3f1e2d4c5b6a", "email": "ana@example.com", "password": {"type": "password-md5", "value": "2f23fa3579f3f75175793649115c1b25"}}"#
            + "\n"
        let result = try await InProcess.run(Self.arguments("-", db: folder.path + "/capture.sqlite"), in: Repository.root, input: input)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "imported 1, updated 0, skipped 0, refused 0 of 1 records\npasswords: password-md5 1\n")
    }

    /// On a terminal a progress line shows the records done (standard input here: the test
    /// holds the rest of the file back until the line is there), and is erased before the
    /// summary.
    @Test func showsProgressOnATerminal() throws {
        let folder = try TemporaryFolder("jump-users-import")
        defer { folder.remove() }
        let fifo = folder.path + "/records"
        #expect(mkfifo(fifo, 0o600) == 0)
        let command =
            Executable.productsFolder + "/jump-forms users import - --config jump.yaml --schema schemas/default-schema.json --db "
            + folder.path + "/capture.sqlite < " + fifo
        let terminal = try TmuxSession(command, in: Repository.root, environment: ["TERM": "xterm-256color"])
        defer { terminal.close() }
        let writer = try #require(FileHandle(forWritingAtPath: fifo))
        func records(_ range: ClosedRange<Int>) -> Data {
            Data(range.map { #"{"id": \#($0), "email": "user\#($0)@example.com", "displayName": "user_\#($0)"}"# + "\n" }.joined().utf8)
        }
        writer.write(records(1...1500))
        let screen = try terminal.waitFor("1,000 records")
        #expect(screen.contains("/s"), "\(screen)")
        writer.write(records(1501...2000))
        try writer.close()
        let done = try terminal.waitFor("EXIT=")
        #expect(done.contains("imported 2000, updated 0, skipped 0, refused 0 of 2000 records"), "\(done)")
        #expect(done.contains("EXIT=0"))
        #expect(!done.contains("records  "), "the progress line is erased: \(done)")
    }
}
