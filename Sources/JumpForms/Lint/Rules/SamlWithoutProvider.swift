extension LintRule {
    /// JF313: a custom SAML provider without `samlProvider`.
    public static let samlWithoutProvider = LintRule(
        .samlWithoutProvider, severity: .error,
        title: "custom SAML provider without samlProvider", explanation: "A provider of `type: saml` needs `samlProvider`.",
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
                      signInForm: { fields: [email, password] }
                    providers:
                      - { id: corp, type: saml, name: p.corp }
                    """,
                messages: """
                    f.email: Email
                    f.password: Password
                    p.corp: Corp
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
                    providers:
                      - { id: corp, type: saml, name: p.corp, samlProvider: corp_saml }
                    """,
                messages: """
                    f.email: Email
                    f.password: Password
                    p.corp: Corp
                    """)
        ],
        check: { linter, findings in linter.checkSamlWithoutProvider(&findings) }
    )
}

extension FlowLinter {
    func checkSamlWithoutProvider(_ findings: inout [Diagnostic]) {
        for provider in flow.providers {
            guard case .saml(nil) = provider.kind else { continue }
            findings.append(
                Diagnostic(
                    .samlWithoutProvider, "custom SAML provider '\(provider.id.value)' has no 'samlProvider'",
                    at: provider.id.location))
        }
    }
}
