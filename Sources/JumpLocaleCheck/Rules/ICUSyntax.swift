import JumpForms

extension LocaleRule {
    /// `icu-syntax`: a message that is not valid ICU MessageFormat.
    public static let icuSyntax = LocaleRule(
        "icu-syntax", code: .localeICUSyntax, group: .syntax, severity: .error,
        title: "ICU message syntax error",
        explanation: """
            The message is not valid ICU MessageFormat; the place points inside the value in the locale file, even in quoted, escaped or \
            multi-line values.
            """,
        example: "\"{count, plural, one {# item}\"",
        triggeringExamples: [
            .pair(
                """
                validation.minLength: "{value, plural, one {At least # character.} other {At least # characters.}}"
                """, "es-ES",
                """
                validation.minLength: "{value, plural, one {Al menos # carácter.} other {Al menos # caracteres.}"
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                validation.minLength: "{value, plural, one {At least # character.} other {At least # characters.}}"
                """, "es-ES",
                """
                validation.minLength: "{value, plural, one {Al menos # carácter.} other {Al menos # caracteres.}}"
                """)
        ]
    )
}

extension CatalogCheck {
    /// The message's syntax tree, or nil after reporting its syntax error (`select-without-other`
    /// for a select without an `other` case).
    func checkICUSyntax(_ message: borrowing LocaleMessage, _ text: String) -> MessagePattern? {
        switch MessagePattern.parse(text) {
        case .success(let pattern):
            return pattern
        case .failure(let error):
            if error.isMissingOtherCase {
                reportSelectWithoutOther(message, error)
            } else {
                add(
                    .icuSyntax, "message '\(message.key)': \(error.message)", at: message.location(ofOffset: error.offset), key: message.key,
                    hint: error.hint)
            }
            return nil
        }
    }
}
