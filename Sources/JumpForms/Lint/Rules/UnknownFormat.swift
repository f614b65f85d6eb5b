extension LintRule {
    /// JF305: a `format` rule naming no known format.
    public static let unknownFormat = LintRule(
        .unknownFormat, severity: .error,
        title: "unknown format", explanation: "`format` takes one of the documented formats (see docs/flow-format.md).",
        triggeringExamples: [
            .signInProject(
                emailValidation: "- { rule: format, value: emial, message: v.email }",
                messages: """
                    v.email: "{label} is not an email address."
                    """)
        ],
        nonTriggeringExamples: [
            .signInProject(
                emailValidation: "- { rule: format, value: email, message: v.email }",
                messages: """
                    v.email: "{label} is not an email address."
                    """)
        ],
        check: { linter, findings in linter.checkUnknownFormat(&findings) }
    )
}

extension FlowLinter {
    func checkUnknownFormat(_ findings: inout [Diagnostic]) {
        for field in flow.fields {
            for rule in field.validation where rule.kind == .format {
                guard case .text(let name) = rule.value, Format(rawValue: name) == nil else { continue }
                findings.append(
                    Diagnostic(
                        .unknownFormat, "unknown format '\(name)'", at: rule.valueLocation ?? rule.location,
                        hint: Suggestion.hint(for: name, among: Format.allCases.map(\.rawValue))
                            ?? "formats: \(Format.allCases.map(\.rawValue).joined(separator: ", "))"))
            }
        }
    }
}
