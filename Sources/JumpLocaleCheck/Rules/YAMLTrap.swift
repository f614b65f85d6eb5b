import JumpForms

extension LocaleRule {
    /// `yaml-trap`: an unquoted key or value that YAML 1.1 tools read as a boolean, number, date or null.
    public static let yamlTrap = LocaleRule(
        "yaml-trap", code: .yamlTrap, group: .yaml, severity: .error,
        title: "unquoted value other YAML tools retype",
        explanation: """
            jump-forms reads the value as the text written, but a YAML 1.1 tool (PyYAML, most translation tools) reads an unquoted `no`, `on`, \
            `yes`, `off` as a boolean, `1.0` or `0x1F` as a number, `2024-01-01` as a date, and `~` or `null` as nothing. Keys too: `NO:` \
            (Norway) under `options.country` becomes the key `false`. Quote the value or key; the hint shows how. The message's other checks \
            wait until the value is quoted (the text other tools read is not the one written).
            """,
        example: "jumpForms.prompt.no: no",
        triggeringExamples: [
            .pair(
                """
                prompt.yes: "Yes"
                prompt.no: "No"
                about.version: Version
                options.country:
                  "NO": Norway
                """, "es-ES",
                """
                prompt.yes: sí
                prompt.no: no
                about.version: 1.0
                options.country:
                  NO: Noruega
                """)
        ],
        nonTriggeringExamples: [
            .pair(
                """
                prompt.yes: "Yes"
                prompt.no: "No"
                about.version: Version
                options.country:
                  "NO": Norway
                """, "es-ES",
                """
                prompt.yes: sí
                prompt.no: "no"
                about.version: "1.0"
                options.country:
                  "NO": Noruega
                """)
        ]
    )
}

extension CatalogCheck {
    func checkKeyTraps() {
        for trap in catalog.keyTraps {
            add(
                .yamlTrap,
                """
                the key '\(trap.written)' is unquoted: YAML 1.1 tools read it as \(Self.reading(trap.trap, trap.written)), not as text, so they see \
                another key than '\(trap.key)'
                """,
                at: trap.location, key: trap.key, hint: "write it in quotes: \"\(trap.written)\":")
        }
    }

    /// Whether the message's value is a trap (then reported): other tools read another value
    /// than the one written, so comparing it (`1.0` is the number 10 for a YAML 1.1 tool, 1.0
    /// for jump-forms) would report the trap again.
    func checkValueTrap(_ message: borrowing LocaleMessage) -> Bool {
        guard let trap = message.trap, !(trap == .null && message.text.isEmpty) else { return false }
        add(
            .yamlTrap, "'\(message.text)' is unquoted: YAML 1.1 tools read it as \(Self.reading(trap, message.text)), not as text",
            at: message.valueLocation, key: message.key, hint: "write it in quotes: \"\(message.text)\"")
        return true
    }

    /// What a YAML 1.1 tool makes of a plain scalar: "the boolean false", "a number".
    static func reading(_ trap: ScalarTrap, _ written: String) -> String {
        switch trap {
        case .boolean: "the boolean \(["y", "yes", "true", "on"].contains(written.lowercased()) ? "true" : "false")"
        case .number: "a number"
        case .date: "a date"
        case .null: "null (no value)"
        }
    }
}
