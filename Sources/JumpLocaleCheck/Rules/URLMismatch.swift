import JumpForms

extension LocaleRule {
    /// `url-mismatch`: links differ from the reference's.
    public static let urlMismatch = LocaleRule(
        "url-mismatch", code: .urlMismatch, group: .text, severity: .warning,
        title: "URLs differ from the reference",
        explanation: """
            The translation links to different addresses (`https://...`, `www....`, `mailto:...`) than the reference. Localized pages are fine \
            to keep in the baseline; typos are not.
            """,
        example: "en-US: \"See https://example.com/help\", fr-FR: \"Voir https://exmaple.com/help\"",
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
