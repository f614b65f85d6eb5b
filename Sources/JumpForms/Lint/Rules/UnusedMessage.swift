extension LintRule {
    /// JF319: a message key of the default locale nothing uses.
    /// Reported by `FlowLinter`'s message pass, which finds each used key once per catalog for all its checks.
    public static let unusedMessage = LintRule(
        .unusedMessage, severity: .warning,
        title: "message key is never used", explanation: "The default locale defines a key that neither the flow nor the CLI's own catalog uses.",
        triggeringExamples: [
            .signInProject(messages: "old.label: Old")
        ],
        nonTriggeringExamples: [
            .signInProject()
        ]
    )
}
