extension LintRule {
    /// JF309: a message key the flow uses that a locale lacks along its fallbacks.
    /// Reported by `FlowLinter`'s message pass, which finds each used key once per catalog for all its checks.
    public static let messageMissingInLocale = LintRule(
        .messageMissingInLocale, severity: .warning,
        title: "message key missing from a locale",
        explanation: "A locale lacks a key the flow uses; users of that locale see the fallback text.",
        triggeringExamples: [
            .signInProject(.locale("fr-FR", "f.email: Adresse e-mail"))
        ],
        nonTriggeringExamples: [
            .signInProject(
                .locale(
                    "fr-FR",
                    """
                    f.email: Adresse e-mail
                    f.password: Mot de passe
                    """))
        ]
    )
}
