import JumpForms

extension LocaleRuleDefinition {
    /// `argument-unknown`: a message uses an argument its call sites (or the reference) do not provide.
    static let argumentUnknown = LocaleRuleDefinition(
        rule: .argumentUnknown,
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
