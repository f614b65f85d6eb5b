import JumpForms

extension LocaleRuleDefinition {
    /// `unknown-language`: a locale whose language CLDR does not know (no plural rules).
    static let unknownLanguage = LocaleRuleDefinition(
        rule: .unknownLanguage,
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
