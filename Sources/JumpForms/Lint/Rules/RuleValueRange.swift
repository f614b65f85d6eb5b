extension LintRule {
    /// JF323: a negative length or age, or a minimum above the maximum.
    public static let ruleValueRange = LintRule(
        .ruleValueRange, severity: .error,
        title: "rule value out of range", explanation: "Lengths and ages are non-negative, and a minimum is not above the field's maximum.",
        triggeringExamples: [
            .signInProject(
                passwordValidation: """
                    - { rule: minLength, value: 10, message: v.length }
                    - { rule: maxLength, value: 5, message: v.length }
                    """,
                messages: """
                    v.length: "{label} has the wrong length."
                    """)
        ],
        nonTriggeringExamples: [
            .signInProject(
                passwordValidation: """
                    - { rule: minLength, value: 10, message: v.length }
                    - { rule: maxLength, value: 64, message: v.length }
                    """,
                messages: """
                    v.length: "{label} has the wrong length."
                    """)
        ],
        check: { linter, findings in linter.checkRuleValueRange(&findings) }
    )
}

extension FlowLinter {
    func checkRuleValueRange(_ findings: inout [Diagnostic]) {
        for field in flow.fields {
            var bounds: [RuleKind: (Int, ValidationRule)] = [:]
            for rule in field.validation {
                guard case .integer(let number) = rule.value else { continue }
                if number < 0 {
                    findings.append(
                        Diagnostic(
                            .ruleValueRange, "rule '\(rule.kind.rawValue)' has a negative value (\(number))",
                            at: rule.valueLocation ?? rule.location))
                }
                bounds[rule.kind] = (number, rule)
            }
            for (low, high) in [(RuleKind.minLength, RuleKind.maxLength), (.minYears, .maxYears)] {
                if let (minimum, rule) = bounds[low], let (maximum, maxRule) = bounds[high], minimum > maximum {
                    findings.append(
                        Diagnostic(
                            .ruleValueRange,
                            "'\(low.rawValue)' (\(minimum)) is above '\(high.rawValue)' (\(maximum)): no value can pass",
                            at: rule.valueLocation ?? rule.location, related: [.init("'\(high.rawValue)' is here", at: maxRule.location)]))
                }
            }
        }
    }
}
