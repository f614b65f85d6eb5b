import JumpForms

extension LocaleRuleDefinition {
    /// `number-mismatch`: numbers differ from the reference's.
    static let numberMismatch = LocaleRuleDefinition(
        rule: .numberMismatch,
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
