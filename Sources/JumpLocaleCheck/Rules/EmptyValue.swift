import JumpForms

extension LocaleRule {
    /// `empty-value`: a message with no text, or only whitespace.
    public static let emptyValue = LocaleRule(
        "empty-value", code: .localeEmptyValue, group: .files, severity: .error,
        title: "message is empty",
        explanation:
            "The value is empty or only whitespace, so the form would show nothing. An empty key (`label:`) is YAML's null, not a translation.",
        example: "fields.email.label: \"\"",
        triggeringExamples: [
            .pair(
                """
                fields.email.label: Email address
                fields.email.tip: We never share it.
                """, "de-DE",
                """
                fields.email.label: ""
                fields.email.tip: Wir geben sie nie weiter.
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                fields.email.label: Email address
                fields.email.tip: We never share it.
                """, "de-DE",
                """
                fields.email.label: E-Mail-Adresse
                fields.email.tip: Wir geben sie nie weiter.
                """)
        ]
    )
}

extension CatalogCheck {
    /// Whether the message is empty (or only whitespace), reported unless it is obsolete: an
    /// obsolete key is reported once, emptied (`gender:` whose cases were removed) or not.
    func checkEmptyValue(
        _ message: borrowing LocaleMessage, _ facts: TextPrescan, obsolete: Bool,
        reference: ProjectFacts.ReferenceFacts?
    ) -> Bool {
        let text = facts.text
        guard text.isEmpty || (facts.startsWithWhitespace && text.unicodeScalars.allSatisfy(TextScan.isWhitespace)) else { return false }
        if !obsolete {
            add(
                .emptyValue, "message '\(message.key)' is empty", at: message.valueLocation, key: message.key,
                hint: reference.map { "\(project.reference) says: \(Self.quoted($0.text))" })
        }
        return true
    }
}
