extension LintRule {
    /// JF318: a field no form lists.
    public static let unusedField = LintRule(
        .unusedField, severity: .warning,
        title: "field is never used", explanation: "The field is defined but no form lists it.",
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
                      nickname: { type: text, label: f.nickname }
                    forms:
                      signInForm: { fields: [email, password] }
                    """,
                messages: """
                    f.email: Email
                    f.password: Password
                    f.nickname: Nickname
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
                    forms:
                      signInForm: { fields: [email, password] }
                    """)
        ],
        check: { linter, findings in linter.checkUnusedField(&findings) }
    )
}

extension FlowLinter {
    func checkUnusedField(_ findings: inout [Diagnostic]) {
        let used = Set(flow.forms.flatMap { $0.fields.map(\.value) })
        for field in flow.fields where !used.contains(field.name) {
            findings.append(Diagnostic(.unusedField, "field '\(field.name)' is not used by any form", at: field.location))
        }
    }
}
