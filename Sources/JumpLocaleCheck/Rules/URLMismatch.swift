import JumpForms

extension LocaleRuleDefinition {
    /// `url-mismatch`: links differ from the reference's.
    static let urlMismatch = LocaleRuleDefinition(
        rule: .urlMismatch,
        triggeringExamples: [
            .pair(
                """
                help: "Read https://example.com/help/privacy first."
                """, "fr-FR",
                """
                help: "Lisez d'abord https://exmaple.com/help/privacy."
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                help: "Read https://example.com/help/privacy first."
                """, "fr-FR",
                """
                help: "Lisez d'abord https://example.com/help/privacy."
                """)
        ]
    )
}

extension CatalogCheck {
    func checkUrlMismatch(_ message: borrowing LocaleMessage, literal: [String], _ reference: ProjectFacts.ReferenceFacts, _ facts: TextPrescan) {
        let urls = facts.mayHoldURL ? TextScan.urls(in: literal) : []
        if urls != reference.urls {
            add(
                .urlMismatch, "message '\(message.key)': links differ from \(project.reference)'s: " + Self.difference(urls, reference.urls),
                at: message.valueLocation, key: message.key)
        }
    }
}
