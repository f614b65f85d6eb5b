extension LintRule {
    /// JF304: `match` or `alongWith` naming a field a form of the field lacks.
    public static let referenceOutsideForm = LintRule(
        .referenceOutsideForm, severity: .error,
        title: "rule names a field the form lacks",
        explanation: "`match` and `alongWith` compare values of one form: the named field must be in every form that uses this field.",
        triggeringExamples: [
            .signInProject(
                fields: """
                    passwordConfirm:
                      type: password
                      label: f.confirm
                      validation:
                        - { rule: match, value: password, message: v.match }
                    """,
                forms: "passwordForm: { fields: [passwordConfirm] }",
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
        check: { linter, findings in linter.checkReferenceOutsideForm(&findings) }
    )
}

extension FlowLinter {
    func checkReferenceOutsideForm(_ findings: inout [Diagnostic]) {
        for field in flow.fields {
            for rule in field.validation {
                guard rule.kind == .match || rule.kind == .alongWith, case .text(let other) = rule.value, flow.field(named: other) != nil
                else { continue }
                for form in flow.forms
                where form.fields.contains(where: { $0.value == field.name })
                    && !form.fields.contains(where: { $0.value == other })
                {
                    findings.append(
                        Diagnostic(
                            .referenceOutsideForm,
                            "rule '\(rule.kind.rawValue)' of field '\(field.name)' names '\(other)', which form '\(form.name)' does not contain",
                            at: rule.valueLocation ?? rule.location, related: [.init("form '\(form.name)' is defined here", at: form.location)]))
                }
            }
        }
    }
}
