import JumpForms
import JumpFormsLoader
import Testing
import TestSupport

/// Every example of every lint rule (`LintRule.triggeringExamples` and `nonTriggeringExamples`,
/// in the rule's file; docs/diagnostics.md shows the same ones), written to a folder as real files
/// and linted as `jump-forms lint` does in that folder: a triggering example is reported with the
/// rule's code, a non-triggering one (the project corrected) lints clean.
@Suite struct LintRuleExampleTests {
    /// One of a rule's examples: which rule, which of its examples, and whether it must trigger it.
    struct Case: CustomTestStringConvertible, Sendable {
        var rule: LintRule
        var example: LintRuleExample
        var index: Int
        var triggers: Bool
        var testDescription: String { "\(rule.code.rawValue) \(triggers ? "triggering" : "non-triggering") #\(index + 1)" }
    }

    static let allExamples: [Case] = LintRule.allCases.flatMap { rule in
        rule.triggeringExamples.enumerated().map { Case(rule: rule, example: $1, index: $0, triggers: true) }
            + rule.nonTriggeringExamples.enumerated().map { Case(rule: rule, example: $1, index: $0, triggers: false) }
    }

    /// Writes the example's files in a fresh folder and lints them there: what `jump-forms lint`
    /// prints (the findings and their rendering, paths relative to the folder).
    static func lint(_ example: LintRuleExample) throws -> (findings: [Diagnostic], text: String) {
        let folder = try TemporaryFolder("jump-lint-example")
        defer { folder.remove() }
        for file in example.files { try folder.write(file.path, file.text) }
        let project = ProjectLoader(environment: [:], directory: folder.path).load(paths: example.lintPaths)
        let findings = project.lint()
        return (findings, DiagnosticRenderer(sources: project.sources).render(findings))
    }

    @Test(arguments: allExamples)
    func examplesTriggerTheirRuleOrLintClean(_ example: Case) throws {
        let (findings, text) = try Self.lint(example.example)
        let code = example.rule.code
        if example.triggers {
            #expect(findings.contains { $0.code == code }, "\(example.testDescription) is not reported as \(code.rawValue):\n\(text)")
        } else {
            #expect(findings.isEmpty, "\(example.testDescription) should lint clean:\n\(text)")
        }
    }
}
