extension LintRule {
    /// JF327: jump.yaml's flow name or version that is not the flow's.
    public static let configFlowMismatch = LintRule(
        .configFlowMismatch, severity: .warning,
        title: "jump.yaml and the flow disagree",
        explanation: """
            `captureFlowName` differs from the flow's `flow`, `captureFlowVersion` is neither `HEAD` nor the flow's `version`, or \
            `captureLocale` has no locale file.
            """,
        triggeringExamples: [
            .signInProject(.config("captureFlowName: signin"))
        ],
        nonTriggeringExamples: [
            .signInProject(.config("captureFlowName: example"))
        ],
        check: { linter, findings in linter.checkConfigFlowMismatch(&findings) }
    )
}

extension FlowLinter {
    func checkConfigFlowMismatch(_ findings: inout [Diagnostic]) {
        guard let config else { return }
        if let name = config.captureFlowName, name.value != flow.name.value {
            findings.append(
                Diagnostic(
                    .configFlowMismatch,
                    "'captureFlowName' is '\(name.value)' but the flow is named '\(flow.name.value)'", at: name.location,
                    related: [.init("the flow's name", at: flow.name.location)]))
        }
        let version = config.captureFlowVersion
        if version.value != "HEAD", version.value != flow.version.value {
            findings.append(
                Diagnostic(
                    .configFlowMismatch,
                    "'captureFlowVersion' is '\(version.value)' but the flow's version is '\(flow.version.value)'",
                    at: version.location, hint: "write HEAD (the latest version) or '\(flow.version.value)'",
                    related: [.init("the flow's version", at: flow.version.location)]))
        }
    }
}
