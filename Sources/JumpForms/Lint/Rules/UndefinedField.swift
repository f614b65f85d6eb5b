extension LintRule {
    /// JF300: a form names a field the flow does not define.
    public static let undefinedField = LintRule(
        .undefinedField, severity: .error,
        title: "form names an undefined field", explanation: "Every name in a form's `fields` must be defined under the flow's `fields`.",
        triggeringExamples: [
            .signInProject(forms: "signInForm: { fields: [emial, password] }")
        ],
        nonTriggeringExamples: [
            .signInProject()
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
