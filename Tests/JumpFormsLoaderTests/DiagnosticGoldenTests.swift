import JumpForms
import JumpFormsLoader
import Testing
import TestSupport

/// Every folder under Fixtures/diagnostics is a small project with a mistake; its
/// `expected.txt` holds the rendered diagnostics of loading and linting it.
@Suite struct DiagnosticGoldenTests {
    static let fixtures = "Tests/JumpFormsLoaderTests/Fixtures/diagnostics"
    static let cases = Repository.folders(in: fixtures)

    static func render(_ name: String) -> (text: String, codes: Set<DiagnosticCode>) {
        let folder = Repository.path("\(fixtures)/\(name)")
        let project = ProjectLoader(environment: [:]).load(paths: [folder])
        let findings = project.lint()
        let text = DiagnosticRenderer(sources: project.sources).render(findings)
            .replacingOccurrences(of: folder + "/", with: "")
        return (text, Set(findings.map(\.code)))
    }

    @Test(arguments: cases)
    func renderedDiagnosticsMatchGoldenFile(_ name: String) {
        let (text, codes) = Self.render(name)
        Snapshot.check(text, against: Repository.path("\(Self.fixtures)/\(name)/expected.txt"))
        // A case named after codes must produce them.
        for word in name.split(separator: "-") where word.hasPrefix("JF") {
            if let code = DiagnosticCode(rawValue: String(word)) {
                #expect(codes.contains(code), "\(name) does not produce \(code.rawValue)")
            }
        }
        if name.hasPrefix("valid") {
            #expect(text.isEmpty)
        }
    }

    @Test func everyCodeHasAFixtureOrAUnitTest() {
        let produced = Self.cases.reduce(into: Set<DiagnosticCode>()) { $0.formUnion(Self.render($1).codes) }
        // JF100 and JF102 need a missing or an oversized file, JF215 an identities file:
        // LoaderTests covers them.
        let elsewhere: Set<DiagnosticCode> = [.fileUnreadable, .fileTooLarge, .duplicateIdentity]
        // JF4xx (schemas) have their fixtures in JumpSchemaTests.
        let schema = Set(DiagnosticCode.allCases.filter { $0.phase == .schema })
        // JF5xx (`jump-forms locales`) are produced by JumpLocaleCheckTests and JumpLocaleInterchangeTests.
        let locales = Set(DiagnosticCode.allCases.filter { $0.phase == .locales })
        // JF6xx (Capture flow documents) have their fixtures in FlowDocumentTests.
        let documents = Set(DiagnosticCode.allCases.filter { $0.phase == .flowDocument })
        let missing = Set(DiagnosticCode.allCases).subtracting(produced).subtracting(elsewhere).subtracting(schema).subtracting(locales)
            .subtracting(documents)
        #expect(missing.isEmpty, "codes without a fixture: \(missing.map(\.rawValue).sorted())")
    }
}
