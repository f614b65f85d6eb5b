extension LintRule {
    /// JF316: a form name written in jump.yaml that the flow lacks.
    public static let configNamesMissingForm = LintRule(
        .configNamesMissingForm, severity: .error,
        title: "jump.yaml names a form the flow lacks", explanation: "A `...FormName` key of `jump.yaml` names a form that is not in the flow.",
        triggeringExamples: [
            .signInProject(.config("captureSignInFormName: signinForm"))
        ],
        nonTriggeringExamples: [
            .signInProject(.config("captureSignInFormName: signInForm"))
        ],
        check: { linter, findings in linter.checkConfigNamesMissingForm(&findings) }
    )
}

extension FlowLinter {
    func checkConfigNamesMissingForm(_ findings: inout [Diagnostic]) {
        guard let config else { return }
        let formNames = flow.forms.map(\.name)
        // Defaults name forms a flow may not have; a name written in jump.yaml must exist.
        for (key, form) in config.namedForms where config.writtenKeys.contains(key) && flow.form(named: form.value) == nil {
            findings.append(
                Diagnostic(
                    .configNamesMissingForm, "'\(key)' names form '\(form.value)', which the flow lacks",
                    at: form.location, hint: Suggestion.hint(for: form.value, among: formNames)))
        }
    }
}
