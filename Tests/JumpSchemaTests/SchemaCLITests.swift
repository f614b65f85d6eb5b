import Foundation
import JumpSchema
import CLITestSupport
import Testing
import TestSupport

/// `jump-forms generate model` and `jump-forms lint --schema`, run as a user runs them.
@Suite struct SchemaCLITests {
    func run(_ arguments: [String], in directory: String = Repository.root) async throws -> CommandResult {
        try await InProcess.run(arguments, in: directory, input: nil)
    }

    @Test func generateModelWritesTheGoldenSources() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let out = folder.path + "/Sources/Model"
        let result = try await run([
            "generate", "model", "--schema", "schemas/default-schema.json",
            "--access-schema", "schemas/access-schema.json", "--out", out
        ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "wrote \(out)/User.swift\nwrote \(out)/CaptureSupport.swift\n")
        for name in ["User.swift", "CaptureSupport.swift"] {
            let written = try String(contentsOfFile: out + "/" + name, encoding: .utf8)
            #expect(
                written == (try String(contentsOfFile: Fixtures.path("golden/default/\(name)"), encoding: .utf8)),
                "\(name) differs from the golden file")
        }
    }

    @Test func generateModelWithATypePrefix() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try await run([
            "generate", "model", "--schema", Fixtures.path("schemas/hostile-schema.json"), "--type-prefix", "H",
            "--out", folder.path
        ])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try String(contentsOfFile: folder.path + "/HUser.swift", encoding: .utf8)
        #expect(written == (try String(contentsOfFile: Fixtures.path("golden/hostile/HUser.swift"), encoding: .utf8)))
    }

    @Test func aMalformedSchemaIsReportedAndNothingWritten() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let result = try await run(
            ["generate", "model", "--schema", "mistakes.json", "--out", folder.path + "/out"],
            in: Fixtures.path("malformed"))
        #expect(result.status == 1)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.contains("mistakes.json:7:36: error[JF404]: unknown type 'datetime' of attribute 'birthday'"))
        #expect(result.stderr.contains("hint: did you mean 'dateTime'?"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out"))
    }

    @Test func aMissingSchemaOrABadPrefixIsAUsageError() async throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let missing = try await run(["generate", "model", "--schema", "no/such.json", "--out", folder.path])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("error[JF100]: cannot read 'no/such.json'"))
        let prefix = try await run(["generate", "model", "--schema", "schemas/default-schema.json", "--out", folder.path, "--type-prefix", "1x"])
        #expect(prefix.status == 2)
        #expect(prefix.stderr.contains("--type-prefix '1x' is not a Swift identifier"))
        let access = try await run([
            "generate", "model", "--schema", "schemas/default-schema.json", "--out", folder.path,
            "--access-schema", Fixtures.path("malformed/access-mistakes.json")
        ])
        #expect(access.status == 1)
        #expect(access.stderr.contains("error[JF411]: the access schema names '/displayname', which is no attribute of the schema"))
    }

    @Test func lintWithTheDefaultSchemaIsCleanOnTheExamples() async throws {
        let result = try await run(["lint", "--schema", "schemas/default-schema.json"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("0 errors, 0 warnings in "))
    }

    @Test func lintWithASchemaReportsTheFlowsMistakes() async throws {
        let folder = Fixtures.path("lint")
        let text = try await run(["lint", "--schema", "schema.json", "flow.yaml"], in: folder)
        #expect(text.status == 1)
        let expected = try String(contentsOfFile: folder + "/expected.txt", encoding: .utf8)
        #expect(text.stdout == expected)
        #expect(text.stderr.hasPrefix("12 errors, 3 warnings in 3 files"))

        let json = try await run(["lint", "--schema", "schema.json", "--format", "json", "flow.yaml"], in: folder)
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let diagnostics = try #require(object["diagnostics"] as? [[String: Any]])
        #expect(diagnostics.count == 15)
        #expect(diagnostics.first { $0["code"] as? String == "JF412" }?["hint"] as? String == "did you mean 'displayName'?")

        let sarif = try await run(["lint", "--schema", "schema.json", "--format", "sarif", "flow.yaml"], in: folder)
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let runs = try #require(log["runs"] as? [[String: Any]])
        let results = try #require(runs.first?["results"] as? [[String: Any]])
        #expect(results.count == 15)
        #expect(Set(results.compactMap { $0["ruleId"] as? String }) == ["JF412", "JF413", "JF414", "JF415", "JF416", "JF417", "JF418"])
    }

    @Test func lintWithAnUnreadableSchemaExitsTwo() async throws {
        let result = try await run(["lint", "--schema", "no/such.json"])
        #expect(result.status == 2)
        #expect(result.stdout.contains("error[JF100]: cannot read 'no/such.json'"))
    }

    @Test func lintWithAMalformedSchemaReportsItAndExitsOne() async throws {
        let result = try await run(["lint", "--schema", Fixtures.path("malformed/JF400-truncated.json")])
        #expect(result.status == 1)
        #expect(result.stdout.contains("JF400-truncated.json:4:1: error[JF400]: not valid JSON: unexpected end of input: the JSON is truncated"))
    }
}
