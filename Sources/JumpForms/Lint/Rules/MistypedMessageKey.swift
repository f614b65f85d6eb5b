extension LintRule {
    /// JF332: an unused message key a typo away from a used key the file lacks.
    /// Reported by `FlowLinter`'s message pass, which finds each used key once per catalog for all its checks.
    public static let mistypedMessageKey = LintRule(
        .mistypedMessageKey, severity: .error,
        title: "mistyped message key",
        explanation:
            """
            A locale file has a key that nothing uses, one letter or two away from a key the flow (or jump-forms itself) uses that the \
            file lacks and another locale file (or jump-forms' own catalog) has: a typo, so its text is never shown. The hint names \
            the key meant. Where no file has the used key, the typo may be the flow's: JF308 says so at the flow. Other keys nothing \
            uses are JF319 warnings in the default locale (`locales check` reports them in every locale as `obsolete-key`).
            """,
        triggeringExamples: [
            .signInProject(
                .locale(
                    "fr-FR",
                    """
                    f.emial: Adresse e-mail
                    f.password: Mot de passe
                    """))
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
