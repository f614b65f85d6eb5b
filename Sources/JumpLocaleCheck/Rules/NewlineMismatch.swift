import JumpForms

extension LocaleRuleDefinition {
    /// `newline-mismatch`: a message has another number of line breaks than the reference's.
    static let newlineMismatch = LocaleRuleDefinition(
        rule: .newlineMismatch,
        triggeringExamples: [
            .pair(
                """
                fields.password.tip: |-
                  At least 8 characters.
                  A long passphrase is best.
                """, "de-DE",
                """
                fields.password.tip: Mindestens 8 Zeichen. Eine lange Passphrase ist am besten.
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                fields.password.tip: |-
                  At least 8 characters.
                  A long passphrase is best.
                """, "de-DE",
                """
                fields.password.tip: |-
                  Mindestens 8 Zeichen.
                  Eine lange Passphrase ist am besten.
                """)
        ]
    )
}

extension CatalogCheck {
    func checkNewlines(_ message: borrowing LocaleMessage, _ referenceMessage: ProjectFacts.ReferenceFacts?, _ facts: TextPrescan) {
        guard let referenceMessage else { return }
        let lines = facts.newlines
        let referenceLines = referenceMessage.newlines
        if lines != referenceLines {
            add(
                .newlineMismatch, "message '\(message.key)' has \(Self.count(lines, "line break")), \(project.reference)'s has \(referenceLines)",
                at: message.valueLocation, key: message.key)
        }
    }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
}
