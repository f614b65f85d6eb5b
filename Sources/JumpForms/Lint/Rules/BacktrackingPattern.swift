extension LintRule {
    /// JF307: a `pattern` rule prone to catastrophic backtracking.
    public static let backtrackingPattern = LintRule(
        .backtrackingPattern, severity: .warning,
        title: "pattern prone to catastrophic backtracking",
        explanation:
            """
            A repeated group (`*`, `+`, `{n,}`, `{n,m}`) whose repetitions may split the same text in more than one way: matching an input that \
            fails can then take exponential time. Two shapes are reported. A quantifier inside the group, at any depth (`(a+)+`, `(\\w*)*`, \
            `((a+))+`, `((a+)|b)+`): rewrite so that each character is matched once. Alternatives that can match the same text, alone or several \
            in a row (`(a|a)*`, `(\\w|\\d)+` where a digit is also a word character, `(a|aa)+`, `(a|b|ab)*`): make them exclusive (`\\w+`, `a+`, \
            `[ab]*`). The alternative check is exact for alternatives of characters, classes and fixed counts, and skips what it cannot read (`\
            \\p{L}`, optional parts); possessive quantifiers (`a++`) and atomic groups (`(?>...)`) never backtrack and are not reported.
            """,
        triggeringExamples: [
            .signInProject(
                fields: """
                    username:
                      type: text
                      label: f.username
                      validation:
                        - { rule: pattern, value: "^([a-z]+\\\\.?)+$", message: v.username }
                    """,
                forms: "usernameForm: { fields: [username] }",
                messages: """
                    f.username: Username
                    v.username: "{label} takes letters and dots."
                    """),
            .signInProject(
                fields: """
                    username:
                      type: text
                      label: f.username
                      validation:
                        - { rule: pattern, value: "^(\\\\w|\\\\d)+$", message: v.username }
                    """,
                forms: "usernameForm: { fields: [username] }",
                messages: """
                    f.username: Username
                    v.username: "{label} takes letters and digits."
                    """)
        ],
        nonTriggeringExamples: [
            .signInProject(
                fields: """
                    username:
                      type: text
                      label: f.username
                      validation:
                        - { rule: pattern, value: "^[a-z.]+$", message: v.username }
                    """,
                forms: "usernameForm: { fields: [username] }",
                messages: """
                    f.username: Username
                    v.username: "{label} takes letters and dots."
                    """),
            .signInProject(
                fields: """
                    username:
                      type: text
                      label: f.username
                      validation:
                        - { rule: pattern, value: "^\\\\w+$", message: v.username }
                    """,
                forms: "usernameForm: { fields: [username] }",
                messages: """
                    f.username: Username
                    v.username: "{label} takes letters and digits."
                    """)
        ],
        check: { linter, findings in linter.checkBacktrackingPattern(&findings) }
    )
}

extension FlowLinter {
    func checkBacktrackingPattern(_ findings: inout [Diagnostic]) {
        var checked: [String: PatternCheck] = [:]
        for field in flow.fields {
            for rule in field.validation where rule.kind == .pattern {
                guard case .text(let source) = rule.value else { continue }
                let check = checked[source] ?? Self.checkPattern(source)
                checked[source] = check
                if case .compiles(let risk?) = check {
                    findings.append(
                        Diagnostic(
                            .backtrackingPattern,
                            "pattern is prone to catastrophic backtracking: \(risk)", at: rule.valueLocation ?? rule.location, hint: risk.hint))
                }
            }
        }
    }
}
