import Foundation
import JumpForms
import JumpSchema
import Testing
import TestSupport

/// Reading schemas and access schemas: the three shapes Capture hands them out in, and every
/// mistake reported at its line and column.
@Suite struct SchemaReadingTests {
    static let malformed = "Tests/JumpSchemaTests/Fixtures/malformed"
    static let cases = ((try? FileManager.default.contentsOfDirectory(atPath: Repository.path(malformed))) ?? [])
        .filter { $0.hasSuffix(".json") && !$0.hasPrefix("access-") }.sorted()

    /// The rendered diagnostics of reading a malformed file, with the folder left out.
    static func render(_ load: (String) -> (diagnostics: [Diagnostic], sources: SourceFiles), _ name: String) -> (
        text: String, codes: Set<DiagnosticCode>
    ) {
        let folder = Repository.path(malformed)
        let (diagnostics, sources) = load(folder + "/" + name)
        let text = DiagnosticRenderer(sources: sources).render(diagnostics).replacingOccurrences(of: folder + "/", with: "")
        return (text, Set(diagnostics.map(\.code)))
    }

    static func renderSchema(_ name: String) -> (text: String, codes: Set<DiagnosticCode>) {
        render(
            { path in
                let loaded = SchemaLoader.schema(path: path)
                #expect(loaded.value == nil, "a schema with errors gives no schema")
                return (loaded.diagnostics, loaded.sources)
            }, name)
    }

    static func renderAccessSchema(_ name: String) throws -> (text: String, codes: Set<DiagnosticCode>) {
        let schema = try Fixtures.defaultSchema
        return render(
            { path in
                let loaded = SchemaLoader.accessSchema(path: path, schema: schema)
                #expect(loaded.value == nil)
                return (loaded.diagnostics, loaded.sources)
            }, name)
    }

    @Test(arguments: cases)
    func malformedSchemasGiveLocatedErrors(_ name: String) {
        let (text, codes) = Self.renderSchema(name)
        #expect(!text.isEmpty)
        Snapshot.check(text, against: Repository.path("\(Self.malformed)/\(name.dropLast(5)).expected"))
        // A case named after a code must produce it.
        if let code = name.split(separator: "-").first.flatMap({ DiagnosticCode(rawValue: String($0)) }) {
            #expect(codes.contains(code), "\(name) does not produce \(code.rawValue)")
        }
    }

    @Test func oneFileWithManyMistakesReportsThemAll() {
        let (_, codes) = Self.renderSchema("mistakes.json")
        #expect(
            codes == [
                .schemaMissingKey, .unknownAttributeType, .keyDoesNotFitAttributeType, .schemaUnknownKey, .schemaWrongKind,
                .unknownConstraint, .invalidAttributeName, .duplicateAttribute, .duplicateSchemaKey
            ])
    }

    @Test func accessSchemaPathsMustNameAttributes() throws {
        let (text, codes) = try Self.renderAccessSchema("access-mistakes.json")
        Snapshot.check(text, against: Repository.path("\(Self.malformed)/access-mistakes.expected"))
        #expect(codes == [.unknownAccessPath, .schemaWrongKind, .accessPathIgnored])
        #expect(text.contains("hint: did you mean '/displayName'?"))
    }

    @Test func theThreeShapesOfASchemaReadAlike() throws {
        let list =
            #"[{"name": "email", "type": "string", "length": 256}, {"name": "optIn", "type": "object", "attr_defs": [{"name": "status", "type": "boolean"}]}]"#
        let shapes = [list, #"{"name": "user", "attr_defs": \#(list)}"#, #"{"stat": "ok", "schema": {"name": "user", "attr_defs": \#(list)}}"#]
        var read: [EntitySchema] = []
        for shape in shapes {
            let loaded = SchemaLoader.schema(bytes: Array(shape.utf8), path: "schema.json")
            #expect(loaded.diagnostics.isEmpty)
            read.append(try #require(loaded.value))
        }
        #expect(read[0].name == nil && read[1].name == "user" && read[2].name == "user")
        let summaries = read.map { $0.allAttributes.map { "\($0.path) \($0.type.value.name) \($0.length.map(String.init) ?? "-")" } }
        #expect(summaries[0] == ["/email string 256", "/optIn object -", "/optIn/status boolean -"])
        #expect(summaries[1] == summaries[0] && summaries[2] == summaries[0])
    }

    @Test func theDefaultSchemaReadsCleanly() throws {
        let schema = try Fixtures.defaultSchema
        #expect(schema.name == "user")
        #expect(schema.attribute(at: "/primaryAddress/city")?.type.value == .string)
        #expect(schema.attribute(at: "primaryAddress.mobile")?.path == "/primaryAddress/mobile")
        #expect(schema.attribute(at: "/password")?.type.value == .password("password-bcrypt"))
        #expect(schema.attribute(at: "/statuses")?.stringPluralElement?.name.value == "status")
        #expect(schema.attribute(at: "/photos")?.stringPluralElement == nil)
        #expect(schema.attribute(at: "/profiles/followers")?.isInPlural == true)
        let readOnly = schema.allAttributes.filter(\.isReadOnly).map(\.path)
        #expect(readOnly == ["/id", "/uuid", "/created", "/lastUpdated", "/photos/id", "/profiles/id", "/profiles/followers/id", "/statuses/id"])
        #expect(schema.attribute(at: "/nothing") == nil && schema.attribute(at: "/email/x") == nil && schema.attribute(at: "") == nil)
    }

    @Test func attributeKindsFollowTheSchema() throws {
        let schema = try Fixtures.defaultSchema
        #expect(schema.attributeKind(path: "/name") == .object)
        #expect(schema.attributeKind(path: "/photos") == .plural)
        #expect(schema.attributeKind(path: "/statuses") == .plural)
        #expect(schema.attributeKind(path: "/display") == .primitive, "json holds any JSON, set whole")
        #expect(schema.attributeKind(path: "/email") == .primitive)
        #expect(schema.attributeKind(path: "/unknown") == nil)
    }

    @Test func passwordTypesAreAFamily() {
        #expect(AttributeType(name: "password-bcrypt") == .password("password-bcrypt"))
        #expect(AttributeType(name: "password-crypt-sha256")?.isPassword == true)
        #expect(AttributeType(name: "password") == .password("password"))
        #expect(AttributeType(name: "password-") == nil)
        #expect(AttributeType(name: "passwords") == nil)
        #expect(AttributeType(name: "dateTime") == .dateTime)
        #expect(AttributeType(name: "datetime") == nil)
    }

    @Test func missingAndOversizedFilesAreIOErrors() throws {
        let missing = SchemaLoader.schema(path: "/no/such/schema.json")
        #expect(missing.diagnostics.map(\.code) == [.fileUnreadable])
        let folder = try TemporaryFolder()
        defer { folder.remove() }
        let big = try folder.write("big.json", String(repeating: " ", count: SchemaLoader.maximumFileSize + 1))
        #expect(SchemaLoader.schema(path: big).diagnostics.map(\.code) == [.fileTooLarge])
        #expect(SchemaLoader.schema(path: folder.path).diagnostics.first?.message.hasSuffix("it is a folder") == true)
    }
}
