extension LintRule {
    /// JF310: two options of a field with one value.
    public static let duplicateOptionValue = LintRule(
        .duplicateOptionValue, severity: .error,
        title: "duplicate option value", explanation: "Two options of one field have the same `value`.",
        triggeringExamples: [
            .signInProject(
                fields: """
                    country:
                      type: select
                      label: f.country
                      options:
                        - { value: fr, label: c.france }
                        - { value: fr, label: c.germany }
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
        check: { linter, findings in linter.checkDuplicateOptionValue(&findings) }
    )
}

extension FlowLinter {
    func checkDuplicateOptionValue(_ findings: inout [Diagnostic]) {
        for field in flow.fields {
            var optionValues: [String: SourceLocation] = [:]
            for option in field.options {
                if let first = optionValues[option.value.value] {
                    findings.append(
                        Diagnostic(
                            .duplicateOptionValue, "field '\(field.name)' has two options with value '\(option.value.value)'",
                            at: option.value.location, related: [.init("first option with this value", at: first)]))
                } else {
                    optionValues[option.value.value] = option.value.location
                }
            }
        }
    }
}
