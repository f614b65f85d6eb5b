import JumpForms

extension LocaleRule {
    /// `ending-punctuation`: a message ends with another mark than the reference's.
    public static let endingPunctuation = LocaleRule(
        "ending-punctuation", code: .endingPunctuation, group: .text, severity: .warning,
        title: "ends with other punctuation than the reference",
        explanation: """
            The message ends with a full stop, a question mark, an exclamation mark, a colon or an ellipsis and the reference's ends \
            with another of them or with none, or the other way round: a question that is no longer one, a sentence that lost its full \
            stop, a label that lost the colon before its value, a "Loading…" without its ellipsis. Each script's own marks count as the \
            same (`.`, `。`, `।`, `۔`; `?`, `？`, `؟` and the Greek `;`; `!` and `！`; `:` and `：`; `…` and `...`); spaces before the \
            mark (the French `Adresse :`) and closing quotes, brackets and direction marks after it are skipped. Thai and Lao end \
            sentences without a mark: their messages may leave out a full stop. The pseudo-locales `locales pseudo` writes (`en-XA`, \
            `ar-XB`) are not compared: their padding ends every text.
            """,
        example: "en-US: \"Forgot your password?\", fr-FR: \"Mot de passe oublié\"",
        triggeringExamples: [
            .pair(
                """
                signIn.forgot: Forgot your password?
                """, "fr-FR",
                """
                signIn.forgot: Mot de passe oublié
                """),
            .pair(
                """
                signIn.saved: Your profile was saved.
                """, "de-DE",
                """
                signIn.saved: Ihr Profil wurde gespeichert
                """),
            .pair(
                """
                signIn.loading: Loading…
                """, "es-ES",
                """
                signIn.loading: Cargando
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
                """),
            .pair(
                """
                signIn.saved: Your profile was saved.
                """, "hi-IN",
                """
                signIn.saved: आपकी प्रोफ़ाइल सहेज ली गई।
                """),
            .pair(
                """
                signIn.forgot: Forgot your password?
                """, "ar-EG",
                """
                signIn.forgot: "هل نسيت كلمة المرور؟\\u200F"
                """),
            .pair(
                """
                signIn.saved: Your profile was saved.
                """, "th-TH",
                """
                signIn.saved: บันทึกโปรไฟล์ของคุณแล้ว
                """),
            .pair(
                """
                signIn.loading: "Loading..."
                """, "de-DE",
                """
                signIn.loading: „Wird geladen…“
                """)
        ],
        messageCheck: { check, message, context in check.checkEndingPunctuation(message, context) }
    )
}

extension CatalogCheck {
    func checkEndingPunctuation(_ message: LocaleMessage, _ context: MessageContext) {
        guard let reference = context.reference, !isPseudoLocale else { return }
        let mine = EndingMark(context.facts.text, language: tag.language)
        let theirs = reference.endingMark
        guard mine != theirs else { return }
        // Thai and Lao end sentences without a mark: a full stop left out is their way.
        if mine == .none, theirs == .fullStop, EndingMark.languagesWithoutFullStop.contains(tag.language) { return }
        let what =
            switch (mine, theirs) {
            case (.none, _): "does not end with \(theirs.name) as \(project.reference)'s does"
            case (_, .none): "ends with \(mine.name); \(project.reference)'s does not"
            default: "ends with \(mine.name) where \(project.reference)'s ends with \(theirs.name)"
            }
        add(.endingPunctuation, "message '\(message.key)' \(what)", at: message.valueLocation, key: message.key)
    }
}

/// The mark a text ends with, each script's own counted as the same.
enum EndingMark: Equatable {
    case none, fullStop, question, exclamation, colon, ellipsis

    init(_ text: String, language: String) {
        var scalars = text.unicodeScalars[...]
        while let last = scalars.last, Self.isSkipped(last) {
            scalars.removeLast()
        }
        switch scalars.last {
        case "?", "？", "؟", "\u{037E}", "፧": self = .question
        case ";" where language == "el": self = .question
        case "!", "！": self = .exclamation
        case ":", "：": self = .colon
        case "…", "⋯": self = .ellipsis
        case "." where scalars.suffix(3).elementsEqual(["." as Unicode.Scalar, ".", "."]): self = .ellipsis
        case ".", "。", "｡", "．", "।", "۔", "։", "።", "။", "។": self = .fullStop
        default: self = .none
        }
    }

    /// Whether `scalar` is skipped at the end: whitespace, a closing quote or bracket, a
    /// direction mark. ASCII (most texts' last character) is told without a table.
    static func isSkipped(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII {
            switch scalar {
            case " ", "\t", "\n", "\u{0B}", "\u{0C}", "\r", "\"", "'", ")", "]": return true
            default: return false
            }
        }
        return scalar.properties.isWhitespace || closing.contains(scalar) || directionMarks.contains(scalar.value)
    }

    /// Closing quotes and brackets, skipped at the end.
    static let closing: Set<Unicode.Scalar> = ["\"", "'", "’", "”", "“", "»", "›", ")", "]", "」", "』", "）"]

    /// Direction marks, embeddings, overrides and isolates (a right-to-left text may end with one).
    static let directionMarks: Set<UInt32> = [0x061C, 0x200E, 0x200F, 0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069]

    /// Languages whose sentences end without a mark.
    static let languagesWithoutFullStop: Set<String> = ["th", "lo"]

    var name: String {
        switch self {
        case .none: "no mark"
        case .fullStop: "a full stop"
        case .question: "a question mark"
        case .exclamation: "an exclamation mark"
        case .colon: "a colon"
        case .ellipsis: "an ellipsis"
        }
    }
}
