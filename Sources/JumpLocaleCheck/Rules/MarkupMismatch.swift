import JumpForms

extension LocaleRule {
    /// `markup-mismatch`: markup tags differ from the reference's.
    public static let markupMismatch = LocaleRule(
        "markup-mismatch", code: .markupMismatch, group: .text, severity: .error,
        title: "markup tags differ from the reference",
        explanation: """
            The set of tags (`<b>`, `</b>`, `<a>`, `<br/>`) in the translation differs from the reference's: a tag was dropped, added, renamed \
            or left unclosed.
            """,
        example: "en-US: \"<b>Note</b>: ...\", de-DE: \"<b>Hinweis: ...\"",
        triggeringExamples: [
            .pair(
                """
                notice: "<b>Note:</b> your address stays private."
                """, "de-DE",
                """
                notice: "<b>Hinweis: Ihre Adresse bleibt privat."
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                notice: "<b>Note:</b> your address stays private."
                """, "de-DE",
                """
                notice: "<b>Hinweis:</b> Ihre Adresse bleibt privat."
                """)
        ]
    )
}

extension CatalogCheck {
    func checkMarkupMismatch(_ message: borrowing LocaleMessage, literal: [String], _ reference: ProjectFacts.ReferenceFacts, _ facts: TextPrescan) {
        let tags = facts.hasTag ? TextScan.tags(in: literal) : []
        if tags != reference.tags {
            add(
                .markupMismatch, "message '\(message.key)': markup differs from \(project.reference)'s: " + Self.difference(tags, reference.tags),
                at: message.valueLocation, key: message.key)
        }
    }

    /// `lacks </b>; adds <i>`.
    static func difference(_ mine: [String], _ theirs: [String]) -> String {
        let lacking = theirs.filter { !mine.contains($0) }
        let adding = mine.filter { !theirs.contains($0) }
        var parts: [String] = []
        if !lacking.isEmpty { parts.append("lacks " + lacking.joined(separator: ", ")) }
        if !adding.isEmpty { parts.append("adds " + adding.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }
}
