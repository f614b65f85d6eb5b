extension LintRule {
    /// JF330: a sharing provider not among the flow's providers.
    public static let sharingProviderNotListed = LintRule(
        .sharingProviderNotListed, severity: .error,
        title: "sharing provider not among the flow's providers",
        explanation:
            """
            Every provider of `sharing` must be listed under `providers`: an activity goes to a provider the person signs in with \
            (Engage's `social_providers` are a subset of its sign-in providers). Add it to `providers`, or remove it from `sharing`.
            """,
        triggeringExamples: [
            .signInProject(
                sections: """
                    providers: [facebook]
                    sharing: [facebook, twitter]
                    activities:
                      joined: { action: a.joined }
                    """,
                messages: """
                    a.joined: "Joined."
                    """)
        ],
        nonTriggeringExamples: [
            .signInProject(
                sections: """
                    providers: [facebook, twitter]
                    sharing: [facebook, twitter]
                    activities:
                      joined: { action: a.joined }
                    """,
                messages: """
                    a.joined: "Joined."
                    """)
        ],
        check: { linter, findings in linter.checkSharingProviderNotListed(&findings) }
    )
}

extension FlowLinter {
    func checkSharingProviderNotListed(_ findings: inout [Diagnostic]) {
        let listed = flow.providers.map(\.id.value)
        var seen = Set<String>()
        // A provider listed twice is reported once (the second listing is JF311's).
        for provider in flow.sharing where seen.insert(provider.value).inserted && !listed.contains(provider.value) {
            findings.append(
                Diagnostic(
                    .sharingProviderNotListed, "sharing provider '\(provider.value)' is not among the flow's providers",
                    at: provider.location,
                    hint: Suggestion.hint(for: provider.value, among: listed) ?? "add it to 'providers'"))
        }
    }
}
