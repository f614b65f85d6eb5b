/// The `JF5xx` codes of `jump-forms locales`: each is also a *rule* with a stable,
/// human-readable id (`missing-key`, `plural-missing-category`, ...). The id is what the text
/// output, SARIF and baselines show; the number keeps every code in one list
/// (docs/diagnostics.md). The rules of `jump-forms locales check` are `LocaleRule`s (module
/// JumpLocaleCheck), one file each, which feed docs/locales.md and this module's generated table.
extension DiagnosticCode {
    /// The rule id of a locale check or interchange code (`missing-key`); nil for other codes.
    public var ruleID: String? { Self.localeCatalog[self]?.rule }

    /// How the code is shown in `error[...]`: the rule id when there is one, else `JF123`.
    public var displayName: String { ruleID ?? rawValue }

    /// The code whose rule id is `id`.
    public init?(ruleID id: String) {
        guard let code = Self.codesByRuleID[id] else { return nil }
        self = code
    }

    private static let codesByRuleID: [String: DiagnosticCode] = {
        var result: [String: DiagnosticCode] = [:]
        for (code, entry) in localeCatalog { result[entry.rule] = code }
        return result
    }()

    struct LocaleEntry {
        var rule: String
        var severity: Diagnostic.Severity
        var title: String
        var explanation: String
        var example: String
    }

    /// Every `JF5xx` code's entry: the rules' of `jump-forms locales check`, generated from their
    /// files (DiagnosticCode+LocaleRules.generated.swift), and the interchange codes'.
    static let localeCatalog: [DiagnosticCode: LocaleEntry] = {
        var result = interchangeCatalog
        for (number, entry) in localeRuleCatalog {
            if let code = DiagnosticCode(rawValue: number) { result[code] = entry }
        }
        return result
    }()

    // swiftlint:disable line_length
    static let interchangeCatalog: [DiagnosticCode: LocaleEntry] = [
        .interchangeSyntax: LocaleEntry(
            rule: "interchange-syntax", severity: .error, title: "interchange file cannot be read",
            explanation:
                """
                An Apple `.strings`, `.xcstrings` or Android `strings.xml` file has a syntax or encoding error at this place (the line and column \
                are those of the file, in any of its encodings).
                """,
            example: "\"greeting\" = \"Hello\" (no `;`)"),
        .interchangeDuplicateKey: LocaleEntry(
            rule: "interchange-duplicate-key", severity: .error, title: "key written twice in an interchange file",
            explanation:
                """
                The same key appears twice in a `.strings` file, a String Catalog or a `strings.xml`; apps keep one of them silently. Both lines are \
                named.
                """,
            example: "\"ok\" = \"OK\";\\n\"ok\" = \"Okay\";"),
        .interchangeUnsupported: LocaleEntry(
            rule: "interchange-unsupported", severity: .error, title: "not representable in the interchange format",
            explanation:
                """
                The element or value has no equivalent on the other side: Android `<string-array>`, String Catalog device variations, a key that is \
                not a valid Android resource name, or a plural category name the format does not know.
                """,
            example: "<string-array name=\"planets\">"),
        .interchangeArgument: LocaleEntry(
            rule: "interchange-argument", severity: .error, title: "placeholder does not map to an argument",
            explanation:
                """
                `%1$s`-style placeholders map to named ICU arguments through the declared argument order (`--argument-order`, then the reference \
                message's arguments in order of first use). The placeholder's position names no argument, or a placeholder without a position was \
                mixed with positional ones. A placeholder whose formatting ICU cannot say (`%x`, `%e`, `%.0f`; `%.2f` becomes `{value, number, \
                ::.00}`) is a warning: it becomes a plain number.
                """,
            example: "\"%4$s\" with the order label, field, value")
    ]
    // swiftlint:enable line_length
}
