import JumpForms

extension LocaleRule {
    /// `render-failure`: a message that fails to format with the values its call sites give.
    public static let renderFailure = LocaleRule(
        "render-failure", code: .renderFailure, group: .rendering, severity: .error,
        title: "message cannot be rendered",
        explanation: """
            Formatting the message for its locale failed with the arguments its call site provides, using CLDR's sample numbers for every plural \
            category of the locale and a sample string mixing left-to-right and right-to-left text for text arguments. Typically a `plural` or \
            `number` over an argument that is a string.
            """,
        example: "validation.email: \"{value, plural, one {...} other {...}}\" (value is the format name)",
        triggeringExamples: [
            LocaleRuleExample.requiredMessage(locale: "fr-FR", label: "E-mail", text: "{label, number} est obligatoire.")
        ],
        nonTriggeringExamples: [
            LocaleRuleExample.requiredMessage(locale: "fr-FR", label: "E-mail", text: "{label} est obligatoire.")
        ]
    )
}

extension CatalogCheck {
    /// Values an argument takes when rendering.
    enum Sample: Sendable {
        case fixed(MessageArgument)
        case strings
        case numbers(integersOnly: Bool)
        case keys([String])
    }

    /// One string in both directions: whether formatting fails never depends on the text of a
    /// string argument, so one sample exercises left-to-right and right-to-left text at once.
    static let sampleStrings: [MessageArgument] = ["Ana שלום"]

    func checkRendering(_ message: borrowing LocaleMessage, _ pattern: MessagePattern, uses: [MessageArgumentUse], info: ProjectFacts.KeyInfo?) {
        var signatures: [[String: Sample]] = []
        if let info, info.sites != nil {
            signatures = info.signatures
        } else {
            // No call site: type each argument by how the reference (or this message) uses it.
            let typing = info?.builtinPattern ?? info?.reference?.pattern ?? pattern
            var signature: [String: Sample] = [:]
            let selectors = typing.selectors
            for use in typing.argumentUses where signature[use.name] == nil {
                switch use.kind {
                case .plural, .selectordinal, .number: signature[use.name] = .numbers(integersOnly: false)
                case .select:
                    let keys = selectors.first { $0.name == use.name && $0.kind == .select }?.keys.map(\.text) ?? []
                    signature[use.name] = .keys(keys.filter { $0 != "other" } + ["zzz-other"])
                case .simple, .date, .time: signature[use.name] = .strings
                }
            }
            for use in uses where signature[use.name] == nil { signature[use.name] = .strings }
            signatures.append(signature)
        }
        for signature in signatures {
            // Most messages cannot fail with any of the values: formatting them with each
            // would find nothing (a plural formats its value to choose a case).
            var given: [String: [MessageArgument]] = [:]
            for (name, sample) in signature { given[name] = values(sample) }
            guard !Self.alwaysFormats(pattern.nodes, given) else { continue }
            if let failure = render(pattern, signature) {
                add(
                    .renderFailure, "message '\(message.key)' cannot be rendered for \(tag) with \(failure.arguments): \(failure.error)",
                    at: message.valueLocation, key: message.key)
                return
            }
        }
    }

    func values(_ sample: Sample) -> [MessageArgument] {
        switch sample {
        case .fixed(let value): return [value]
        case .strings: return Self.sampleStrings
        case .keys(let keys): return keys.map { .string($0) }
        case .numbers(let integersOnly): return integersOnly ? sampleIntegers : sampleNumbers
        }
    }

    /// CLDR's first integer sample of each of the locale's categories (and the first decimal):
    /// every case of a plural is chosen once.
    static func sampleNumbers(_ rules: PluralRules, integersOnly: Bool) -> [MessageArgument] {
        var result: [MessageArgument] = []
        for category in rules.categories {
            let samples = rules.samples(for: category)
            for integer in samples.integers.prefix(1) where !integer.contains("c") {
                if let number = Int(integer) { result.append(.int(number)) }
            }
            if !integersOnly, let decimal = samples.decimals.first(where: { !$0.contains("c") }) {
                result.append(.decimal(decimal))
            }
        }
        return result.isEmpty ? [.int(1)] : result
    }

    /// Whether formatting a message's `nodes` succeeds whatever value of `values` (per argument) each
    /// argument takes, so that `render` could find no failure: every argument of every case is
    /// given, each value is of a kind its argument formats (a number where a number is needed),
    /// and no argument has a style that may be refused (`date`, `time`, a `number` style other
    /// than `integer`). False when a failure is possible: `render` then tries the values.
    static func alwaysFormats(_ nodes: [MessageNode], _ values: [String: [MessageArgument]]) -> Bool {
        func formats(_ name: String, _ accepts: (MessageArgument) -> Bool) -> Bool {
            guard let given = values[name], !given.isEmpty else { return false }
            return given.allSatisfy(accepts)
        }
        func isNumber(_ value: MessageArgument) -> Bool {
            switch value {
            case .int: true
            case .decimal(let text), .string(let text): MessageFormatter.readsAsNumber(text)
            case .date: false
            }
        }
        // Every case of every plural and select: any may be chosen.
        for node in nodes {
            switch node {
            case .text, .pound:
                continue
            case .argument(let argument):
                // `{name}` prints a string as it is and formats a number; a date, or a `date`
                // or `time` argument, is left to `render`.
                let printed = formats(argument.name) {
                    if case .string = $0 { return true }
                    return isNumber($0)
                }
                guard argument.kind == .simple, printed else { return false }
            case .number(let argument):
                switch argument.style {
                case .plain, .integer: guard formats(argument.name, isNumber) else { return false }
                case .other: return false
                }
            case .plural(let argument):
                guard formats(argument.name, isNumber) else { return false }
                for item in argument.cases where !alwaysFormats(item.message, values) { return false }
            case .select(let argument):
                guard formats(argument.name, { _ in true }) else { return false }
                for item in argument.cases where !alwaysFormats(item.message, values) { return false }
            }
        }
        return true
    }

    /// Formats with each value of each argument in turn (the others at their first value);
    /// the first failure, if any.
    func render(_ pattern: MessagePattern, _ signature: [String: Sample]) -> (arguments: String, error: String)? {
        let names = signature.keys.sorted()
        let choices = names.map { values(signature[$0]!) }
        var base: [String: MessageArgument] = [:]
        for (index, name) in names.enumerated() { base[name] = choices[index].first }
        func attempt(_ arguments: [String: MessageArgument]) -> (String, String)? {
            do {
                try formatter.validate(pattern, arguments)
                return nil
            } catch {
                let shown = names.compactMap { name in arguments[name].map { "{\(name)} = \(Self.describe($0))" } }.joined(separator: ", ")
                return (shown, error.message)
            }
        }
        if let failure = attempt(base) { return failure }
        for (index, name) in names.enumerated() {
            for value in choices[index].dropFirst() {
                var arguments = base
                arguments[name] = value
                if let failure = attempt(arguments) { return failure }
            }
        }
        return nil
    }

    static func describe(_ value: MessageArgument) -> String {
        switch value {
        case .string(let text): "\"\(text)\""
        case .int(let number): String(number)
        case .decimal(let text): text
        case .date(let date): date.description
        }
    }
}
