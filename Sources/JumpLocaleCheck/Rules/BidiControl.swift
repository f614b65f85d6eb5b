import JumpForms

extension LocaleRule {
    /// `bidi-control`: a bidi control in a left-to-right locale, or one not closed in a right-to-left one.
    public static let bidiControl = LocaleRule(
        "bidi-control", code: .bidiControl, group: .characters, severity: .error,
        title: "bidirectional control character",
        explanation: """
            In a left-to-right locale, any bidi control (marks U+200E, U+200F, U+061C; embeddings and overrides U+202A-U+202E; isolates \
            U+2066-U+2069) reorders or hides text and is refused. In right-to-left locales (Arabic, Hebrew, Persian, Urdu, ...) marks are \
            allowed, but every embedding, override or isolate must be closed (U+202C, U+2069) within the message.
            """,
        example: "fr-FR: \"Mot de passe\\u202E\"",
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
