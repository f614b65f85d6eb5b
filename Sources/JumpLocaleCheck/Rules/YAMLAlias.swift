import JumpForms

extension LocaleRule {
    /// `yaml-alias`: a YAML alias (or an anchor no alias uses): translation tools flatten them.
    public static let yamlAlias = LocaleRule(
        "yaml-alias", code: .yamlAlias, group: .yaml, severity: .warning,
        title: "anchor or alias in a locale file",
        explanation: """
            An anchor (`&name`) or alias (`*name`) shares one text between keys. Translation tools flatten them, and a translator editing the \
            anchored text silently changes every alias. Write each text out.
            """,
        example: "cancel: &cancel Annuler\\nclose: *cancel",
        triggeringExamples: [
            .pair(
                """
                actions.cancel: Cancel
                actions.close: Close
                """, "fr-FR",
                """
                actions.cancel: &cancel Annuler
                actions.close: *cancel
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                actions.cancel: Cancel
                actions.close: Close
                """, "fr-FR",
                """
                actions.cancel: Annuler
                actions.close: Fermer
                """)
        ]
    )
}

extension CatalogCheck {
    func checkYAMLAliases() {
        let references = catalog.yamlReferences
        let aliasNames = Set(references.filter { $0.kind == .alias }.map(\.name))
        for reference in references {
            switch reference.kind {
            case .alias:
                let anchor = references.last { $0.kind == .anchor && $0.name == reference.name && $0.location < reference.location }
                let what = reference.key.map { "message '\($0)'" } ?? "this value"
                add(
                    .yamlAlias, "\(what) is the alias *\(reference.name): it shares the text of another key, and translation tools flatten aliases",
                    at: reference.location, key: reference.key ?? "*" + reference.name, hint: "write the text out",
                    related: anchor.map { [Diagnostic.Related("anchor &\(reference.name) is here", at: $0.location)] } ?? [])
            case .anchor where !aliasNames.contains(reference.name):
                add(
                    .yamlAlias, "anchor &\(reference.name) is never used by an alias", at: reference.location,
                    key: reference.key ?? "&" + reference.name, hint: "remove '&\(reference.name)'")
            case .anchor:
                break
            }
        }
    }
}
