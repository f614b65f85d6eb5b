extension LintRule {
    /// JF320: a message that is not valid ICU MessageFormat.
    /// Reported by `CatalogLinter`, which parses each message once for every flow that uses it.
    public static let messageSyntax = LintRule(
        .messageSyntax, severity: .error,
        title: "ICU message syntax error", explanation: "The message is not valid ICU MessageFormat; the location points inside the locale file.",
        triggeringExamples: [
            .signInProject(
                emailValidation: "- { rule: required, message: v.required }",
                messages: """
                    v.required: "{label is required."
                    """)
        ],
        nonTriggeringExamples: [
            .signInProject(
                emailValidation: "- { rule: required, message: v.required }",
                messages: """
                    v.required: "{label} is required."
                    """)
        ]
    )
}
