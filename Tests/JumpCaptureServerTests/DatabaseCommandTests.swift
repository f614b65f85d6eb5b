import Foundation
import JumpForms
@testable import JumpCaptureServer
import Testing
import TestSupport

/// `jump-forms db migrate` (and `reset --database`): the built binary on a SQLite file and on
/// a PostgreSQL database.
@Suite(.timeLimit(.minutes(5))) struct DatabaseCommandTests {
    static var identifiers: [String] { CaptureStore.migrations.map(\.identifier) }

    @Test func migrateAppliesWhatIsMissingAndSaysWhich() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        let path = project.path + "/data/capture.sqlite"
        let first = try await project.run(["db", "migrate", "--db", "data/capture.sqlite", "--format", "json"])
        #expect(first.status == 0, "\(first.stderr)")
        let report = try JSONValue.parse(first.stdout)
        #expect(report["applied"] == .array(Self.identifiers.map(JSONValue.string)))
        #expect(report["version"] == .integer(ServerSchema.version))
        #expect(report["database"] == "data/capture.sqlite")
        // Private, as serve makes it.
        #expect(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int == 0o600)
        let again = try await project.run(["db", "migrate", "--db", "data/capture.sqlite"])
        #expect(again.status == 0 && again.stderr.isEmpty, "\(again.stderr)")
        #expect(again.stdout == "the database data/capture.sqlite is up to date (schema version \(ServerSchema.version))\n")
    }

    @Test func migrateRefusesANewerSchemaNamingBothVersions() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        let path = project.path + "/capture.sqlite"
        let store = try CaptureStore(path: path)
        try await store.execute("INSERT INTO schema_migrations (identifier) VALUES ('99-from-the-future')")
        await store.database.shutdown()
        let refused = try await project.run(["db", "migrate", "--db", path])
        #expect(refused.status == 1)
        #expect(refused.stdout.isEmpty)
        #expect(refused.stderr.contains("version 99") && refused.stderr.contains("version \(ServerSchema.version)"), "\(refused.stderr)")
    }

    @Test(.enabled(if: PostgresCluster.isAvailable, "PostgreSQL is not installed (apt-get install postgresql): this test needs it"))
    func migrateAndResetAPostgreSQLDatabase() async throws {
        let project = try ServeProject()
        defer { project.remove() }
        let url = try PostgresCluster.shared().makeDatabase()
        let migrated = try await project.run(["db", "migrate", "--format", "json"], environment: ["JUMP_DATABASE_URL": url])
        #expect(migrated.status == 0, "\(migrated.stderr)")
        #expect(try JSONValue.parse(migrated.stdout)["applied"] == .array(Self.identifiers.map(JSONValue.string)))
        let current = try await project.run(["db", "migrate", "--database", url])
        #expect(current.stdout.hasSuffix("is up to date (schema version \(ServerSchema.version))\n"), "\(current.stdout)")
        // reset drops the tables; the next migrate makes them again.
        let reset = try await project.run(["reset", "--database", url, "--yes"])
        #expect(reset.status == 0, "\(reset.stderr)")
        #expect(reset.stdout.contains("dropped the server's tables in postgres://postgres@127.0.0.1"), "\(reset.stdout)")
        let remade = try await project.run(["db", "migrate", "--database", url, "--format", "json"])
        #expect(try JSONValue.parse(remade.stdout)["applied"] == .array(Self.identifiers.map(JSONValue.string)))
        // An unreachable server: one line naming host and port, exit 1.
        let down = try await project.run(["db", "migrate", "--database", "postgres://postgres@127.0.0.1:1/none?sslmode=disable"])
        #expect(down.status == 1)
        #expect(down.stderr.hasPrefix("cannot reach the database at 127.0.0.1:1 "), "\(down.stderr)")
        #expect(down.stderr.split(separator: "\n").count == 1, "\(down.stderr)")
    }
}
