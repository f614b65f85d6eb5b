extension LintRule {
    /// JF311: a provider listed twice in `providers` or in `sharing`.
    public static let duplicateProvider = LintRule(
        .duplicateProvider, severity: .error,
        title: "duplicate provider", explanation: "A provider id appears twice in `providers`.",
        triggeringExamples: [
            .signInProject(sections: "providers: [google, facebook, google]")
        ],
        nonTriggeringExamples: [
            .signInProject(sections: "providers: [google, facebook]")
        ],
        check: { linter, findings in linter.checkDuplicateProvider(&findings) }
    )
}

extension FlowLinter {
    func checkDuplicateProvider(_ findings: inout [Diagnostic]) {
        var seen: [String: SourceLocation] = [:]
        for provider in flow.providers {
            if let first = seen[provider.id.value] {
                findings.append(
                    Diagnostic(
                        .duplicateProvider, "provider '\(provider.id.value)' is listed twice",
                        at: provider.id.location, related: [.init("first listed here", at: first)]))
            } else {
                seen[provider.id.value] = provider.id.location
            }
        }
        var seenSharing: [String: SourceLocation] = [:]
        for provider in flow.sharing {
            if let first = seenSharing[provider.value] {
                findings.append(
                    Diagnostic(
                        .duplicateProvider, "sharing provider '\(provider.value)' is listed twice",
                        at: provider.location, related: [.init("first listed here", at: first)]))
            } else {
                seenSharing[provider.value] = provider.location
            }
        }
    }
}
