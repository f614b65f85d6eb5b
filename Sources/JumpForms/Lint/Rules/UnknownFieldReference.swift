extension LintRule {
    /// JF303: `match` or `alongWith` naming a field the flow lacks, or the field itself.
    public static let unknownFieldReference = LintRule(
        .unknownFieldReference, severity: .error,
        title: "rule names an unknown field", explanation: "`match` and `alongWith` name another field of the flow.",
        triggeringExamples: [
            .signInProject(
                fields: """
                    passwordConfirm:
                      type: password
                      label: f.confirm
                      validation:
                        - { rule: match, value: pasword, message: v.match }
                    """,
                forms: "passwordForm: { fields: [password, passwordConfirm] }",
                messages: """
                    f.confirm: Confirm password
                    v.match: "{label} does not match."
                    """)
        ],
        nonTriggeringExamples: [
            .signInProject(
                fields: """
                    passwordConfirm:
                      type: password
                      label: f.confirm
                      validation:
                        - { rule: match, value: password, message: v.match }
                    """,
                forms: "passwordForm: { fields: [password, passwordConfirm] }",
                messages: """
                    f.confirm: Confirm password
                    v.match: "{label} does not match."
                    """)
        ],
        check: { linter, findings in linter.checkUnknownFieldReference(&findings) }
    )
}

extension FlowLinter {
    func checkUnknownFieldReference(_ findings: inout [Diagnostic]) {
        let fieldNames = flow.fields.map(\.name)
        for field in flow.fields {
            for rule in field.validation {
                guard rule.kind == .match || rule.kind == .alongWith, case .text(let other) = rule.value else { continue }
                let valueLocation = rule.valueLocation ?? rule.location
                if flow.field(named: other) == nil {
                    findings.append(
                        Diagnostic(
                            .unknownFieldReference, "rule '\(rule.kind.rawValue)' names field '\(other)', which the flow does not define",
                            at: valueLocation, hint: Suggestion.hint(for: other, among: fieldNames)))
                } else if other == field.name {
                    findings.append(Diagnostic(.unknownFieldReference, "rule '\(rule.kind.rawValue)' names the field itself", at: valueLocation))
                }
            }
        }
    }
}
