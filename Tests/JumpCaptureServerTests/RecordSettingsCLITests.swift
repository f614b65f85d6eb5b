import Foundation
import JumpCapture
import JumpCaptureNIO
import JumpForms
import Testing
import TestSupport
#if canImport(Glibc)
    import Glibc
#endif

/// `server.schema`, `serve --schema` and `server.maximumRecordSize`, through the built binary.
@Suite(.timeLimit(.minutes(5))) struct RecordSettingsCLITests {
    /// A copy of the example project with the default schema beside it and `lines` added to
    /// jump.yaml's `server:`.
    static func project(_ lines: [String] = []) throws -> ServeProject {
        let project = try ServeProject()
        try FileManager.default.createDirectory(atPath: project.path + "/schemas", withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: Repository.path("schemas/default-schema.json"), toPath: project.path + "/schemas/default-schema.json")
        let config = try String(contentsOfFile: project.path + "/jump.yaml", encoding: .utf8)
        try project.folder.write("jump.yaml", config + lines.map { "  \($0)\n" }.joined())
        return project
    }

    /// `serve --schema FILE`: the record calls follow the schema (223 for an attribute outside
    /// it); `server.schema` in jump.yaml does the same.
    @Test func serveFollowsTheSchemaItIsGiven() async throws {
        for (lines, arguments) in [([String](), ["--schema", "schemas/default-schema.json"]), (["schema: schemas/default-schema.json"], [])] {
            let project = try Self.project(lines + ["writeWithToken: [/aboutMe, /nickname]"])
            defer { project.remove() }
            let serve = try ServeProcess(["--port", "0", "--db", project.databasePath] + arguments, project: project)
            defer { serve.stop() }
            let url = try await serve.waitForURL()
            let builder = RequestBuilder(
                config: ServerFixtures.project.config!, flow: ServerFixtures.flow, localizer: ServerFixtures.localizer,
                locale: ServerFixtures.english, capture: ServerURL(url)!)
            let transport = AsyncHTTPTransport(timeoutSeconds: 20, client: ServerFixtures.client)
            let decoder = ResponseDecoder(flow: ServerFixtures.flow, config: ServerFixtures.config)
            let registered = try await transport.send(
                try builder.register(ServerFixtures.registration(), refreshSecret: .generate(), today: ServerFixtures.today))
            let token = try #require(decoder.decode(.register, status: registered.status, body: registered.body).signedIn?.accessToken)
            let answer = try await transport.send(builder.updateObject(accessToken: token, attribute: nil, value: ["nickname": "ana"]))
            let json = try JSONValue.parse(answer.body)
            #expect(json["code"] == .integer(223), "\(arguments) \(lines): \(json)")
            #expect(json["error_description"]?.stringValue?.contains("no attribute of the schema") == true, "\(json)")
            let about = try await transport.send(builder.updateObject(accessToken: token, attribute: nil, value: ["aboutMe": 5]))
            #expect(try JSONValue.parse(about.body)["code"] == .integer(341))
            serve.signal(SIGTERM)
            let exit = await serve.waitForExit()
            #expect(exit?.status == 0, "\(serve.stderr)")
        }
    }

    /// A schema that cannot be read, or is no schema, stops `serve` (exit 2) with its located
    /// diagnostics, pointing at `server.schema` in jump.yaml.
    @Test func aBadSchemaStopsTheServer() async throws {
        let missing = try Self.project()
        defer { missing.remove() }
        let noFile = try await missing.run(["serve", "--port", "0", "--db", missing.databasePath, "--schema", "nowhere.json"])
        #expect(noFile.status == 2, "\(noFile.stdout)\(noFile.stderr)")
        #expect(noFile.stderr.contains("JF100") && noFile.stderr.contains("nowhere.json"), "\(noFile.stderr)")

        let broken = try Self.project(["schema: broken-schema.json"])
        defer { broken.remove() }
        try broken.folder.write("broken-schema.json", #"[{"name": "email", "type": "strin"}]"#)
        let result = try await broken.run(["serve", "--port", "0", "--db", broken.databasePath])
        #expect(result.status == 2, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("broken-schema.json:1:"), "\(result.stderr)")
        #expect(result.stderr.contains("JF404"), "\(result.stderr)")
        #expect(result.stderr.contains("jump.yaml:"), "the place jump.yaml names the schema: \(result.stderr)")
        #expect(!result.stdout.contains("serving"))

        let range = try Self.project(["maximumRecordSize: 100"])
        defer { range.remove() }
        let refused = try await range.run(["serve", "--port", "0", "--db", range.databasePath])
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("JF217") && refused.stderr.contains("1024...3145728"), "\(refused.stderr)")
    }

    /// The account commands (embedded server) say the record limit when a write would pass it;
    /// the record stays as it was and reads back.
    @Test func theCLISaysTheRecordLimit() async throws {
        let project = try Self.project(["maximumRecordSize: 1024", "database: data/capture.sqlite"])
        defer { project.remove() }
        let answers = try project.folder.write("ana.yaml", ExampleAnswers.anaRegistration)
        let register = try await project.run(["register", "--non-interactive", "--answers", answers])
        #expect(register.status == 0, "\(register.stdout)\(register.stderr)")
        let edit = try await project.run(["edit-profile", "--non-interactive", "--set", "aboutMe=" + String(repeating: "é", count: 450)])
        #expect(edit.status == 1, "\(edit.stdout)\(edit.stderr)")
        #expect(edit.stderr.contains("limit of 1024 bytes (server.maximumRecordSize)"), "\(edit.stderr)")
        let whoami = try await project.run(["whoami", "--format", "json"])
        #expect(whoami.status == 0, "\(whoami.stderr)")
        let record = try JSONValue.parse(Array(whoami.stdout.utf8))
        #expect(record["email"] == "ana@example.com")
        #expect(record["aboutMe"] == nil)
    }
}
