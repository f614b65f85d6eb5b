import JumpForms

extension LocaleRuleDefinition {
    /// `bidi-control`: a bidi control in a left-to-right locale, or one not closed in a right-to-left one.
    static let bidiControl = LocaleRuleDefinition(
        rule: .bidiControl,
        triggeringExamples: [
            .pair(
                """
                fields.password.label: Password
                """, "fr-FR",
                """
                fields.password.label: "Mot de \\u202Epasse"
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                fields.password.label: Password
                """, "fr-FR",
                """
                fields.password.label: Mot de passe
                """)
        ]
    )
}

extension CatalogCheck {
    func checkBidiControls(_ message: borrowing LocaleMessage) {
        if let problem = TextScan.bidiProblem(in: message.text, rightToLeft: rightToLeft) {
            let more = problem.count > 1 ? " (\(problem.count) bidi controls in all)" : ""
            add(
                .bidiControl, "message '\(message.key)' holds the bidi control \(TextScan.describe(problem.scalar)): \(problem.problem)\(more)",
                at: message.location(ofOffset: problem.offset), key: message.key)
        }
    }
}
