extension LintRule {
    /// JF301: a form lists a field twice.
    public static let fieldRepeatedInForm = LintRule(
        .fieldRepeatedInForm, severity: .error,
        title: "field listed twice in a form", explanation: "A form prompts for each field once.",
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
                      signInForm: { fields: [email, password, email] }
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
