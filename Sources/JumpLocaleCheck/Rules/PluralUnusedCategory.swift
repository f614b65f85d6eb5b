import JumpForms

extension LocaleRule {
    /// `plural-unused-category`: a plural or selectordinal case of a category the locale's language never uses.
    public static let pluralUnusedCategory = LocaleRule(
        "plural-unused-category", code: .pluralUnusedCategory, group: .plurals, severity: .warning,
        title: "plural case the locale never uses",
        explanation: """
            The language's CLDR rules never choose the category, so the case is dead text (a `few` copied into English, `one` in Japanese). For \
            exactly zero, use `=0`.
            """,
        example: "en-US: \"{n, plural, zero {none} one {# file} other {# files}}\"",
        triggeringExamples: [
            .pair(
                """
                files.count: "{count, plural, one {# file} other {# files}}"
                """, "ja-JP",
                """
                files.count: "{count, plural, one {# 個のファイル} other {# 個のファイル}}"
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                files.count: "{count, plural, one {# file} other {# files}}"
                """, "ja-JP",
                """
                files.count: "{count, plural, other {# 個のファイル}}"
                """)
        ]
    )
}

extension CatalogCheck {
    func checkPluralUnusedCategories(_ message: borrowing LocaleMessage, _ selectors: [MessageSelectorUse]) {
        for selector in selectors where selector.kind == .plural || selector.kind == .selectordinal {
            let ordinal = selector.kind == .selectordinal
            let rules = ordinal ? ordinalRules : self.rules
            let categories = rules.categories
            guard rules.language != "root" else { continue }
            for key in selector.keys {
                guard let category = key.category, !categories.contains(category) else { continue }
                let hint = category == .zero ? "for exactly zero write '=0 {...}'; otherwise remove the case" : "remove the case"
                add(
                    .pluralUnusedCategory,
                    "message '\(message.key)': \(rules.language) never uses the \(ordinal ? "ordinal" : "plural") category '\(category.rawValue)' (it has \(categories.map(\.rawValue).joined(separator: ", ")))",
                    at: message.location(ofOffset: key.offset, length: key.text.unicodeScalars.count), key: message.key, hint: hint)
            }
        }
    }
}
