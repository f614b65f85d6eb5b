extension LintRule {
    /// JF315: a provider's icon file that does not exist.
    public static let missingIcon = LintRule(
        .missingIcon, severity: .error,
        title: "icon file missing", explanation: "The provider's `icon` path (relative to the flow file) does not exist.",
        triggeringExamples: [
            .signInProject(
                sections: """
                    providers:
                      - id: corp
                        type: openid
                        name: p.corp
                        openidIdentifier: "https://id.corp.example/openid"
                        icon: icons/corp.png
                    """,
                messages: "p.corp: Corp")
        ],
        nonTriggeringExamples: [
            .signInProject(
                sections: """
                    providers:
                      - id: corp
                        type: openid
                        name: p.corp
                        openidIdentifier: "https://id.corp.example/openid"
                        icon: icons/corp.png
                    """,
                messages: "p.corp: Corp",
                .init("icons/corp.png", "an image"))
        ],
        check: { linter, findings in linter.checkMissingIcon(&findings) }
    )
}

extension FlowLinter {
    func checkMissingIcon(_ findings: inout [Diagnostic]) {
        let flowDirectory = Self.directory(of: flow.path)
        for provider in flow.providers {
            guard let icon = provider.icon else { continue }
            let path = icon.value.hasPrefix("/") ? icon.value : Self.join(flowDirectory, icon.value)
            if !fileExists(path) {
                findings.append(
                    Diagnostic(
                        .missingIcon, "icon file '\(path)' does not exist", at: icon.location,
                        hint: "icon paths are relative to the flow file"))
            }
        }
    }
}
