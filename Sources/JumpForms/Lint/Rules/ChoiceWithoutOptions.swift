extension LintRule {
    /// JF324: a select or radio field without an enabled option.
    public static let choiceWithoutOptions = LintRule(
        .choiceWithoutOptions, severity: .error,
        title: "select or radio field without options",
        explanation: "A `select` or `radio` field offers its `options`; it needs at least one enabled option.",
        triggeringExamples: [
            .signInProject(
                fields: "country: { type: select, label: f.country }",
                forms: "countryForm: { fields: [country] }",
                messages: "f.country: Country")
        ],
        nonTriggeringExamples: [
            .signInProject(
                fields: """
                    country:
                      type: select
                      label: f.country
                      options:
                        - { value: fr, label: c.france }
                        - { value: de, label: c.germany }
                    """,
                forms: "countryForm: { fields: [country] }",
                messages: """
                    f.country: Country
                    c.france: France
                    c.germany: Germany
                    """)
        ],
        check: { linter, findings in linter.checkChoiceWithoutOptions(&findings) }
    )
}

extension FlowLinter {
    func checkChoiceWithoutOptions(_ findings: inout [Diagnostic]) {
        for field in flow.fields {
            let type = field.type.value
            if type.offersOptions, !field.options.contains(where: { !$0.disabled }) {
                findings.append(
                    Diagnostic(
                        .choiceWithoutOptions, "\(type.rawValue) field '\(field.name)' has no enabled options",
                        at: field.optionsLocation ?? field.type.location))
            }
        }
    }
}
