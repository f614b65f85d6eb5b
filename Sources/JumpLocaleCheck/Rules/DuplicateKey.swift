import JumpForms

extension LocaleRuleDefinition {
    /// `duplicate-key`: a message key written twice in one file.
    static let duplicateKey = LocaleRuleDefinition(
        rule: .duplicateKey,
        triggeringExamples: [
            .pair(
                """
                fields.email.label: Email address
                """, "fr-FR",
                """
                fields.email.label: Adresse e-mail
                fields:
                  email:
                    label: Courriel
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                fields.email.label: Email address
                """, "fr-FR",
                """
                fields:
                  email:
                    label: Courriel
                """)
        ]
    )
}

extension CatalogCheck {
    func checkDuplicateKeys() {
        for duplicate in catalog.duplicateKeys {
            add(
                .duplicateKey, "message key '\(duplicate.key)' is written twice; jump-forms uses the first value, most other tools the last",
                at: duplicate.location, key: duplicate.key, hint: "remove one of them",
                related: [Diagnostic.Related("'\(duplicate.key)' first written here", at: duplicate.firstLocation)])
        }
    }
}
