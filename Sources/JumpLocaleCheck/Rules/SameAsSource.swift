import JumpForms

extension LocaleRule {
    /// `same-as-source`: a translation that is the reference's text, in another language.
    public static let sameAsSource = LocaleRule(
        "same-as-source", code: .localeSameAsSource, group: .files, severity: .warning,
        title: "message is the reference text",
        explanation: """
            The translation is identical to the reference locale's text and has letters to translate, so it was probably never translated. \
            Arguments (`{n}`, `%@`, `%1$d`), numbers, links, e-mail addresses and unit symbols (`h`, `min`, `km/h`, `MB`) have none: `%@h` and \
            `{n} min` are the same in every language. Names that stay the same (brands, `Canada` in French) go in the locale file's \
            `sameAsSource` list (keys or `*` patterns). Locales of the reference's language (`en-GB` for `en-US`) are not checked.
            """,
        example: "fr-FR.yaml: fields.email.label: Email address",
        triggeringExamples: [
            .pair(
                """
                fields.email.label: Email address
                options.country.CA: Canada
                """, "fr-FR",
                """
                sameAsSource: [options.country.CA]
                messages:
                  fields.email.label: Email address
                  options.country.CA: Canada
                """, messagesGiven: true)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                fields.email.label: Email address
                options.country.CA: Canada
                """, "fr-FR",
                """
                sameAsSource: [options.country.CA]
                messages:
                  fields.email.label: Adresse e-mail
                  options.country.CA: Canada
                """, messagesGiven: true)
        ]
    )
}

extension CatalogCheck {
    /// Whether the message is the reference's text, reported unless the language is the
    /// reference's, the key may stay the same, or the text has nothing to translate.
    func checkSameAsSource(
        _ message: borrowing LocaleMessage, _ text: String, _ pattern: MessagePattern, _ reference: ProjectFacts.ReferenceFacts
    ) -> Bool {
        guard Self.mayBeEqual(text, reference.text), text == reference.text else { return false }
        if !sameLanguageAsReference, !isAllowedSame(message.key), TextScan.hasTranslatableLetters(TextScan.literalText(pattern)) {
            add(
                .sameAsSource, "message '\(message.key)' is the \(project.reference) text, untranslated", at: message.valueLocation,
                key: message.key, hint: "translate it, or list the key under 'sameAsSource' when the text is the same in \(tag.language)")
        }
        return true
    }

    /// False when two texts start with different ASCII characters, so cannot be equal: an
    /// ASCII character is a starter that canonical decomposition keeps first, so this never
    /// contradicts `==` (which compares canonical equivalence, slowly for non-ASCII text).
    static func mayBeEqual(_ lhs: String, _ rhs: String) -> Bool {
        guard let left = lhs.utf8.first, let right = rhs.utf8.first, left < 0x80, right < 0x80 else { return true }
        return left == right
    }

    func isAllowedSame(_ key: String) -> Bool {
        allowedSame.contains { Glob.matches($0, key) }
    }
}
