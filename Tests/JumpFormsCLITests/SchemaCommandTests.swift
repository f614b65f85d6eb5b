import CLITestSupport
import Foundation
import JumpFormsLoader
import Testing
import TestSupport

/// `jump-forms schema`: the files it writes are the ones the repository keeps in
/// `schemas/json/` (RECORD_SNAPSHOTS=1 re-records them from the command's output).
@Suite struct SchemaCommandTests {
    @Test func writesTheFourSchemasTheRepositoryKeeps() async throws {
        let folder = try TemporaryFolder("jump-forms-schema")
        defer { folder.remove() }
        let out = folder.path + "/editor/schemas"
        let result = try await InProcess.run(["schema", "--out", out])
        #expect(result.status == 0, "\(result.stderr)")
        let names = ["flow.schema.json", "locale.schema.json", "jump.schema.json", "identities.schema.json"]
        #expect(FormatSchema.allCases.map(\.fileName) == names)
        for name in names {
            let written = try String(contentsOfFile: out + "/" + name, encoding: .utf8)
            #expect(result.stdout.contains("wrote \(out)/\(name)"))
            #expect(written.hasPrefix("{\n  \"$schema\": \"https://json-schema.org/draft/2020-12/schema\""))
            Snapshot.check(written, against: Repository.path("schemas/json/\(name)"))
        }
    }

    @Test func kindPrintsOneSchema() async throws {
        let result = try await InProcess.run(["schema", "--kind", "jump"])
        #expect(result.status == 0)
        #expect(result.stdout == FormatSchema.jump.text)
        #expect(result.stdout.contains("\"maximumConnections\""))
    }

    @Test func needsOutOrKind() async throws {
        let none = try await InProcess.run(["schema"])
        #expect(none.status == 2)
        #expect(none.stderr.contains("--out DIR"))
        let both = try await InProcess.run(["schema", "--out", "x", "--kind", "flow"])
        #expect(both.status == 2)
        let unknown = try await InProcess.run(["schema", "--kind", "flows"])
        #expect(unknown.status == 2)
    }

    @Test func anUnwritableFolderIsAnError() async throws {
        let folder = try TemporaryFolder("jump-forms-schema")
        defer { folder.remove() }
        let file = try folder.write("file", "not a folder")
        let result = try await InProcess.run(["schema", "--out", file + "/schemas"])
        #expect(result.status == 2)
        #expect(result.stderr.contains("Error:"))
    }
}
