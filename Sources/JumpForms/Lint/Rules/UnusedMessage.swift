extension LintRule {
    /// JF319: a message key of the default locale nothing uses.
    /// Reported by `FlowLinter`'s message pass, which finds each used key once per catalog for all its checks.
    public static let unusedMessage = LintRule(
        .unusedMessage, severity: .warning,
        title: "message key is never used", explanation: "The default locale defines a key that neither the flow nor the CLI's own catalog uses.",
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
                messages: """
                    f.email: Email
                    f.password: Password
                    old.label: Old
                    """)
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
                    """)
        ]
    )
}
