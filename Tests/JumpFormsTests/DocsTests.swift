import Foundation
import JumpForms
import Testing
import TestSupport

/// The generated parts of docs/*.md match the code (`RECORD_SNAPSHOTS=1` rewrites them).
@Suite struct DocsTests {
    @Test(arguments: ["docs/flow-format.md", "docs/diagnostics.md"])
    func generatedBlocksAreCurrent(_ relative: String) throws {
        let path = Repository.path(relative)
        let document = try String(contentsOfFile: path, encoding: .utf8)
        #expect(document.contains("<!-- BEGIN GENERATED:"))
        Snapshot.check(ReferenceDocs.update(document), against: path)
    }

    @Test func everyCodeIsExplained() {
        for code in DiagnosticCode.allCases {
            #expect(!code.explanation.isEmpty, "\(code.rawValue) has no explanation")
            #expect(code.title != code.rawValue, "\(code.rawValue) has no title")
        }
    }
}
