extension LintRule {
    /// JF321: a message argument its call site does not provide, or a number that is text.
    /// Reported by `FlowLinter`'s message pass, which finds each used key once per catalog for all its checks.
    public static let messageArgument = LintRule(
        .messageArgument, severity: .error,
        title: "message uses an argument nobody provides",
        explanation: "Validation messages get `label`, `field` and `value`; labels, tips, placeholders and option labels get none.",
        triggeringExamples: [
            .signInProject(
                passwordValidation: "- { rule: minLength, value: 8, message: v.minLength }",
                messages: """
                    v.minLength: "At least {min} characters."
                    """)
        ],
        nonTriggeringExamples: [
            .signInProject(
                passwordValidation: "- { rule: minLength, value: 8, message: v.minLength }",
                messages: """
                    v.minLength: "{label} needs at least 8 characters."
                    """)
        ]
    )
}
