extension LintRule {
    /// JF329: `whitelist`, `blacklist` or `emailDomainBlacklist` with an empty list.
    public static let emptyRuleList = LintRule(
        .emptyRuleList, severity: .warning,
        title: "rule with an empty list",
        explanation:
            """
            `whitelist: []` accepts no value at all, and an empty `blacklist` or `emailDomainBlacklist` refuses nothing: the rule is a mistake \
            either way. List the values, or remove the rule.
            """,
        triggeringExamples: [
            .signInProject(
                emailValidation: "- { rule: emailDomainBlacklist, value: [], message: v.domain }",
                messages: """
                    v.domain: "{label} may not be a throwaway address."
                    """)
        ],
        nonTriggeringExamples: [
            .signInProject(
                emailValidation: "- { rule: emailDomainBlacklist, value: [mailinator.com], message: v.domain }",
                messages: """
                    v.domain: "{label} may not be a throwaway address."
                    """)
        ],
        check: { linter, findings in linter.checkEmptyRuleList(&findings) }
    )
}

extension FlowLinter {
    func checkEmptyRuleList(_ findings: inout [Diagnostic]) {
        for field in flow.fields {
            for rule in field.validation {
                let valueLocation = rule.valueLocation ?? rule.location
                switch (rule.kind, rule.value) {
                case (.whitelist, .list([])):
                    findings.append(
                        Diagnostic(
                            .emptyRuleList, "rule 'whitelist' of field '\(field.name)' lists no value: it accepts nothing",
                            at: valueLocation, hint: "list the accepted values, or remove the rule"))
                case (.blacklist, .list([])), (.emailDomainBlacklist, .list([])):
                    findings.append(
                        Diagnostic(
                            .emptyRuleList, "rule '\(rule.kind.rawValue)' of field '\(field.name)' lists no value: it refuses nothing",
                            at: valueLocation, hint: "list the refused values, or remove the rule"))
                default:
                    break
                }
            }
        }
    }
}
