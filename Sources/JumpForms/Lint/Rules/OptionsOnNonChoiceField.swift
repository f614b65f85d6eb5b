extension LintRule {
    /// JF326: options on a field that shows none.
    public static let optionsOnNonChoiceField = LintRule(
        .optionsOnNonChoiceField, severity: .warning,
        title: "options on a field that shows none", explanation: "Only `select` and `radio` fields show options.",
        triggeringExamples: [
            .project(
                flow: """
                    flow: example
                    version: "1"
                    defaultLocale: en-US
                    locales: locales
                    fields:
                      email: { type: email, label: f.email }
                      password: { type: password, label: f.password }
                      country:
                        type: text
                        label: f.country
                        options:
                          - { value: fr, label: c.france }
                          - { value: de, label: c.germany }
                    forms:
                      signInForm: { fields: [email, password] }
                      countryForm: { fields: [country] }
                    """,
                messages: """
                    f.email: Email
                    f.password: Password
                    f.country: Country
                    c.france: France
                    c.germany: Germany
                    """)
        ],
        nonTriggeringExamples: [
            .project(
                flow: """
                    flow: example
                    version: "1"
                    defaultLocale: en-US
                    locales: locales
                    fields:
                      email: { type: email, label: f.email }
                      password: { type: password, label: f.password }
                      country:
                        type: select
                        label: f.country
                        options:
                          - { value: fr, label: c.france }
                          - { value: de, label: c.germany }
                    forms:
                      signInForm: { fields: [email, password] }
                      countryForm: { fields: [country] }
                    """,
                messages: """
                    f.email: Email
                    f.password: Password
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
