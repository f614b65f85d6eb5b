import JumpForms

extension LocaleRuleDefinition {
    /// `argument-added`: a message uses a provided argument the reference's text does not use.
    static let argumentAdded = LocaleRuleDefinition(
        rule: .argumentAdded,
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
