extension LintRule {
    /// JF318: a field no form lists.
    public static let unusedField = LintRule(
        .unusedField, severity: .warning,
        title: "field is never used", explanation: "The field is defined but no form lists it.",
        triggeringExamples: [
            .signInProject(fields: "nickname: { type: text, label: f.nickname }", messages: "f.nickname: Nickname")
        ],
        nonTriggeringExamples: [
            .signInProject()
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
