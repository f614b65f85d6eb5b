extension LintRule {
    /// JF317: a sign-in form without exactly one identifier and one password field.
    public static let signInFormShape = LintRule(
        .signInFormShape, severity: .error,
        title: "sign-in form needs one identifier and one password",
        explanation:
            """
            The sign-in form must hold exactly one field of type `password` and exactly one identifier field (`email`, or `text` for username \
            sign-in).
            """,
        triggeringExamples: [
            .project(
                flow: """
                    flow: example
                    version: "1"
                    defaultLocale: en-US
                    locales: locales
                    fields:
                      email: { type: email, label: f.email }
                    forms:
                      signInForm: { fields: [email] }
                    """,
                messages: "f.email: Email")
        ],
        nonTriggeringExamples: [
            .signInProject()
        ],
        check: { linter, findings in linter.checkSignInFormShape(&findings) }
    )
}

extension FlowLinter {
    func checkSignInFormShape(_ findings: inout [Diagnostic]) {
        let signInName = config?.captureSignInFormName.value ?? "signInForm"
        let signInType = config?.captureTraditionalSignInType.value ?? .email
        guard let form = flow.form(named: signInName) else { return }
        let fields = form.fields.compactMap { flow.field(named: $0.value) }
        let passwords = fields.filter { $0.type.value == .password }.count
        let identifiers = fields.filter { signInType == .email ? $0.type.value == .email : $0.type.value == .text }.count
        if passwords != 1 || identifiers != 1 {
            let identifierType = signInType == .email ? "email" : "text (username)"
            findings.append(
                Diagnostic(
                    .signInFormShape,
                    "sign-in form '\(signInName)' has \(passwords) password field\(passwords == 1 ? "" : "s") and \(identifiers) \(identifierType) field\(identifiers == 1 ? "" : "s"); it needs exactly one of each",
                    at: form.location))
        }
    }
}
