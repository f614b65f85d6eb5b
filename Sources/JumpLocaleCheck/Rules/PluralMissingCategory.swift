import JumpForms

extension LocaleRule {
    /// `plural-missing-category`: a plural or selectordinal lacks a category the locale's language uses.
    public static let pluralMissingCategory = LocaleRule(
        "plural-missing-category", code: .pluralMissingCategory, group: .plurals, severity: .error,
        title: "plural lacks a category the locale needs",
        explanation: """
            CLDR's plural rules for the locale's language use the category, and the `plural` argument has no case for it (nor `=N` cases \
            covering all its numbers), so those numbers show the `other` text. The message names numbers that prove it, from CLDR's samples.
            """,
        example: "pl-PL: \"{n, plural, one {# plik} other {# plików}}\" (no 'few': 2, 3, 4, 22...)",
        triggeringExamples: [
            .pair(
                """
                files.count: "{count, plural, one {# file} other {# files}}"
                """, "pl-PL",
                """
                files.count: "{count, plural, one {# plik} other {# plików}}"
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                files.count: "{count, plural, one {# file} other {# files}}"
                """, "pl-PL",
                """
                files.count: "{count, plural, one {# plik} few {# pliki} many {# plików} other {# pliku}}"
                """)
        ]
    )
}

extension CatalogCheck {
    func checkPluralMissingCategories(_ message: borrowing LocaleMessage, _ selectors: [MessageSelectorUse]) {
        for selector in selectors where selector.kind == .plural || selector.kind == .selectordinal {
            let ordinal = selector.kind == .selectordinal
            let rules = ordinal ? ordinalRules : self.rules
            let present = Set(selector.categories)
            let exact = Set(selector.keys.filter(\.isExactMatch).map { Self.normalizedNumber(String($0.text.dropFirst())) })
            for category in rules.categories
            where !present.contains(category) && !covered(category, rules: rules, exact: exact, offset: selector.pluralOffset) {
                let samples = Self.sampleText(
                    ordinal ? PluralSamples(integers: rules.samples(for: category).integers, decimals: []) : rules.samples(for: category))
                add(
                    .pluralMissingCategory,
                    "message '\(message.key)': \(ordinal ? "selectordinal" : "plural") {\(selector.name)} lacks '\(category.rawValue)', which \(rules.language) uses for \(ordinal ? "the ordinals " : "")\(samples); they would show the 'other' text",
                    at: message.location(ofOffset: selector.nameOffset, length: selector.name.unicodeScalars.count), key: message.key,
                    hint: "add a '\(category.rawValue) {...}' case")
            }
        }
    }

    /// Whether `=N` cases match every number of a category (only small, finite categories:
    /// English `one` is covered by `=1`).
    func covered(_ category: PluralCategory, rules: PluralRules, exact: Set<String>, offset: Int) -> Bool {
        guard offset == 0, !exact.isEmpty else { return false }
        let samples = rules.samples(for: category)
        let all = samples.integers + samples.decimals
        guard !all.isEmpty, samples.integers.count < 10, !all.contains(where: { $0.contains("c") || $0.contains("e") }) else { return false }
        return all.allSatisfy { exact.contains(Self.normalizedNumber($0)) }
    }

    /// `01.50` -> `1.5`, `-0` -> `0`.
    static func normalizedNumber(_ text: String) -> String {
        var negative = false
        var body = Substring(text)
        if body.first == "-" { negative = true; body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        var whole = String(parts[0].drop { $0 == "0" })
        if whole.isEmpty { whole = "0" }
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let value = fraction.isEmpty ? whole : whole + "." + fraction
        return negative && value != "0" ? "-" + value : value
    }

    /// `2, 3, 4, 22, 23, 24…` (decimals when a category has no integers).
    static func sampleText(_ samples: PluralSamples) -> String {
        let plain = { (list: [String]) in list.filter { !$0.contains("c") && !$0.contains("e") } }
        let integers = plain(samples.integers)
        let list = integers.isEmpty ? plain(samples.decimals) : integers
        let shown = list.prefix(6).joined(separator: ", ")
        return list.count > 6 || samples.integers.count >= 10 ? shown + "…" : shown
    }
}
