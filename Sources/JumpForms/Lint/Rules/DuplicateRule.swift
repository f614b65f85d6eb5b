extension LintRule {
    /// JF328: the same rule with the same value twice on a field.
    public static let duplicateRule = LintRule(
        .duplicateRule, severity: .warning,
        title: "rule repeated on a field", explanation: "The same rule with the same value appears twice on one field.",
        triggeringExamples: [
            .project(
                flow: """
                    flow: example
                    version: "1"
                    defaultLocale: en-US
                    locales: locales
                    fields:
                      email:
                        type: email
                        label: f.email
                        validation:
                          - { rule: required, message: v.required }
                          - { rule: required, message: v.required }
                      password: { type: password, label: f.password }
                    forms:
                      signInForm: { fields: [email, password] }
                    """,
                messages: """
                    f.email: Email
                    f.password: Password
                    v.required: "{label} is required."
                    """)
        ],
        nonTriggeringExamples: [
            .project(
                flow: """
                    flow: example
                    version: "1"
                    defaultLocale: en-US
                    locales: locales
                    fields:
                      email:
                        type: email
                        label: f.email
                        validation:
                          - { rule: required, message: v.required }
                      password: { type: password, label: f.password }
                    forms:
                      signInForm: { fields: [email, password] }
                    """,
                messages: """
                    f.email: Email
                    f.password: Password
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
