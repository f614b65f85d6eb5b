extension LintRule {
    /// JF320: a message that is not valid ICU MessageFormat.
    /// Reported by `CatalogLinter`, which parses each message once for every flow that uses it.
    public static let messageSyntax = LintRule(
        .messageSyntax, severity: .error,
        title: "ICU message syntax error", explanation: "The message is not valid ICU MessageFormat; the location points inside the locale file.",
        triggeringExamples: [
            .project(
                flow: """
                    flow: example
                    version: "1"
                    defaultLocale: en-US
                    locales: locales
                    fields:
                      email:
                        type: email
                        label: f.email
                        validation:
                          - { rule: required, message: v.required }
                      password: { type: password, label: f.password }
                    forms:
                      signInForm: { fields: [email, password] }
                    """,
                messages: """
                    f.email: Email
                    f.password: Password
                    v.required: "{label is required."
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
                      email:
                        type: email
                        label: f.email
                        validation:
                          - { rule: required, message: v.required }
                      password: { type: password, label: f.password }
                    forms:
                      signInForm: { fields: [email, password] }
                    """,
                messages: """
                    f.email: Email
                    f.password: Password
                    v.required: "{label} is required."
                    """)
        ]
    )
}
