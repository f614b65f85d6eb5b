import JumpForms

extension LocaleRule {
    /// `newline-mismatch`: a message has another number of line breaks than the reference's.
    public static let newlineMismatch = LocaleRule(
        "newline-mismatch", code: .newlineMismatch, group: .text, severity: .warning,
        title: "different number of line breaks",
        explanation: "The translation has more or fewer line breaks than the reference, which changes the layout of tips and multi-line texts.",
        example: "en-US: \"Line one\\nLine two\", de-DE: \"Zeile eins Zeile zwei\"",
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
