extension LintRule {
    /// JF331: activities without a sharing provider that takes them.
    public static let activityNotPostable = LintRule(
        .activityNotPostable, severity: .error,
        title: "no provider could post the activity",
        explanation:
            """
            The flow has activities, but `sharing` lists no provider that takes activities (facebook, twitter, linkedin, yahoo): \
            `sharing` is missing or empty, or names only sign-in providers that cannot share. Add a sharing provider to `sharing` \
            (and `providers`).
            """,
        triggeringExamples: [
            .signInProject(
                sections: """
                    providers: [google]
                    sharing: [google]
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
                    providers: [google, facebook]
                    sharing: [facebook]
                    activities:
                      joined: { action: a.joined }
                    """,
                messages: """
                    a.joined: "Joined."
                    """)
        ],
        check: { linter, findings in linter.checkActivityNotPostable(&findings) }
    )
}

extension FlowLinter {
    func checkActivityNotPostable(_ findings: inout [Diagnostic]) {
        guard !flow.sharing.contains(where: { SharingProvider(rawValue: $0.value) != nil }) else { return }
        let capable = SharingProvider.allCases.map(\.rawValue).joined(separator: ", ")
        for activity in flow.activities {
            let why =
                flow.sharing.isEmpty
                ? "the flow's 'sharing' lists no provider"
                : "none of the providers in 'sharing' (\(flow.sharing.map(\.value).joined(separator: ", "))) takes activities"
            findings.append(
                Diagnostic(
                    .activityNotPostable, "no provider could post activity '\(activity.name)': \(why)", at: activity.location,
                    hint: "providers that take activities: \(capable)"))
        }
    }
}
