import JumpForms

extension LocaleRule {
    /// `argument-added`: a message uses a provided argument the reference's text does not use.
    public static let argumentAdded = LocaleRule(
        "argument-added", code: .localeArgumentAdded, group: .syntax, severity: .warning,
        title: "message adds an argument the reference does not use",
        explanation: """
            The translation uses an argument that its call site provides but the reference message does not use, so the translated text shows \
            something the reference does not (a field name, the rule's value). Usually a copy from another message; when it is on purpose, keep \
            it in the baseline.
            """,
        example: "en-US: \"{label} is required.\", de-DE: \"{label} ({field}) ist erforderlich.\"",
        triggeringExamples: [
            LocaleRuleExample.requiredMessage(locale: "de-DE", label: "E-Mail", text: "{label} ({field}) ist erforderlich.")
        ],
        nonTriggeringExamples: [
            LocaleRuleExample.requiredMessage(locale: "de-DE", label: "E-Mail", text: "{label} ist erforderlich.")
        ]
    )
}

extension CatalogCheck {
    /// Reports each argument the message uses that is provided but unused by the reference
    /// (known only when the call site, not the reference, says what is provided).
    func checkAddedArguments(
        _ message: borrowing LocaleMessage, _ uses: [MessageArgumentUse], provided: ProjectFacts.ProvidedArguments,
        reference: ProjectFacts.ReferenceFacts?
    ) {
        guard let reference, reference.hasPattern else { return }
        for use in uses where provided.names.contains(use.name) && !reference.provided.names.contains(use.name) {
            add(
                .argumentAdded, "message '\(message.key)' adds the argument {\(use.name)}, which the \(project.reference) text does not use",
                at: message.location(ofOffset: use.nameOffset, length: use.name.unicodeScalars.count), key: message.key,
                hint: "remove it, or use it in the \(project.reference) text too")
        }
    }
}
