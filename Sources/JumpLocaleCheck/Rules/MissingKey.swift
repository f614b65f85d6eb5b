import JumpForms

extension LocaleRule {
    /// `missing-key`: a key of the reference, the flows or jump-forms' own texts has no message in a locale.
    public static let missingKey = LocaleRule(
        "missing-key", code: .localeMissingKey, group: .files, severity: .error,
        title: "message key missing from a locale",
        explanation: """
            A key that the reference locale has, that a flow uses, or that jump-forms itself uses (`jumpForms.*`) is missing from the locale \
            (and from the more general files of its language, such as `fr.yaml` for `fr-CA`). Its users would see the reference text. \
            jump-forms' own keys count as present where its built-in catalog translates them for the locale (negotiated as the forms do: fr-FR \
            serves fr-CA), so only the locales it lacks need them; and only where the files serve jump-forms (a flow or a jump.yaml in scope, or \
            `--builtin-texts`): an app's own translations need not translate jump-forms' texts.
            """,
        example: "en-US.yaml has fields.email.label, fr-FR.yaml does not",
        triggeringExamples: [
            .pair(
                """
                fields.email.label: Email address
                fields.email.tip: We never share it.
                """, "fr-FR",
                """
                fields.email.label: Adresse e-mail
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                fields.email.label: Email address
                fields.email.tip: We never share it.
                """, "fr-FR",
                """
                fields.email.label: Adresse e-mail
                fields.email.tip: Nous ne la partageons jamais.
                """)
        ]
    )
}

extension CatalogCheck {
    func checkMissingKeys() {
        let place = catalog.messagesLocation ?? catalog.tag.location
        var reported = Set<String>()
        if !isReference, let reference = project.referenceCatalog {
            // Walk the file's keys along the reference's: where they agree (most of the time),
            // a string comparison says the key is there.
            // The catalog's keys are compared in place (`key(at:is:)`), not made strings.
            let count = catalog.count
            var cursor = 0
            for (position, key) in project.referenceKeys.enumerated() {
                if cursor < count, catalog.key(at: cursor, is: key) {
                    cursor += 1
                    continue
                }
                guard !has(key) else { continue }
                let info = project.referenceInfo[position]
                guard !project.hasFlows || info.known else { continue }
                // jump-forms' own keys that its catalog translates for this locale.
                if info.isBuiltin, builtinServes(key) { continue }
                reported.insert(key)
                let related = reference[key].map { [Diagnostic.Related("\(project.reference) has it here", at: $0.keyLocation)] } ?? []
                add(.missingKey, "message '\(key)' is missing from \(tag); \(project.reference) has it", at: place, key: key, related: related)
            }
        }
        let candidates = isReference || project.referenceCatalog == nil ? project.usedKeys : project.usedOutsideReference
        for key in candidates where !reported.contains(key) && !has(key) {
            let info = project.keyInfo[key]
            if info?.isBuiltin == true, builtinServes(key) { continue }
            reported.insert(key)
            let site = info?.sites?.first
            add(
                .missingKey, "message '\(key)' is missing from \(tag); the flow uses it", at: place, key: key,
                related: site.map { [Diagnostic.Related("used here", at: $0.location)] } ?? [])
        }
        // jump-forms' own messages: the locale's files or jump-forms' catalog must translate them
        // (where the files serve jump-forms: see `LocaleCheckInput.requiresBuiltinTexts`).
        guard project.input.requiresBuiltinTexts, !skipsBuiltinKeys, let builtin = project.builtinReference else { return }
        for message in builtin.allMessages where !reported.contains(message.key) && !has(message.key) && !builtinServes(message.key) {
            add(
                .missingKey,
                "message '\(message.key)' is missing from \(tag); jump-forms uses it, and its own catalog has no \(tag.language) text for it",
                at: place, key: message.key, hint: "translate jump-forms' \(builtin.tag.value) text: \(Self.quoted(message.text))")
        }
    }

    func has(_ key: String) -> Bool {
        catalog.contains(key) || fallbacks.contains { $0.contains(key) }
    }

    /// Whether jump-forms' own catalog gives the locale a text for `key` in its language.
    func builtinServes(_ key: String) -> Bool {
        skipsBuiltinKeys || builtinChain.contains { $0.contains(key) }
    }
}
