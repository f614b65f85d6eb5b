import Foundation
import JumpForms
import JumpSchema
import Testing
import TestSupport

/// docs/schema.md's generated tables match the code, and every schema code is produced by a
/// test of this target.
@Suite struct SchemaDocsTests {
    @Test func generatedBlocksAreCurrent() throws {
        let path = Repository.path("docs/schema.md")
        let document = try String(contentsOfFile: path, encoding: .utf8)
        #expect(document.contains("<!-- BEGIN GENERATED: attribute-types -->"))
        #expect(document.contains("<!-- BEGIN GENERATED: constraints -->"))
        Snapshot.check(SchemaReferenceDocs.update(document), against: path)
    }

    @Test func everySchemaCodeIsProducedByAFixture() throws {
        var produced = Set<DiagnosticCode>()
        for name in SchemaReadingTests.cases {
            produced.formUnion(SchemaReadingTests.renderSchema(name).codes)
        }
        produced.formUnion(try SchemaReadingTests.renderAccessSchema("access-mistakes.json").codes)
        produced.formUnion(try SchemaLintTests.render().codes)
        let schemaCodes = Set(DiagnosticCode.allCases.filter { $0.phase == .schema })
        #expect(schemaCodes.subtracting(produced).isEmpty, "codes without a fixture: \(schemaCodes.subtracting(produced).map(\.rawValue).sorted())")
        #expect(schemaCodes.count == 20)
    }
}
