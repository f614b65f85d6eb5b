extension LintRule {
    /// JF325: a forgot-password or resend-verification form without an email or text field.
    public static let formWithoutIdentifier = LintRule(
        .formWithoutIdentifier, severity: .error,
        title: "form has no identifying field",
        explanation: "The forgot-password and resend-verification forms send their first field of type `email` or `text`; the form has none.",
        triggeringExamples: [
            .signInProject(forms: "forgotPasswordForm: { fields: [password] }")
        ],
        nonTriggeringExamples: [
            .signInProject(forms: "forgotPasswordForm: { fields: [email] }")
        ],
        check: { linter, findings in linter.checkFormWithoutIdentifier(&findings) }
    )
}

extension FlowLinter {
    func checkFormWithoutIdentifier(_ findings: inout [Diagnostic]) {
        let identifyingForms = [
            config?.forgottenPasswordFormName.value ?? "forgotPasswordForm",
            config?.resendEmailVerificationFormName.value ?? "resendVerificationForm"
        ]
        for name in identifyingForms {
            guard let form = flow.form(named: name) else { continue }
            let hasIdentifier = form.fields.contains { flow.field(named: $0.value)?.type.value.canIdentify == true }
            if !hasIdentifier {
                findings.append(
                    Diagnostic(
                        .formWithoutIdentifier, "form '\(name)' has no field of type email or text to identify the account",
                        at: form.location))
            }
        }
    }
}
