extension LintRule {
    /// JF312: a custom OpenID provider without `openidIdentifier`.
    public static let openIDWithoutIdentifier = LintRule(
        .openIDWithoutIdentifier, severity: .error,
        title: "custom OpenID provider without openidIdentifier", explanation: "A provider of `type: openid` needs `openidIdentifier`.",
        triggeringExamples: [
            .signInProject(
                sections: """
                    providers:
                      - { id: corp, type: openid, name: p.corp }
                    """,
                messages: "p.corp: Corp")
        ],
        nonTriggeringExamples: [
            .signInProject(
                sections: """
                    providers:
                      - { id: corp, type: openid, name: p.corp, openidIdentifier: "https://id.corp.example/openid" }
                    """,
                messages: "p.corp: Corp")
        ],
        check: { linter, findings in linter.checkOpenIDWithoutIdentifier(&findings) }
    )
}

extension FlowLinter {
    func checkOpenIDWithoutIdentifier(_ findings: inout [Diagnostic]) {
        for provider in flow.providers {
            guard case .openID(nil, _) = provider.kind else { continue }
            findings.append(
                Diagnostic(
                    .openIDWithoutIdentifier, "custom OpenID provider '\(provider.id.value)' has no 'openidIdentifier'",
                    at: provider.id.location))
        }
    }
}
