extension LintRule {
    /// JF302: a rule on a field of a type it does not fit.
    public static let ruleDoesNotFitField = LintRule(
        .ruleDoesNotFitField, severity: .error,
        title: "rule does not fit the field type",
        explanation:
            """
            Some rules need a particular field type: `minYears`/`maxYears` need a `dateselect`, `matchOptions` needs `options` (select or \
            radio), length and format rules need a text-like field.
            """,
        triggeringExamples: [
            .signInProject(
                fields: """
                    birthday:
                      type: text
                      label: f.birthday
                      validation:
                        - { rule: minYears, value: 13, message: v.age }
                    """,
                forms: "ageForm: { fields: [birthday] }",
                messages: """
                    f.birthday: Birthday
                    v.age: "You must be 13 or older."
                    """)
        ],
        nonTriggeringExamples: [
            .signInProject(
                fields: """
                    birthday:
                      type: dateselect
                      label: f.birthday
                      validation:
                        - { rule: minYears, value: 13, message: v.age }
                    """,
                forms: "ageForm: { fields: [birthday] }",
                messages: """
                    f.birthday: Birthday
                    v.age: "You must be 13 or older."
                    """)
        ],
        check: { linter, findings in linter.checkRuleDoesNotFitField(&findings) }
    )
}

extension FlowLinter {
    func checkRuleDoesNotFitField(_ findings: inout [Diagnostic]) {
        for field in flow.fields {
            let type = field.type.value
            let hasOptions = !field.options.isEmpty
            for rule in field.validation where !rule.kind.fits(type, hasOptions: hasOptions) {
                let why =
                    rule.kind == .matchOptions && !hasOptions
                    ? "field '\(field.name)' has no options"
                    : "it needs a field of type \(rule.kind.fittingTypes), and '\(field.name)' is \(type.rawValue)"
                findings.append(Diagnostic(.ruleDoesNotFitField, "rule '\(rule.kind.rawValue)' does not fit: \(why)", at: rule.location))
            }
        }
    }
}
