extension LintRule {
    /// JF328: the same rule with the same value twice on a field.
    public static let duplicateRule = LintRule(
        .duplicateRule, severity: .warning,
        title: "rule repeated on a field", explanation: "The same rule with the same value appears twice on one field.",
        triggeringExamples: [
            .signInProject(
                emailValidation: """
                    - { rule: required, message: v.required }
                    - { rule: required, message: v.required }
                    """,
                messages: """
                    v.required: "{label} is required."
                    """)
        ],
        nonTriggeringExamples: [
            .signInProject(
                emailValidation: "- { rule: required, message: v.required }",
                messages: """
                    v.required: "{label} is required."
                    """)
        ],
        check: { linter, findings in linter.checkDuplicateRule(&findings) }
    )
}

extension FlowLinter {
    func checkDuplicateRule(_ findings: inout [Diagnostic]) {
        for field in flow.fields {
            var seenRules: [ValidationRule] = []
            for rule in field.validation {
                if let first = seenRules.first(where: { $0.kind == rule.kind && $0.value == rule.value }) {
                    findings.append(
                        Diagnostic(
                            .duplicateRule, "rule '\(rule.kind.rawValue)' appears twice on field '\(field.name)'",
                            at: rule.location, related: [.init("first written here", at: first.location)]))
                }
                seenRules.append(rule)
            }
        }
    }
}
