import JumpForms

extension LocaleRule {
    /// `invisible-character`: an invisible character (a control, a zero-width or format character) written as itself.
    public static let invisibleCharacter = LocaleRule(
        "invisible-character", code: .invisibleCharacter, group: .characters, severity: .warning,
        title: "invisible character",
        explanation: """
            The text holds a character that shows nothing: a zero-width space (allowed in Thai, Lao, Khmer and Burmese, which use it to mark \
            word breaks), word joiner, soft hyphen, byte-order mark, or a control character other than newline and tab. They come from copy and \
            paste and break search and comparison. One written as an escape in double quotes (`\"E-Mail\\u200B-Adresse\"`) is there on purpose \
            and is not reported.
            """,
        example: "E-Mail<U+200B>-Adresse",
        triggeringExamples: [
            .pair(
                """
                fields.email.label: Email address
                """, "de-DE",
                """
                fields.email.label: "E-Mail\u{200B}-Adresse"
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                fields.email.label: Email address
                """, "de-DE",
                """
                fields.email.label: "E-Mail\\u200B-Adresse"
                """)
        ]
    )
}

extension CatalogCheck {
    func checkInvisibleCharacters(_ message: borrowing LocaleMessage) {
        var invisibles = TextScan.invisibles(in: message.text, allowZeroWidthSpace: allowZeroWidthSpace)
        if !invisibles.isEmpty {
            // Written as an escape (`"E-Mail\u200B-Adresse"`): kept on purpose.
            let escapes = message.offsetMap.escapeOffsets
            if !escapes.isEmpty { invisibles.removeAll { escapes.contains($0.offset) } }
        }
        if let first = invisibles.first {
            let more = invisibles.count > 1 ? " (and \(invisibles.count - 1) more)" : ""
            add(
                .invisibleCharacter, "message '\(message.key)' holds the invisible character \(TextScan.describe(first.scalar))\(more)",
                at: message.location(ofOffset: first.offset), key: message.key,
                hint: "delete it (write \\u escapes in double quotes to keep one on purpose)")
        }
    }
}
