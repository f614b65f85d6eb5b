extension LintRule {
    /// JF300: a form names a field the flow does not define.
    public static let undefinedField = LintRule(
        .undefinedField, severity: .error,
        title: "form names an undefined field", explanation: "Every name in a form's `fields` must be defined under the flow's `fields`.",
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
                    forms:
                      signInForm: { fields: [emial, password] }
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
                    forms:
                      signInForm: { fields: [email, password] }
                    """)
        ],
        check: { linter, findings in linter.checkUndefinedField(&findings) }
    )
}

extension FlowLinter {
    func checkUndefinedField(_ findings: inout [Diagnostic]) {
        let fieldNames = flow.fields.map(\.name)
        for form in flow.forms {
            for reference in form.fields where flow.field(named: reference.value) == nil {
                findings.append(
                    Diagnostic(
                        .undefinedField,
                        "form '\(form.name)' names field '\(reference.value)', which the flow does not define",
                        at: reference.location, hint: Suggestion.hint(for: reference.value, among: fieldNames)))
            }
        }
    }
}
