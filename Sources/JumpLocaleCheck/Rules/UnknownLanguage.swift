import JumpForms

extension LocaleRule {
    /// `unknown-language`: a locale whose language CLDR does not know (no plural rules).
    public static let unknownLanguage = LocaleRule(
        "unknown-language", code: .unknownLanguage, group: .files, severity: .error,
        title: "language CLDR does not know",
        explanation: """
            CLDR has no plural rules for the locale's language, so it is almost always a typo in the tag (`pk-PL` for `pl-PL`), and the file \
            would never be chosen for its users; plural checks fall back to the root rules (only `other`). The hint names the main language of \
            the tag's region and the known languages one letter away.
            """,
        example: "locales/pk-PL.yaml",
        triggeringExamples: [
            .pair(
                """
                greeting: Hello
                """, "pk-PL",
                """
                greeting: Cześć
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                greeting: Hello
                """, "pl-PL",
                """
                greeting: Cześć
                """)
        ]
    )
}

extension CatalogCheck {
    func checkLanguage() {
        guard rules.language == "root" else { return }
        let languages = PluralRules.languages.filter { !$0.contains("_") }
        add(
            .unknownLanguage,
            """
            '\(tag.language)' of \(tag) is not a language CLDR knows (it has no plural rules for it); plural checks use the root rules (only \
            'other')
            """,
            at: catalog.tag.location, key: nil, hint: LanguageHint.hint(for: tag, known: languages))
    }
}
