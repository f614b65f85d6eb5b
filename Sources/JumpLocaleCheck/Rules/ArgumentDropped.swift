import JumpForms

extension LocaleRule {
    /// `argument-dropped`: a message leaves out an argument the reference's text uses.
    public static let argumentDropped = LocaleRule(
        "argument-dropped", code: .localeArgumentDropped, group: .syntax, severity: .warning,
        title: "message drops an argument of the reference",
        explanation:
            "The reference message uses the argument and the translation does not, so a name or number the user needs is missing from the text.",
        example: "en-US: \"{label} is required.\", fr-FR: \"Obligatoire.\"",
        triggeringExamples: [
            .pair(
                """
                validation.required: "{label} is required."
                """, "fr-FR",
                """
                validation.required: Ce champ est obligatoire.
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                validation.required: "{label} is required."
                """, "fr-FR",
                """
                validation.required: "{label} est obligatoire."
                """)
        ]
    )
}

extension CatalogCheck {
    /// Reports each provided argument the reference uses and the message does not (but for
    /// those an unknown argument of the message was taken for: `suggested`).
    func checkDroppedArguments(
        _ message: borrowing LocaleMessage, _ uses: [MessageArgumentUse], provided: ProjectFacts.ProvidedArguments,
        reference: ProjectFacts.ReferenceFacts?, suggested: [String]
    ) {
        guard let reference else { return }
        // Messages have few arguments: searching the lists beats hashing each name into sets.
        let providedList = provided.names
        for name in reference.argumentNames where providedList.contains(name) && !uses.contains(where: { $0.name == name }) {
            guard !suggested.contains(name) else { continue }
            add(
                .argumentDropped, "message '\(message.key)' drops the argument {\(name)}, which the \(project.reference) text uses",
                at: message.valueLocation, key: message.key)
        }
    }
}
