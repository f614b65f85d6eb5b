import JumpForms

extension LocaleRule {
    /// `argument-unknown`: a message uses an argument its call sites (or the reference) do not provide.
    public static let argumentUnknown = LocaleRule(
        "argument-unknown", code: .localeArgumentUnknown, group: .syntax, severity: .error,
        title: "message uses an argument nobody provides",
        explanation: """
            The message uses an argument its call site does not provide: validation messages get `label`, `field` and `value` (`value` only when \
            the rule has one); labels, placeholders, tips, option labels and provider names get none; jump-forms' own messages get what the \
            built-in en-US text uses. For keys no flow uses, the reference message's arguments are what is provided. The hint names the closest \
            provided argument.
            """,
        example: "validation.required: \"{lable} est obligatoire.\"",
        triggeringExamples: [
            LocaleRuleExample.requiredMessage(locale: "de-DE", label: "E-Mail", text: "{lable} ist erforderlich ({min} Zeichen).")
        ],
        nonTriggeringExamples: [
            LocaleRuleExample.requiredMessage(locale: "de-DE", label: "E-Mail", text: "{label} ist erforderlich.")
        ]
    )
}

extension CatalogCheck {
    /// Reports each argument the message uses that nothing provides; whether all are provided,
    /// and the names suggested instead (which `argument-dropped` then does not report).
    func checkUnknownArguments(_ message: borrowing LocaleMessage, _ uses: [MessageArgumentUse], provided: ProjectFacts.ProvidedArguments)
        -> (complete: Bool, suggested: [String])
    {
        let providedList = provided.names
        var complete = true
        var suggested: [String] = []
        for use in uses where !providedList.contains(use.name) {
            complete = false
            let suggestion = Suggestion.closest(to: use.name, among: providedList)
            if let suggestion { suggested.append(suggestion) }
            let hint =
                suggestion.map { "did you mean '\($0)'?" }
                ?? (providedList.isEmpty ? "this message gets no arguments" : "it gets: \(providedList.joined(separator: ", "))")
            add(
                .argumentUnknown, "message '\(message.key)' uses the argument {\(use.name)}, which \(provided.source) does not provide",
                at: message.location(ofOffset: use.nameOffset, length: use.name.unicodeScalars.count), key: message.key, hint: hint)
        }
        return (complete, suggested)
    }
}
