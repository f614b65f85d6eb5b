import Foundation
import JumpSchema
import Testing
import TestSupport

/// The generated code compiles (Swift 6 language mode, warnings as errors), decodes a Capture
/// record and encodes it back: compiled with the toolchain's `swiftc` and run.
@Suite struct CompileTests {
    /// Writes the generated files and `main.swift` into a fresh folder, compiles them into a
    /// program and runs it with `arguments`.
    static func compileAndRun(_ files: [GeneratedFile], main: String, arguments: [String]) async throws -> ProgramRun {
        let swiftc = try #require(Toolchain.swiftc, "no swiftc: set SWIFT_EXEC or put the toolchain on the PATH")
        let folder = try TemporaryFolder("jump-schema-compile")
        defer { folder.remove() }
        var sources: [String] = []
        for file in files + [GeneratedFile(name: "main.swift", contents: main)] {
            sources.append(try folder.write(file.name, file.contents))
        }
        let compile = try await ProgramRun(
            swiftc,
            [
                "-swift-version", "6", "-warnings-as-errors", "-module-name", "Model",
                "-module-cache-path", folder.path + "/module-cache"
            ]
                + sources + ["-o", folder.path + "/model"], in: folder.path)
        try #require(compile.status == 0, "the generated code does not compile:\n\(compile.stderr)")
        return try await ProgramRun(folder.path + "/model", arguments, in: folder.path)
    }

    static let roundTrip = """
        import Foundation

        /// Decodes the record named on the command line, encodes it again and prints it.
        func roundTrip<Record: Codable & Equatable>(_ type: Record.Type) throws -> Record {
            let input = FileManager.default.contents(atPath: CommandLine.arguments[1])!
            let record = try JSONDecoder().decode(Record.self, from: input)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let output = try encoder.encode(record)
            let again = try JSONDecoder().decode(Record.self, from: output)
            precondition(again == record, "decoding the encoded record changed it")
            print(String(decoding: output, as: UTF8.self))
            return record
        }

        func show<Value: Encodable>(_ value: Value) throws -> String {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            return String(decoding: try encoder.encode(value), as: UTF8.self)
        }

        """

    @Test func theDefaultModelDecodesAndEncodesARecord() async throws {
        let files = try GeneratorTests.defaultGenerator().files()
        let main =
            Self.roundTrip + """
                let record = try roundTrip(User.self)
                // Typed values: dates, instants, a string plural, an element's read-only id.
                print(record.birthday!.year, record.lastLogin!, record.statuses!, record.photos![0].id!, record.profiles![0].followers!)
                print(record.created!.date.timeIntervalSince1970, CaptureDateTime(Date(timeIntervalSince1970: 0)))
                // A record made in code: what the server sets starts empty; nil is sent as null.
                var made = User(email: "new@example.com", birthday: CaptureDate("2000-02-29"), statuses: ["new"])
                made.primaryAddress = User.PrimaryAddress(city: "Kraków")
                made.photos = [User.PhotosElement(type: "small", value: "b.png")]
                print(try show(made))
                print(CaptureDate("2023-02-29") == nil, CaptureDateTime("2024-01-15 10:00:00 +0100")!)
                print(User.writableAttributePaths.contains("/primaryAddress/city"), User.writableAttributePaths.contains("/email"))
                """
        let run = try await Self.compileAndRun(files, main: main, arguments: [Fixtures.path("records/default-record.json")])
        #expect(run.status == 0, "\(run.stderr)")
        Snapshot.check(run.stdout, against: Fixtures.path("golden/default/round-trip.txt"))
    }

    @Test func theHostileModelDecodesAndEncodesARecord() async throws {
        let files = try GeneratorTests.hostileGenerator().files()
        let main =
            Self.roundTrip + """
                let record = try roundTrip(HUser.self)
                // Keywords and renamed attributes are usable as properties.
                print(record.default!, record.class!, record.protocol!, record.`init`!, record.`in`!, record.type!, record._2fa!,
                      record.selfValue!, record.selfValue2!, record.selfValue3!, record.firstName!, record.firstName2!, record.firstName3!,
                      record.attribute!, record.quoteAndBackslash!, record.moji!, separator: "|")
                // Exact decimals, any JSON, instants before 1970, deep nesting.
                print(record.amount!, record.blob!, record.seen!, record.seen!.microsecondsSince1970)
                print(record.level1!.level2![0].level3!.level4![0].tags!, record.level1!.level2![0].level3!.level4![0].default!.level5![0].id!)
                print(try show(HUser.StringObject(string: "x")), try show(HUser.Empty()), try show(HUser.EmptyPluralElement()))
                """
        let run = try await Self.compileAndRun(files, main: main, arguments: [Fixtures.path("records/hostile-record.json")])
        #expect(run.status == 0, "\(run.stderr)")
        Snapshot.check(run.stdout, against: Fixtures.path("golden/hostile/round-trip.txt"))
    }

    @Test func attributesTheServerSetsAreReadOnly() async throws {
        let swiftc = try #require(Toolchain.swiftc, "no swiftc: set SWIFT_EXEC or put the toolchain on the PATH")
        let folder = try TemporaryFolder("jump-schema-readonly")
        defer { folder.remove() }
        var sources: [String] = []
        for file in try GeneratorTests.defaultGenerator().files() {
            sources.append(try folder.write(file.name, file.contents))
        }
        // A separate module: `private(set)` is what keeps an app from setting them.
        let cache = ["-module-cache-path", folder.path + "/module-cache"]
        let compileModel = try await ProgramRun(
            swiftc,
            [
                "-swift-version", "6", "-parse-as-library", "-emit-module", "-module-name", "Model",
                "-emit-module-path", folder.path + "/Model.swiftmodule"
            ] + cache + sources, in: folder.path)
        try #require(compileModel.status == 0, "\(compileModel.stderr)")
        let app = try folder.write(
            "app.swift",
            """
            import Model
            var user = User()
            user.email = "ana@example.com"
            user.id = 5
            user.photos = [User.PhotosElement(type: "large")]
            user.photos![0].id = 1
            """)
        let typecheck = try await ProgramRun(swiftc, ["-swift-version", "6", "-typecheck", "-I", folder.path] + cache + [app], in: folder.path)
        #expect(typecheck.status != 0)
        #expect(typecheck.stderr.contains("app.swift:4:6: error: cannot assign to property: 'id' setter is inaccessible"), "\(typecheck.stderr)")
        #expect(typecheck.stderr.contains("app.swift:6:17: error: cannot assign to property: 'id' setter is inaccessible"), "\(typecheck.stderr)")
        #expect(!typecheck.stderr.contains("app.swift:3:"), "writable attributes stay writable")
    }
}
