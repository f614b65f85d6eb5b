extension LintRule {
    /// JF306: a `pattern` rule whose expression does not compile.
    public static let invalidPattern = LintRule(
        .invalidPattern, severity: .error,
        title: "pattern does not compile", explanation: "The `pattern` rule's regular expression has a syntax error.",
        triggeringExamples: [
            .project(
                flow: """
                    flow: example
                    version: "1"
                    defaultLocale: en-US
                    locales: locales
                    fields:
                      email:
                        type: email
                        label: f.email
                        validation:
                          - { rule: pattern, value: "@corp\\\\.example$)", message: v.pattern }
                      password: { type: password, label: f.password }
                    forms:
                      signInForm: { fields: [email, password] }
                    """,
                messages: """
                    f.email: Email
                    f.password: Password
                    v.pattern: "{label} must be a corp.example address."
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
                      email:
                        type: email
                        label: f.email
                        validation:
                          - { rule: pattern, value: "@corp\\\\.example$", message: v.pattern }
                      password: { type: password, label: f.password }
                    forms:
                      signInForm: { fields: [email, password] }
                    """,
                messages: """
                    f.email: Email
                    f.password: Password
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
