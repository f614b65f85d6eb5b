import JumpForms

extension LocaleRule {
    /// `missing-locale-file`: a locale the flows, jump.yaml or the options require has no file.
    public static let missingLocaleFile = LocaleRule(
        "missing-locale-file", code: .missingLocaleFile, group: .files, severity: .error,
        title: "locale has no file",
        explanation: """
            A locale named on the command line (`--reference`, `--locale`), by `captureLocale` in jump.yaml or by a flow's `defaultLocale` has \
            no `<tag>.yaml` in the locales folder. It is reported, never skipped: a typo in a tag must not turn a check into a silent pass.
            """,
        example: "jump-forms locales check --locale pl-PK",
        triggeringExamples: [
            LocaleRuleExample(
                files: [
                    .init("locales/en-US.yaml", "locale: en-US\nmessages:\n  greeting: Hello\n"),
                    .init("locales/pl-PL.yaml", "locale: pl-PL\nmessages:\n  greeting: Cześć\n")
                ], options: ["--reference", "en-US", "--locale", "pl-PL", "--locale", "pt-PT"])
        ],
        nonTriggeringExamples: [
            LocaleRuleExample(
                files: [
                    .init("locales/en-US.yaml", "locale: en-US\nmessages:\n  greeting: Hello\n"),
                    .init("locales/pl-PL.yaml", "locale: pl-PL\nmessages:\n  greeting: Cześć\n")
                ], options: ["--reference", "en-US", "--locale", "pl-PL"])
        ]
    )
}

extension LocaleChecker {
    /// `missing-locale-file`: each required locale without a catalog, once (also used by
    /// `locales coverage`, which must not measure against a locale that has no file). A locale
    /// that only has to be served (`captureLocale`) is not missing when a file serves it as
    /// `LocaleMatcher` negotiates (fr-FR.yaml for fr-CA).
    public static func missingLocaleFiles(_ required: [RequiredLocale], catalogs: [LocaleCatalog]) -> [LocaleFinding] {
        var findings: [LocaleFinding] = []
        let present = Set(catalogs.map(\.tag.value))
        var reported = Set<LocaleTag>()
        let known = catalogs.map(\.tag.value.identifier)
        let folder = catalogs.first.map { " in " + ProjectFacts.folder(of: $0.path) } ?? ""
        let matcher = LocaleMatcher(available: catalogs.map(\.tag.value).sorted())
        for required in required where !present.contains(required.tag) {
            if required.servedByAnother, matcher.bestMatch(for: required.tag) != nil { continue }
            guard reported.insert(required.tag).inserted else { continue }
            // The file that serves the locale (fr-FR.yaml for fr), else a similar name.
            let served = matcher.bestMatch(for: required.tag).map {
                "did you mean '\($0)'? (\($0).yaml serves \(required.tag)), or add \(required.tag).yaml"
            }
            findings.append(
                LocaleFinding(
                    .missingLocaleFile, "\(required.tag) (\(required.origin)) has no locale file\(folder)",
                    at: required.location, file: required.location?.file ?? "", key: nil,
                    hint: served ?? Suggestion.hint(for: required.tag.identifier, among: known) ?? "add \(required.tag).yaml, or correct the tag"))
        }
        return findings
    }
}
