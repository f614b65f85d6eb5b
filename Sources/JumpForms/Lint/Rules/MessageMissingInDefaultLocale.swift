extension LintRule {
    /// JF308: a message key the flow uses that the default locale lacks.
    /// Reported by `FlowLinter`'s message pass, which finds each used key once per catalog for all its checks.
    public static let messageMissingInDefaultLocale = LintRule(
        .messageMissingInDefaultLocale, severity: .error,
        title: "message key missing from the default locale",
        explanation: "Every message key the flow uses must exist in the default locale's file; that is where every other locale falls back.",
        triggeringExamples: [
            .project(flow: LintRuleExample.signInFlow(), messages: "f.email: Email")
        ],
        nonTriggeringExamples: [
            .signInProject()
        ]
    )
}
