import JumpForms

extension LocaleRule {
    /// `whitespace-edge`: a message starts or ends with whitespace unlike the reference's.
    public static let whitespaceEdge = LocaleRule(
        "whitespace-edge", code: .whitespaceEdge, group: .text, severity: .warning,
        title: "leading or trailing whitespace",
        explanation: """
            The message starts or ends with whitespace (a space, or the newline that a `|` block keeps) where the reference's does not, or lacks \
            it where the reference has it. In the reference itself, any edge whitespace is reported.
            """,
        example: "\"Nom complet \"",
        triggeringExamples: [
            .pair(
                """
                fields.name.label: Full name
                """, "fr-FR",
                """
                fields.name.label: "Nom complet "
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                fields.name.label: Full name
                """, "fr-FR",
                """
                fields.name.label: Nom complet
                """)
        ]
    )
}

extension CatalogCheck {
    func checkWhitespaceEdges(_ message: borrowing LocaleMessage, _ referenceMessage: ProjectFacts.ReferenceFacts?, _ facts: TextPrescan) {
        let scalars = facts.text.unicodeScalars
        let leading = facts.startsWithWhitespace
        let trailing = facts.endsWithWhitespace
        let referenceLeading = referenceMessage?.leading ?? false
        let referenceTrailing = referenceMessage?.trailing ?? false
        var problems: [String] = []
        var offset = 0
        func describe(_ scalar: Unicode.Scalar?) -> String { scalar == "\n" ? "a line break" : scalar == " " ? "a space" : "whitespace" }
        if leading != referenceLeading || (leading && referenceMessage == nil) {
            problems.append(leading ? "starts with \(describe(scalars.first))" : "does not start with whitespace as \(project.reference)'s does")
        }
        if trailing != referenceTrailing || (trailing && referenceMessage == nil) {
            problems.append(trailing ? "ends with \(describe(scalars.last))" : "does not end with whitespace as \(project.reference)'s does")
            if trailing && problems.count == 1 { offset = scalars.count - 1 }
        }
        if !problems.isEmpty {
            add(
                .whitespaceEdge, "message '\(message.key)' \(problems.joined(separator: " and "))",
                at: message.location(ofOffset: offset), key: message.key,
                hint: leading || trailing ? "remove it (the layout adds the spacing it needs)" : nil)
        }
    }
}
