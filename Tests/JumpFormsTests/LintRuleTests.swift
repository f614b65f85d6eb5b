import JumpForms
import Testing
import TestSupport

/// The rules of `jump-forms lint` (Sources/JumpForms/Lint/Rules, one file each, listed in
/// `LintRule.allCases`) and the code table generated from them.
@Suite struct LintRuleTests {
    @Test func everyLintCodeHasOneRule() {
        let codes = LintRule.allCases.map(\.code)
        #expect(Set(codes).count == codes.count)
        let lintCodes = DiagnosticCode.allCases.filter { $0.rawValue.hasPrefix("JF3") }
        #expect(Set(codes) == Set(lintCodes))
        for rule in LintRule.allCases {
            #expect(LintRule(code: rule.code) == rule)
            #expect(!rule.title.isEmpty && !rule.explanation.isEmpty, "\(rule)")
            #expect(!rule.triggeringExamples.isEmpty && !rule.nonTriggeringExamples.isEmpty, "\(rule) needs examples of both kinds")
        }
    }

    /// JumpDiagnostics' table of the rules' codes (severity and description, for
    /// docs/diagnostics.md and every output) is what the rule files say.
    @Test func theCodeTableIsGeneratedFromTheRuleFiles() {
        Snapshot.check(LintRule.generatedCodeTable, against: Repository.path("Sources/JumpDiagnostics/DiagnosticCode+LintRules.generated.swift"))
        for rule in LintRule.allCases {
            #expect(rule.code.defaultSeverity == rule.severity, "\(rule)")
            #expect(rule.code.title == rule.title && rule.code.explanation == rule.explanation, "\(rule)")
        }
    }

    /// Besides its examples (which LintRuleExampleTests lints), a rule has a fixture project in
    /// Tests/JumpFormsLoaderTests/Fixtures/diagnostics named after its code, whose rendered output
    /// is a golden file (DiagnosticGoldenTests checks that each produces the codes it names).
    @Test func everyRuleHasAGoldenFixture() {
        let folders = Repository.folders(in: "Tests/JumpFormsLoaderTests/Fixtures/diagnostics")
        for rule in LintRule.allCases {
            #expect(folders.contains { $0.split(separator: "-").contains(Substring(rule.code.rawValue)) }, "\(rule) has no fixture project")
        }
    }
}
