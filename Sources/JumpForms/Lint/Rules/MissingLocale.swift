extension LintRule {
    /// JF322: the default locale or jump.yaml's `captureLocale` without a locale file.
    public static let missingLocale = LintRule(
        .missingLocale, severity: .error,
        title: "locale file missing",
        explanation: "The flow's default locale (or a locale named in `jump.yaml` or on the command line) has no file in the locales folder.",
        triggeringExamples: [
            .signInProject(defaultLocale: "fr-FR")
        ],
        nonTriggeringExamples: [
            .signInProject()
        ],
        check: { linter, findings in linter.checkMissingLocale(&findings) }
    )
}

extension FlowLinter {
    func checkMissingLocale(_ findings: inout [Diagnostic]) {
        let defaultTag = flow.defaultLocale.value
        if !catalogs.contains(where: { $0.tag.value == defaultTag }) {
            findings.append(
                Diagnostic(
                    .missingLocale, "the default locale \(defaultTag) has no locale file",
                    at: flow.defaultLocale.location, hint: "add \(defaultTag).yaml to the locales folder"))
        }
        if let config {
            let tag = config.captureLocale.value
            if LocaleMatcher(available: catalogs.map(\.tag.value)).bestMatch(for: tag) == nil {
                findings.append(
                    Diagnostic(
                        .missingLocale, "'captureLocale' is \(tag), but no locale file serves it",
                        at: config.captureLocale.location, hint: "add \(tag).yaml (or \(tag.language).yaml) to the locales folder"))
            }
        }
    }
}
