import JumpForms

extension LocaleRule {
    /// `ending-punctuation`: a message ends with another mark than the reference's.
    public static let endingPunctuation = LocaleRule(
        "ending-punctuation", code: .endingPunctuation, group: .text, severity: .warning,
        title: "ends with other punctuation than the reference",
        explanation: """
            The message ends with a question mark, an exclamation mark, a colon or an ellipsis and the reference's ends with another of \
            them or with none, or the other way round: a question that is no longer one, a label that lost the colon before its value, a \
            "Loading…" without its ellipsis. Each script's own marks count as the same (`?`, `？`, `؟` and the Greek `;`; `:` and `：`; `…` \
            and `...`); spaces before the mark (the French `Adresse :`) and closing quotes or brackets after it are skipped. Full stops \
            are not compared: languages differ on them.
            """,
        example: "en-US: \"Forgot your password?\", fr-FR: \"Mot de passe oublié\"",
        triggeringExamples: [
            .pair(
                """
                signIn.forgot: Forgot your password?
                """, "fr-FR",
                """
                signIn.forgot: Mot de passe oublié
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                signIn.forgot: Forgot your password?
                """, "fr-FR",
                """
                signIn.forgot: Mot de passe oublié ?
                """),
            .pair(
                """
                signIn.forgot: Forgot your password?
                """, "ja-JP",
                """
                signIn.forgot: パスワードをお忘れですか？
                """)
        ],
        messageCheck: { check, message, context in check.checkEndingPunctuation(message, context) }
    )
}

extension CatalogCheck {
    func checkEndingPunctuation(_ message: LocaleMessage, _ context: MessageContext) {
        guard let reference = context.reference else { return }
        let mine = EndingMark(context.facts.text, language: tag.language)
        let theirs = EndingMark(reference.text, language: project.reference.language)
        guard mine != theirs else { return }
        let what =
            switch (mine, theirs) {
            case (.none, _): "does not end with \(theirs.name) as \(project.reference)'s does"
            case (_, .none): "ends with \(mine.name); \(project.reference)'s does not"
            default: "ends with \(mine.name) where \(project.reference)'s ends with \(theirs.name)"
            }
        add(.endingPunctuation, "message '\(message.key)' \(what)", at: message.valueLocation, key: message.key)
    }
}

/// The mark a text ends with, of those that carry meaning (a full stop does not count).
enum EndingMark: Equatable {
    case none, question, exclamation, colon, ellipsis

    init(_ text: String, language: String) {
        var scalars = text.unicodeScalars[...]
        while let last = scalars.last, last.properties.isWhitespace || Self.closing.contains(last) { scalars.removeLast() }
        switch scalars.last {
        case "?", "？", "؟", "\u{037E}": self = .question
        case ";" where language == "el": self = .question
        case "!", "！": self = .exclamation
        case ":", "：": self = .colon
        case "…", "⋯": self = .ellipsis
        case "." where scalars.suffix(3).elementsEqual(["." as Unicode.Scalar, ".", "."]): self = .ellipsis
        default: self = .none
        }
    }

    /// Closing quotes and brackets, skipped at the end.
    static let closing: Set<Unicode.Scalar> = ["\"", "'", "’", "”", "»", "›", ")", "]", "」", "』", "）"]

    var name: String {
        switch self {
        case .none: "no mark"
        case .question: "a question mark"
        case .exclamation: "an exclamation mark"
        case .colon: "a colon"
        case .ellipsis: "an ellipsis"
        }
    }
}
