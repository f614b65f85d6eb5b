extension LintRule {
    /// JF306: a `pattern` rule whose expression does not compile.
    public static let invalidPattern = LintRule(
        .invalidPattern, severity: .error,
        title: "pattern does not compile", explanation: "The `pattern` rule's regular expression has a syntax error.",
        triggeringExamples: [
            .signInProject(
                emailValidation: """
                    - { rule: pattern, value: "@corp\\\\.example$)", message: v.pattern }
                    """,
                messages: """
                    v.pattern: "{label} must be a corp.example address."
                    """)
        ],
        nonTriggeringExamples: [
            .signInProject(
                emailValidation: """
                    - { rule: pattern, value: "@corp\\\\.example$", message: v.pattern }
                    """,
                messages: """
                    v.pattern: "{label} must be a corp.example address."
                    """)
        ],
        check: { linter, findings in linter.checkInvalidPattern(&findings) }
    )
}

extension FlowLinter {
    func checkInvalidPattern(_ findings: inout [Diagnostic]) {
        var checked: [String: PatternCheck] = [:]
        for field in flow.fields {
            for rule in field.validation where rule.kind == .pattern {
                guard case .text(let source) = rule.value else { continue }
                let check = checked[source] ?? Self.checkPattern(source)
                checked[source] = check
                if case .fails(let error) = check {
                    findings.append(Diagnostic(.invalidPattern, "pattern does not compile: \(error)", at: rule.valueLocation ?? rule.location))
                }
            }
        }
    }
}
