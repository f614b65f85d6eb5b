import JumpForms

extension LocaleRule {
    /// `obsolete-key`: a message under a key no flow (or, without flows, the reference) uses.
    public static let obsoleteKey = LocaleRule(
        "obsolete-key", code: .localeObsoleteKey, group: .files, severity: .warning,
        title: "message key nobody uses",
        explanation: """
            The key is neither in the reference locale nor used by a flow or by jump-forms' own catalog (`jumpForms.*`). Usually a key that was \
            renamed: the hint names the closest key in use.
            """,
        example: "fields.emailAdress.label: Adresse e-mail",
        triggeringExamples: [
            .pair(
                """
                fields.emailAddress.label: Email address
                """, "fr-FR",
                """
                fields.emailAddress.label: Adresse e-mail
                fields.emailAdress.label: Adresse e-mail
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                fields.emailAddress.label: Email address
                """, "fr-FR",
                """
                fields.emailAddress.label: Adresse e-mail
                """)
        ]
    )
}

extension CatalogCheck {
    /// Reports the message when nothing uses its key; whether it is obsolete.
    func checkObsoleteKey(_ message: borrowing LocaleMessage, info: ProjectFacts.KeyInfo?) -> Bool {
        let known = info?.known ?? false
        guard !known && judgesObsoleteKeys else { return false }
        let key = message.key
        let why = project.hasFlows ? "no flow uses it" : "\(project.reference) has no such key"
        // An emptied parent (`gender:` whose cases were removed) names what belongs under it.
        let prefix = key + "."
        let child = message.text.isEmpty ? project.knownKeyList.first { $0.hasPrefix(prefix) } : nil
        let hint =
            child.map { "the keys under it were removed (such as '\($0)'): restore them, or remove it" }
            ?? project.suggestKey(for: key).map { "did you mean '\($0)'?" } ?? "remove it"
        add(.obsoleteKey, "message '\(key)' is obsolete: \(why)", at: message.keyLocation, key: key, hint: hint)
        return true
    }
}
