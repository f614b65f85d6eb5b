import JumpForms

extension LocaleRule {
    /// `number-mismatch`: numbers differ from the reference's.
    public static let numberMismatch = LocaleRule(
        "number-mismatch", code: .numberMismatch, group: .text, severity: .warning,
        title: "numbers differ from the reference",
        explanation: """
            The translation's text has different numbers than the reference's. Group separators do not count (`1,000` equals `1 000` and \
            `1.000`): a `.`, `,`, space or apostrophe between digits groups them only when exactly three digits follow; otherwise a `.` or `,` \
            is a decimal mark, so `1.5` equals `1,5` and differs from `15`. Digits of any script are read. International phone numbers (`+48 512 \
            345 678`) are localized examples and are not compared; neither are numbers inside arguments and URLs.
            """,
        example: "en-US: \"3 to 40 characters\", es-ES: \"De 3 a 4 caracteres\"",
        triggeringExamples: [
            .pair(
                """
                fields.name.tip: Use 3 to 40 characters.
                """, "es-ES",
                """
                fields.name.tip: Usa de 3 a 4 caracteres.
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                fields.name.tip: Use 3 to 40 characters.
                """, "es-ES",
                """
                fields.name.tip: Usa de 3 a 40 caracteres.
                """)
        ]
    )
}

extension CatalogCheck {
    func checkNumberMismatch(_ message: borrowing LocaleMessage, literal: [String], _ reference: ProjectFacts.ReferenceFacts, _ facts: TextPrescan) {
        let numbers = facts.hasDigit ? TextScan.numbers(in: literal) : []
        if numbers != reference.numbers {
            add(
                .numberMismatch,
                "message '\(message.key)': numbers differ from \(project.reference)'s: " + Self.difference(numbers, reference.numbers),
                at: message.valueLocation, key: message.key)
        }
    }
}
