extension LintRule {
    /// JF313: a custom SAML provider without `samlProvider`.
    public static let samlWithoutProvider = LintRule(
        .samlWithoutProvider, severity: .error,
        title: "custom SAML provider without samlProvider", explanation: "A provider of `type: saml` needs `samlProvider`.",
        triggeringExamples: [
            .signInProject(
                sections: """
                    providers:
                      - { id: corp, type: saml, name: p.corp }
                    """,
                messages: "p.corp: Corp")
        ],
        nonTriggeringExamples: [
            .signInProject(
                sections: """
                    providers:
                      - { id: corp, type: saml, name: p.corp, samlProvider: corp_saml }
                    """,
                messages: "p.corp: Corp")
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
