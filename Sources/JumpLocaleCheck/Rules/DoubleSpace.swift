import JumpForms

extension LocaleRuleDefinition {
    /// `double-space`: two spaces in a row where the reference has none.
    static let doubleSpace = LocaleRuleDefinition(
        rule: .doubleSpace,
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
