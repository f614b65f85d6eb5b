import JumpForms

extension LocaleRule {
    /// `duplicate-key`: a message key written twice in one file.
    public static let duplicateKey = LocaleRule(
        "duplicate-key", code: .localeDuplicateKey, group: .yaml, severity: .error,
        title: "message key written twice",
        explanation: """
            The same key appears twice in a locale file (in one mapping, or once flat and once nested). jump-forms keeps the first; most other \
            tools silently keep the last. Both lines are named.
            """,
        example: "validation.required: a\\nvalidation.required: b",
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
