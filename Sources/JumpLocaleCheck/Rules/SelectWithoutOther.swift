import JumpForms

extension LocaleRule {
    /// `select-without-other`: a select without the `other` case used when no other case matches.
    public static let selectWithoutOther = LocaleRule(
        "select-without-other", code: .selectWithoutOther, group: .plurals, severity: .error,
        title: "select or plural without `other`",
        explanation: """
            Every `select`, `plural` and `selectordinal` argument needs an `other` case, chosen when no other case matches; without it the \
            message cannot be formatted.
            """,
        example: "\"{gender, select, female {elle} male {il}}\"",
        triggeringExamples: [
            .pair(
                """
                welcome: "{gender, select, female {She joined} male {He joined} other {They joined}}"
                """, "fr-FR",
                """
                welcome: "{gender, select, female {Elle a rejoint} male {Il a rejoint}}"
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                welcome: "{gender, select, female {She joined} male {He joined} other {They joined}}"
                """, "fr-FR",
                """
                welcome: "{gender, select, female {Elle a rejoint} male {Il a rejoint} other {Iel a rejoint}}"
                """)
        ]
    )
}

extension CatalogCheck {
    /// The syntax error of a select without `other` (the parser finds it, `checkICUSyntax` hands it on).
    func reportSelectWithoutOther(_ message: borrowing LocaleMessage, _ error: MessageSyntaxError) {
        add(
            .selectWithoutOther, "message '\(message.key)': \(error.message)", at: message.location(ofOffset: error.offset), key: message.key,
            hint: "add an 'other' case, used when no other case matches")
    }
}
