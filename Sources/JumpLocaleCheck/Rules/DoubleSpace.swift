import JumpForms

extension LocaleRule {
    /// `double-space`: two spaces in a row where the reference has none.
    public static let doubleSpace = LocaleRule(
        "double-space", code: .doubleSpace, group: .text, severity: .warning,
        title: "two spaces in a row",
        explanation: "The text has two consecutive spaces where the reference has none (usually a removed word or a bad join).",
        example: "\"Adresse  e-mail\"",
        triggeringExamples: [
            .pair(
                """
                fields.email.label: Email address
                """, "fr-FR",
                """
                fields.email.label: Adresse  e-mail
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                fields.email.label: Email address
                """, "fr-FR",
                """
                fields.email.label: Adresse e-mail
                """)
        ]
    )
}

extension CatalogCheck {
    func checkDoubleSpace(_ message: borrowing LocaleMessage, _ referenceMessage: ProjectFacts.ReferenceFacts?, _ facts: TextPrescan) {
        if facts.hasDoubleSpace, let double = facts.text.doubleSpaceOffset, referenceMessage?.hasDoubleSpace != true {
            add(
                .doubleSpace, "message '\(message.key)' has two spaces in a row", at: message.location(ofOffset: double, length: 2),
                key: message.key, hint: "write one space")
        }
    }
}
