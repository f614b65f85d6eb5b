extension LintRule {
    /// JF321: a message argument its call site does not provide, or a number that is text.
    /// Reported by `FlowLinter`'s message pass, which finds each used key once per catalog for all its checks.
    public static let messageArgument = LintRule(
        .messageArgument, severity: .error,
        title: "message uses an argument nobody provides",
        explanation: "Validation messages get `label`, `field` and `value`; labels, tips, placeholders and option labels get none.",
        triggeringExamples: [
            .project(
                flow: """
                    flow: example
                    version: "1"
                    defaultLocale: en-US
                    locales: locales
                    fields:
                      email: { type: email, label: f.email }
                      password:
                        type: password
                        label: f.password
                        validation:
                          - { rule: minLength, value: 8, message: v.minLength }
                    forms:
                      signInForm: { fields: [email, password] }
                    """,
                messages: """
                    f.email: Email
                    f.password: Password
                    v.minLength: "At least {min} characters."
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
                      password:
                        type: password
                        label: f.password
                        validation:
                          - { rule: minLength, value: 8, message: v.minLength }
                    forms:
                      signInForm: { fields: [email, password] }
                    """,
                messages: """
                    f.email: Email
                    f.password: Password
                    v.minLength: "{label} needs at least 8 characters."
                    """)
        ]
    )
}
