import JumpForms
import JumpSchema
import Testing
import TestSupport

/// The generated Swift sources: golden files for the repository's default schema and for a
/// hostile one (keywords as names, clashing names, deep nesting, empty objects).
@Suite struct GeneratorTests {
    static func defaultGenerator() throws -> ModelGenerator {
        let schema = try Fixtures.defaultSchema
        let access = try Fixtures.accessSchema(Repository.path("schemas/access-schema.json"), for: schema)
        return ModelGenerator(schema: schema, accessSchema: access)
    }

    static func hostileGenerator() throws -> ModelGenerator {
        ModelGenerator(schema: try Fixtures.hostileSchema, typePrefix: "H")
    }

    @Test func defaultSchemaGivesTheGoldenSources() throws {
        let files = try Self.defaultGenerator().files()
        #expect(files.map(\.name) == ["User.swift", "CaptureSupport.swift"])
        for file in files {
            Snapshot.check(file.contents, against: Fixtures.path("golden/default/\(file.name)"))
        }
    }

    @Test func hostileSchemaGivesTheGoldenSources() throws {
        let files = try Self.hostileGenerator().files()
        #expect(files.map(\.name) == ["HUser.swift", "HCaptureSupport.swift"])
        for file in files {
            Snapshot.check(file.contents, against: Fixtures.path("golden/hostile/\(file.name)"))
        }
    }

    @Test func generationIsDeterministic() throws {
        #expect(try Self.hostileGenerator().files() == Self.hostileGenerator().files())
    }

    @Test func objectsAndPluralElementsAreNestedStructsAndStringPluralsAreLists() throws {
        let model = try Self.defaultGenerator().files()[0].contents
        #expect(model.contains("public struct User: Codable, Sendable, Equatable {"))
        #expect(model.contains("    public struct Name: Codable, Sendable, Equatable {"))
        #expect(model.contains("    public var photos: [PhotosElement]?"))
        #expect(model.contains("    public struct PhotosElement: Codable, Sendable, Equatable {"))
        #expect(model.contains("    public var statuses: [String]?"))
        #expect(model.contains("        public var followers: [String]?"))
        #expect(model.contains("    public var birthday: CaptureDate?"))
        #expect(model.contains("    public var created: CaptureDateTime?") == false)
        #expect(model.contains("    public private(set) var created: CaptureDateTime?"))
        #expect(model.contains("    public var display: CaptureJSON?"))
        // The password is write-only: no property, named in the type's documentation.
        #expect(!model.contains("var password"))
        #expect(model.contains("Not in the model (write-only, never in a record): `password` (password-bcrypt)."))
    }

    @Test func clashingNamesAreResolvedAndMappedToTheSchemaNames() throws {
        let model = try Self.hostileGenerator().files()[0].contents
        // The attribute whose name needs no mangling keeps it; the others are numbered in order.
        #expect(model.contains("case firstName2 = \"first_name\"\n"))
        #expect(model.contains("case firstName\n"))
        #expect(model.contains("case firstName3 = \"first-name\"\n"))
        #expect(model.contains("case selfValue2 = \"self\"\n"))
        #expect(model.contains("case selfValue3 = \"Self\"\n"))
        #expect(model.contains("case selfValue\n"))
        // Keywords in backticks, names that would hide a type the code uses renamed.
        #expect(model.contains("public var `default`: String?"))
        #expect(model.contains("public var `init`: String?"))
        #expect(model.contains("public var string: StringObject?"))
        #expect(model.contains("public var codingKeys: CodingKeysObject?"))
        #expect(model.contains("public var hCaptureDate: HCaptureDateObject?"))
        #expect(model.contains("case quoteAndBackslash = \"quote\\\"and\\\\backslash\""))
        // Types follow the same rule: `fooBar` keeps `FooBar`, `foo_bar` gets `FooBar2`.
        #expect(model.contains("public var fooBar2: FooBar2?"))
        #expect(model.contains("public var fooBar: FooBar?"))
        // Plural elements always have their id, even when the schema does not list it.
        #expect(
            model.contains(
                "public struct Level5Element: Codable, Sendable, Equatable {\n"
                    + "                            /// The element's id, set by the server.\n"))
        #expect(model.contains("import FoundationEssentials"), "a decimal attribute needs Foundation's Decimal")
    }

    @Test func withoutAnAccessSchemaEveryAttributeTheServerDoesNotSetIsWritable() throws {
        let generator = ModelGenerator(schema: try Fixtures.defaultSchema)
        let paths = generator.writableAttributePaths
        #expect(paths.contains("/email"))
        #expect(paths.contains("/primaryAddress/city"))
        #expect(paths.contains("/photos"))
        #expect(!paths.contains("/photos/value"), "plurals are written whole")
        #expect(!paths.contains("/id") && !paths.contains("/uuid") && !paths.contains("/created") && !paths.contains("/lastUpdated"))
        #expect(!paths.contains("/password"))
        #expect(!generator.files()[0].contents.contains("Not writable with an access token"))
    }

    @Test func theAccessSchemaMarksWhatATokenCannotWrite() throws {
        let schema = try Fixtures.defaultSchema
        let access = SchemaLoader.accessSchema(bytes: Array(#"["/displayName", "primaryAddress.city"]"#.utf8), path: "access.json", schema: schema)
        let accessSchema: AccessSchema = try #require(access.value)
        let generator = ModelGenerator(schema: schema, accessSchema: accessSchema)
        #expect(generator.writableAttributePaths == ["/displayName", "/primaryAddress/city"])
        let model = generator.files()[0].contents
        #expect(
            model.contains(
                """
                    /// Only some of its attributes are writable with an access token (see `writableAttributePaths`).
                    public var primaryAddress: PrimaryAddress?
                """))
        #expect(
            model.contains(
                """
                        /// Not writable with an access token: outside the access schema (the server answers error 223).
                        public var zip: String?
                """))
        #expect(
            model.contains(
                """
                        /// Schema path `/primaryAddress/city`: string, at most 1000 characters.
                        public var city: String?
                """))
    }

    @Test(arguments: [("", true), ("JR", true), ("My_", true), ("2x", false), ("J-R", false), ("É", false)])
    func typePrefixesAreIdentifiers(_ prefix: String, _ valid: Bool) {
        #expect(ModelGenerator.isValidTypePrefix(prefix) == valid)
    }
}
