extension LintRule {
    /// JF304: `match` or `alongWith` naming a field a form of the field lacks.
    public static let referenceOutsideForm = LintRule(
        .referenceOutsideForm, severity: .error,
        title: "rule names a field the form lacks",
        explanation: "`match` and `alongWith` compare values of one form: the named field must be in every form that uses this field.",
        triggeringExamples: [
            .project(
                flow: """
                    flow: example
                    version: "1"
                    defaultLocale: en-US
                    locales: locales
                    fields:
                      email: { type: email, label: f.email }
                      password: { type: password, label: f.password }
                      passwordConfirm:
                        type: password
                        label: f.confirm
                        validation:
                          - { rule: match, value: password, message: v.match }
                    forms:
                      signInForm: { fields: [email, password] }
                      passwordForm: { fields: [passwordConfirm] }
                    """,
                messages: """
                    f.email: Email
                    f.password: Password
                    f.confirm: Confirm password
                    v.match: "{label} does not match."
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
                      email: { type: email, label: f.email }
                      password: { type: password, label: f.password }
                      passwordConfirm:
                        type: password
                        label: f.confirm
                        validation:
                          - { rule: match, value: password, message: v.match }
                    forms:
                      signInForm: { fields: [email, password] }
                      passwordForm: { fields: [password, passwordConfirm] }
                    """,
                messages: """
                    f.email: Email
                    f.password: Password
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
