extension LintRule {
    /// JF309: a message key the flow uses that a locale lacks along its fallbacks.
    /// Reported by `FlowLinter`'s message pass, which finds each used key once per catalog for all its checks.
    public static let messageMissingInLocale = LintRule(
        .messageMissingInLocale, severity: .warning,
        title: "message key missing from a locale",
        explanation: "A locale lacks a key the flow uses; users of that locale see the fallback text.",
        triggeringExamples: [
            .project(
                flow: """
                    flow: example
                    version: "1"
                    defaultLocale: en-US
                    locales: locales
                    fields:
                      email: { type: email, label: f.email }
                      password: { type: password, label: f.password }
                    forms:
                      signInForm: { fields: [email, password] }
                    """,
                .locale(
                    "fr-FR",
                    """
                    f.email: Adresse e-mail
                    """))
        ],
        nonTriggeringExamples: [
            .project(
                flow: """
                    flow: example
                    version: "1"
                    defaultLocale: en-US
                    locales: locales
                    fields:
                      email: { type: email, label: f.email }
                      password: { type: password, label: f.password }
                    forms:
                      signInForm: { fields: [email, password] }
                    """,
                .locale(
                    "fr-FR",
                    """
                    f.email: Adresse e-mail
                    f.password: Mot de passe
                    """))
        ]
    )
}
