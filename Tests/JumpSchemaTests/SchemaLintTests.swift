import JumpForms
import JumpFormsLoader
import JumpSchema
import Testing
import TestSupport

/// `lint --schema`: a flow checked against the Capture schema its fields write to.
@Suite struct SchemaLintTests {
    static let folder = Fixtures.path("lint")

    /// The schema findings for the lint fixture, rendered with the folder left out.
    static func render() throws -> (text: String, codes: Set<DiagnosticCode>) {
        let project = ProjectLoader().load(paths: [folder + "/flow.yaml"])
        let flow = try #require(project.primaryFlow)
        #expect(project.diagnostics.isEmpty, "\(project.diagnostics)")
        let loaded = SchemaLoader.schema(path: folder + "/schema.json")
        let schema = try #require(loaded.value)
        let findings = SchemaLinter(schema: schema, flow: flow.flow).lint()
        var sources = project.sources
        sources.merge(loaded.sources)
        let text = DiagnosticRenderer(sources: sources).render(findings).replacingOccurrences(of: folder + "/", with: "")
        return (text, Set(findings.map(\.code)))
    }

    @Test func missingAndMistypedAttributesAreReportedWhereTheFlowNamesThem() throws {
        let (text, codes) = try Self.render()
        Snapshot.check(text, against: Self.folder + "/expected.txt")
        #expect(
            codes == [
                .unknownSchemaAttribute, .fieldDoesNotFitAttribute, .fieldWritesReservedAttribute, .requiredAttributeNotSet,
                .optionDoesNotFitAttribute, .lengthExceedsAttribute, .constraintNotChecked
            ])
        // The place is the wrong part of the path, the hint the attribute meant.
        #expect(
            text.contains(
                """
                flow.yaml:31:30: error[JF412]: field 'mobile' writes 'primaryAddress.mobil', which is no attribute of the schema
                 31 |     schemaId: primaryAddress.mobil
                    |                              ^~~~~
                  = hint: did you mean 'primaryAddress.mobile'?
                """))
        #expect(
            text.contains(
                "flow.yaml:39:15: error[JF413]: field 'birthdate' of type dateselect cannot write '/givenName', an attribute of type string"))
    }

    @Test func theRepositorysFlowFitsTheDefaultSchema() throws {
        let project = ProjectLoader(environment: [:]).load(paths: [Repository.path("jump.yaml")])
        let flow = try #require(project.primaryFlow)
        let findings = SchemaLinter(schema: try Fixtures.defaultSchema, flow: flow.flow, config: project.config).lint()
        #expect(findings.isEmpty, "\(DiagnosticRenderer(sources: project.sources).render(findings))")
    }

    @Test func theRegistrationFormsComeFromTheConfiguration() throws {
        let project = ProjectLoader().load(paths: [Self.folder + "/flow.yaml"])
        let flow = try #require(project.primaryFlow).flow
        let schema = try #require(SchemaLoader.schema(path: Self.folder + "/schema.json").value)
        let config = try #require(ProjectLoader(environment: [:]).load(paths: [Repository.path("jump.yaml")]).config)
        var renamed = config
        renamed.captureTraditionalRegistrationFormName.value = "signInForm"
        renamed.captureSocialRegistrationFormName.value = "noSuchForm"
        let required = SchemaLinter(schema: schema, flow: flow, config: renamed).lint().filter { $0.code == .requiredAttributeNotSet }
        // The sign-in form (named as the registration form here) writes only the email.
        #expect(
            required.map(\.message) == [
                "form 'signInForm' never sets '/givenName', which the schema requires",
                "form 'signInForm' never sets '/familyName', which the schema requires"
            ])
    }

    @Test func typesFitTheFieldsThatWriteThem() {
        #expect(AttributeType.date.writingFieldTypes.contains(.dateselect))
        #expect(!AttributeType.string.writingFieldTypes.contains(.dateselect))
        #expect(AttributeType.boolean.writingFieldTypes.contains(.checkbox))
        #expect(AttributeType.password("password-bcrypt").writingFieldTypes == [.password])
        #expect(!AttributeType.string.writingFieldTypes.contains(.password), "a password is never stored in clear text")
        for type in [AttributeType.json, .object, .plural, .id, .uuid] {
            #expect(type.writingFieldTypes.isEmpty)
        }
        #expect(AttributeType.boolean.accepts("true") && !AttributeType.boolean.accepts("yes"))
        #expect(AttributeType.integer.accepts("-12") && !AttributeType.integer.accepts("1.5"))
        #expect(AttributeType.decimal.accepts("1.5") && !AttributeType.decimal.accepts("1e3") && !AttributeType.decimal.accepts("nan"))
        #expect(AttributeType.string.accepts("anything"))
    }
}
