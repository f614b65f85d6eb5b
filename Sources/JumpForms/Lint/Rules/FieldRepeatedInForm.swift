extension LintRule {
    /// JF301: a form lists a field twice.
    public static let fieldRepeatedInForm = LintRule(
        .fieldRepeatedInForm, severity: .error,
        title: "field listed twice in a form", explanation: "A form prompts for each field once.",
        triggeringExamples: [
            .signInProject(forms: "signInForm: { fields: [email, password, email] }")
        ],
        nonTriggeringExamples: [
            .signInProject()
        ],
        check: { linter, findings in linter.checkFieldRepeatedInForm(&findings) }
    )
}

extension FlowLinter {
    func checkFieldRepeatedInForm(_ findings: inout [Diagnostic]) {
        for form in flow.forms {
            var seen: [String: SourceLocation] = [:]
            for reference in form.fields {
                if let first = seen[reference.value] {
                    findings.append(
                        Diagnostic(
                            .fieldRepeatedInForm, "field '\(reference.value)' is listed twice in form '\(form.name)'",
                            at: reference.location, related: [.init("first listed here", at: first)]))
                } else {
                    seen[reference.value] = reference.location
                }
            }
        }
    }
}
