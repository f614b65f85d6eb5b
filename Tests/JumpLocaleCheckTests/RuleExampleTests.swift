import CLITestSupport
import Foundation
import JumpForms
import JumpLocaleCheck
import Testing
import TestSupport

/// Every rule's first triggering example (`LocaleRule.example`) through `jump-forms locales check`:
/// it must produce findings of that rule and of no other, exit as the rule's severity says, and
/// print exactly its golden file (Golden/<rule>.txt). docs/locales.md shows the same outputs.
@Suite struct RuleExampleTests {
    /// Writes the example's files in a fresh folder and runs the check there.
    static func run(_ rule: LocaleRule, extra: [String] = []) async throws -> CommandResult {
        let folder = try TemporaryFolder("jump-locales-example")
        defer { folder.remove() }
        for file in rule.example.files { try folder.write(file.path, file.text) }
        return try await InProcess.run(rule.example.arguments + extra, in: folder.path)
    }

    static func goldenPath(_ rule: LocaleRule) -> String {
        Repository.path("Tests/JumpLocaleCheckTests/Golden/\(rule.rawValue).txt")
    }

    @Test(arguments: LocaleRule.allCases)
    func exampleProducesExactlyItsRule(_ rule: LocaleRule) async throws {
        let json = try await Self.run(rule, extra: ["--format", "json"])
        let report = try JSONValue.parse(json.stdout)
        let rules = (report["diagnostics"]?.arrayValue ?? []).compactMap { $0["rule"]?.stringValue }
        #expect(!rules.isEmpty, "\(rule.rawValue): the example produces nothing\n\(json.stderr)")
        #expect(Set(rules) == [rule.rawValue], "\(rule.rawValue): the example produces \(rules)")
        #expect(json.status == (rule.severity == .error ? 1 : 0), "\(rule.rawValue): exit \(json.status)\n\(json.stderr)")

        let text = try await Self.run(rule)
        Snapshot.check(text.stdout, against: Self.goldenPath(rule))
        #expect(text.stdout.contains("[\(rule.rawValue)]"))
    }

    /// One of a rule's examples: which rule, which of its examples, and whether it must trigger it.
    struct Case: CustomTestStringConvertible, Sendable {
        var rule: LocaleRule
        var example: LocaleRuleExample
        var index: Int
        var triggers: Bool
        var testDescription: String { "\(rule.rawValue) \(triggers ? "triggering" : "non-triggering") #\(index + 1)" }
    }

    static let allExamples: [Case] = LocaleRule.allCases.flatMap { rule in
        rule.triggeringExamples.enumerated().map { Case(rule: rule, example: $1, index: $0, triggers: true) }
            + rule.nonTriggeringExamples.enumerated().map { Case(rule: rule, example: $1, index: $0, triggers: false) }
    }

    /// Every example of every rule (Rules/<Rule>.swift): a triggering one produces findings of
    /// its rule, a non-triggering one none.
    @Test(arguments: allExamples)
    func examplesTriggerTheirRuleOrNot(_ example: Case) async throws {
        let folder = try TemporaryFolder("jump-locales-example")
        defer { folder.remove() }
        for file in example.example.files { try folder.write(file.path, file.text) }
        let result = try await InProcess.run(example.example.arguments + ["--format", "json"], in: folder.path)
        let report = try JSONValue.parse(result.stdout)
        let rules = (report["diagnostics"]?.arrayValue ?? []).compactMap { $0["rule"]?.stringValue }
        #expect(rules.contains(example.rule.rawValue) == example.triggers, "\(example.testDescription) produces \(rules)\n\(result.stderr)")
    }

    @Test func everyRuleIsListedOnceWithExamples() {
        #expect(Set(LocaleRule.allCases.map(\.rawValue)).count == LocaleRule.allCases.count)
        #expect(Set(LocaleRule.allCases.map(\.code)).count == LocaleRule.allCases.count)
        for rule in LocaleRule.allCases {
            #expect(!rule.triggeringExamples.isEmpty && !rule.nonTriggeringExamples.isEmpty, "\(rule.rawValue)")
        }
    }

    /// JumpDiagnostics' table of the rules' codes (their ids, severities and descriptions, for
    /// `error[rule-id]` and docs/diagnostics.md) is what the rule files say.
    @Test func theCodeTableIsGeneratedFromTheRuleFiles() {
        Snapshot.check(LocaleRule.generatedCodeTable, against: Repository.path("Sources/JumpDiagnostics/DiagnosticCode+LocaleRules.generated.swift"))
        for rule in LocaleRule.allCases {
            #expect(rule.code.defaultSeverity == rule.severity, "\(rule.rawValue)")
            #expect(rule.code.title == rule.title && rule.code.explanation == rule.explanation, "\(rule.rawValue)")
        }
    }

    @Test func warningsFailWithStrict() async throws {
        let result = try await Self.run(.sameAsSource, extra: ["--strict"])
        #expect(result.status == 1)
    }

    @Test func docsShowEveryRuleWithItsOutput() throws {
        var outputs: [LocaleRule: String] = [:]
        for rule in LocaleRule.allCases {
            outputs[rule] = try String(contentsOfFile: Self.goldenPath(rule), encoding: .utf8)
        }
        let path = Repository.path("docs/locales.md")
        let document = try String(contentsOfFile: path, encoding: .utf8)
        let updated = LocaleReferenceDocs.update(document, outputs: outputs)
        Snapshot.check(updated, against: path)
        for rule in LocaleRule.allCases {
            #expect(updated.contains("#### \(rule.rawValue)\n"), "docs/locales.md lacks \(rule.rawValue)")
        }
    }

    @Test func docsShowTheBaselineFileAsWritten() async throws {
        // docs/locales.md's baseline example is the file the tool writes for the url-mismatch
        // example: same keys, in the same order, same layout.
        let folder = try TemporaryFolder("jump-locales-baseline")
        defer { folder.remove() }
        for file in LocaleRule.urlMismatch.example.files { try folder.write(file.path, file.text) }
        let result = try await InProcess.run(LocaleRule.urlMismatch.example.arguments + ["--write-baseline", "baseline.json"], in: folder.path)
        #expect(result.status == 0, "\(result.stderr)")
        let written = try String(contentsOfFile: folder.path + "/baseline.json", encoding: .utf8)
        let document = try String(contentsOfFile: Repository.path("docs/locales.md"), encoding: .utf8)
        #expect(document.contains("```json\n" + written + "```\n"), "docs/locales.md should show:\n\(written)")
    }

    @Test func everyRuleHasACodeWithItsRuleID() {
        for rule in LocaleRule.allCases {
            #expect(rule.code.ruleID == rule.rawValue)
            #expect(rule.code.phase == .locales)
            #expect(LocaleRule(code: rule.code) == rule)
            #expect(DiagnosticCode(ruleID: rule.rawValue) == rule.code)
            #expect(!rule.explanation.isEmpty)
        }
    }
}
