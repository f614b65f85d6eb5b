import Foundation
import JumpCapture
import JumpForms
import JumpFormsLoader
import JumpSchema
import Testing
import TestSupport

/// Schemas at their edges: names that would clash with files or Foundation types, `null`
/// where a key is optional, a byte order mark, access-schema paths that make nothing
/// writable, plurals of one string, and hints for what no form can set.
@Suite struct SchemaEdgeCaseTests {
    static func schema(_ json: String, path: String = "schema.json") throws -> EntitySchema {
        let loaded = SchemaLoader.schema(bytes: Array(json.utf8), path: path)
        guard let schema = loaded.value, loaded.diagnostics.isEmpty else {
            throw Fixtures.FixtureError(message: DiagnosticRenderer(sources: loaded.sources).render(loaded.diagnostics))
        }
        return schema
    }

    // MARK: generated files

    @Test(arguments: [("", "captureSupport"), ("JR", "captureSupport"), ("", "CAPTURESUPPORT")])
    func aRootTypeNamedLikeTheSupportFileIsRenamed(_ prefix: String, _ name: String) throws {
        let schema = try Self.schema(#"{"name": "\#(name)", "attr_defs": [{"name": "email", "type": "string"}]}"#)
        let generator = ModelGenerator(schema: schema, typePrefix: prefix)
        let files = generator.files()
        let names = files.map { $0.name.lowercased() }
        #expect(Set(names).count == names.count, "two files share a name: \(files.map(\.name))")
        #expect(generator.rootTypeName.hasSuffix("Object"))
        #expect(files[1].name == prefix + "CaptureSupport.swift")
    }

    @Test func twoFilesOfOneNameAreRefusedBeforeAnythingIsWritten() throws {
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let files = [GeneratedFile(name: "CaptureSupport.swift", contents: "model"), GeneratedFile(name: "CaptureSupport.swift", contents: "support")]
        #expect(throws: OutputError.self) { try OutputFolder.write(files, to: folder.path + "/out") }
        #expect(!FileExists.at(folder.path + "/out/CaptureSupport.swift"))
    }

    @Test func nestedTypesNamedLikeFoundationTypesAreRenamed() throws {
        let names = ["date", "data", "URL", "UUID", "JSONEncoder", "JSONDecoder", "decimal", "unicode"]
        let attributes = names.map { #"{"name": "\#($0)", "type": "object", "attr_defs": [{"name": "value", "type": "string"}]}"# }
        let schema = try Self.schema("[" + attributes.joined(separator: ", ") + "]")
        let model = ModelGenerator(schema: schema).files()[0].contents
        for type in ["Date", "Data", "URL", "UUID", "JSONEncoder", "JSONDecoder", "Decimal", "Unicode"] {
            #expect(model.contains("public struct \(type)Object: Codable, Sendable, Equatable {"), "\(type)")
            #expect(!model.contains("public struct \(type): "), "\(type) hides Foundation's")
        }
        // A root type of such a name, too.
        #expect(ModelGenerator(schema: try Self.schema(#"{"name": "date", "attr_defs": []}"#)).rootTypeName == "DateObject")
    }

    // MARK: reading

    @Test func nullAttributeDefinitionsOnAValueMeanNotGiven() throws {
        let schema = try Self.schema(#"[{"name": "email", "type": "string", "attr_defs": null, "length": null}]"#)
        #expect(schema.attribute(at: "/email")?.attributes.isEmpty == true)
        // On an object, null is a missing list: reported as missing, not as a wrong kind.
        let loaded = SchemaLoader.schema(bytes: Array(#"[{"name": "name", "type": "object", "attr_defs": null}]"#.utf8), path: "schema.json")
        #expect(loaded.diagnostics.map(\.code) == [.schemaMissingKey])
    }

    @Test func aByteOrderMarkIsSkipped() throws {
        let bytes: [UInt8] = [0xEF, 0xBB, 0xBF] + Array(#"[{"name": "email", "type": "string"}]"#.utf8)
        let loaded = SchemaLoader.schema(bytes: bytes, path: "schema.json")
        #expect(loaded.diagnostics.isEmpty, "\(loaded.diagnostics)")
        #expect(loaded.value?.attribute(at: "/email") != nil)
        // Other characters that cannot start JSON are named by their code point, not as Latin-1 bytes.
        let stray = SchemaLoader.schema(bytes: Array("é[]".utf8), path: "schema.json")
        #expect(stray.diagnostics.first?.message == "not valid JSON: unexpected character 'é' (U+00E9)")
        let invisible = SchemaLoader.schema(bytes: [0xE2, 0x80, 0x8B] + Array("[]".utf8), path: "schema.json")
        #expect(invisible.diagnostics.first?.message == "not valid JSON: unexpected character U+200B")
    }

    // MARK: plurals of strings

    @Test func aPluralOfOnlyAStringIdIsNotAListOfStrings() throws {
        let schema = try Self.schema(#"[{"name": "tags", "type": "plural", "attr_defs": [{"name": "id", "type": "string"}]}]"#)
        let tags = try #require(schema.attribute(at: "/tags"))
        #expect(tags.stringPluralElement == nil)
        #expect(schema.attribute(at: "/tags/id")?.isReadOnly == true, "an element's id is the server's")
        let model = ModelGenerator(schema: schema).files()[0].contents
        #expect(model.contains("public var tags: [TagsElement]?"))
        #expect(!model.contains("[String]"))
    }

    @Test func aPluralOfOneStringAndAPasswordIsAListOfStrings() throws {
        let schema = try Self.schema(
            #"""
            [{"name": "codes", "type": "plural", "attr_defs": [{"name": "code", "type": "string"}, {"name": "pin", "type": "password-bcrypt"}]}]
            """#)
        #expect(schema.attribute(at: "/codes")?.stringPluralElement?.name.value == "code")
        let model = ModelGenerator(schema: schema).files()[0].contents
        #expect(model.contains("public var codes: [String]?"))
        #expect(!model.contains("pin"), "a password is never in the model")
    }

    // MARK: access schema

    @Test func accessPathsThatMakeNothingWritableAreReported() throws {
        let schema = try Fixtures.defaultSchema
        let json = #"["/displayName", "/photos/value", "/id", "/password", "/profiles/followers/identifier", "/photos/id"]"#
        let loaded = SchemaLoader.accessSchema(bytes: Array(json.utf8), path: "access.json", schema: schema)
        let access = try #require(loaded.value, "warnings leave the access schema usable")
        #expect(access.paths.map(\.value) == ["/displayName"])
        #expect(loaded.diagnostics.allSatisfy { $0.code == .accessPathIgnored && $0.severity == .warning })
        #expect(
            loaded.diagnostics.map(\.message) == [
                "the access schema's '/photos/value' is left out: it is inside the plural '/photos', which is written whole (entity.replace)",
                "the access schema's '/id' is left out: the server sets it; no access token writes it",
                "the access schema's '/password' is left out: a password attribute is written through the forms and is not part of the model",
                """
                the access schema's '/profiles/followers/identifier' is left out: it is inside the plural '/profiles', which is written whole \
                (entity.replace)
                """,
                "the access schema's '/photos/id' is left out: it is inside the plural '/photos', which is written whole (entity.replace)"
            ])
        #expect(loaded.diagnostics.first?.hint == "list '/photos' to make the plural writable")
        #expect(loaded.diagnostics.first?.location?.column == 18)
        // The generated documentation agrees: the plural is not writable, nothing inside it is listed.
        let generator = ModelGenerator(schema: schema, accessSchema: access)
        #expect(generator.writableAttributePaths == ["/displayName"])
    }

    // MARK: lint

    @Test func requiredAttributesNoFieldCanWriteGetAPossibleHint() throws {
        let project = ProjectLoader().load(paths: [Fixtures.path("lint/flow.yaml")])
        let flow = try #require(project.primaryFlow).flow
        let schema = try Self.schema(
            #"""
            [{"name": "email", "type": "string"},
             {"name": "gallery", "type": "plural", "constraints": ["required"], "attr_defs": [{"name": "value", "type": "string"}]},
             {"name": "settings", "type": "json", "constraints": ["required"]},
             {"name": "residence", "type": "object", "constraints": ["required"], "attr_defs": [{"name": "city", "type": "string"}]},
             {"name": "tags", "type": "string", "constraints": ["required"]}]
            """#)
        let hints = SchemaLinter(schema: schema, flow: flow).lint().filter { $0.code == .requiredAttributeNotSet }
            .filter { $0.message.hasPrefix("form 'registrationForm'") }.map { $0.hint ?? "" }
        #expect(
            hints == [
                "no form field can write a plural attribute: drop the constraint from the schema",
                "no form field can write a json attribute: drop the constraint from the schema",
                "add a field writing one of its attributes (such as schemaId: residence.city), or drop the constraint",
                "add a field with schemaId: tags, or drop the constraint"
            ])
    }
}

enum FileExists {
    static func at(_ path: String) -> Bool { FileManager.default.fileExists(atPath: path) }
}
