extension LintRule {
    /// JF326: options on a field that shows none.
    public static let optionsOnNonChoiceField = LintRule(
        .optionsOnNonChoiceField, severity: .warning,
        title: "options on a field that shows none", explanation: "Only `select` and `radio` fields show options.",
        triggeringExamples: [
            .signInProject(
                fields: """
                    country:
                      type: text
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
        check: { linter, findings in linter.checkOptionsOnNonChoiceField(&findings) }
    )
}

extension FlowLinter {
    func checkOptionsOnNonChoiceField(_ findings: inout [Diagnostic]) {
        for field in flow.fields {
            let type = field.type.value
            if !type.offersOptions, !field.options.isEmpty {
                findings.append(
                    Diagnostic(
                        .optionsOnNonChoiceField,
                        "\(type.rawValue) field '\(field.name)' has options, but only select and radio fields show them",
                        at: field.optionsLocation ?? field.location))
            }
        }
    }
}
