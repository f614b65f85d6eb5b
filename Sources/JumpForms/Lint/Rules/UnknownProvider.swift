extension LintRule {
    /// JF314: a bare provider name that is no built-in provider.
    public static let unknownProvider = LintRule(
        .unknownProvider, severity: .error,
        title: "unknown built-in provider",
        explanation:
            """
            A provider written as a bare name must be one of the built-in Engage providers (see docs/flow-format.md); custom ones are written as \
            a mapping with `type`.
            """,
        triggeringExamples: [
            .signInProject(sections: "providers: [facebok]")
        ],
        nonTriggeringExamples: [
            .signInProject(sections: "providers: [facebook]")
        ],
        check: { linter, findings in linter.checkUnknownProvider(&findings) }
    )
}

extension FlowLinter {
    func checkUnknownProvider(_ findings: inout [Diagnostic]) {
        for provider in flow.providers {
            guard case .builtIn = provider.kind, BuiltInProvider(rawValue: provider.id.value) == nil else { continue }
            findings.append(
                Diagnostic(
                    .unknownProvider, "unknown built-in provider '\(provider.id.value)'", at: provider.id.location,
                    hint: Suggestion.hint(for: provider.id.value, among: BuiltInProvider.allCases.map(\.rawValue))
                        ?? "custom providers need 'type: openid' or 'type: saml'"))
        }
    }
}
