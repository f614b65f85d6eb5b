import JumpForms

/// A check of `jump-forms locales check`. A rule is one file, Rules/<Rule>.swift: its id, its
/// code, its description, its examples and its check. Adding a rule is adding its file and its
/// line in `LocaleRule.allCases` (the code's number goes in `DiagnosticCode`'s list of codes, and
/// `RuleExampleTests` with `RECORD_SNAPSHOTS=1` writes its description into JumpDiagnostics'
/// generated table, docs/locales.md and docs/diagnostics.md).
///
/// The id (`rawValue`) is stable: it names the finding in every output format and in baseline
/// files. The examples run in the test suite: a triggering one must produce findings of its
/// rule, a non-triggering one none, and the first triggering one is shown with its output (a
/// golden file) in docs/locales.md.
public struct LocaleRule: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The id (`missing-key`).
    public let rawValue: String
    /// The diagnostic code (`JF5xx`).
    public let code: DiagnosticCode
    /// How the rule's findings are grouped in the documentation.
    public let group: Group
    public let severity: Diagnostic.Severity
    public let title: String
    public let explanation: String
    /// A one-line example for docs/diagnostics.md.
    public let codeExample: String
    /// Each produces findings of this rule.
    public let triggeringExamples: [LocaleRuleExample]
    /// None produces a finding of this rule.
    public let nonTriggeringExamples: [LocaleRuleExample]
    /// The check of a message, for a rule that brings its own: run on every message whose ICU
    /// syntax is valid, after the whitespace checks. Nil for the checks `CatalogCheck.check`
    /// calls itself, in the order that lets one finding stand for several.
    let messageCheck: MessageCheck?

    typealias MessageCheck = @Sendable (CatalogCheck, LocaleMessage, MessageContext) -> Void

    init(
        _ id: String, code: DiagnosticCode, group: Group, severity: Diagnostic.Severity, title: String, explanation: String,
        example codeExample: String, triggeringExamples: [LocaleRuleExample], nonTriggeringExamples: [LocaleRuleExample],
        messageCheck: MessageCheck? = nil
    ) {
        rawValue = id
        self.code = code
        self.group = group
        self.severity = severity
        self.title = title
        self.explanation = explanation
        self.codeExample = codeExample
        self.triggeringExamples = triggeringExamples
        self.nonTriggeringExamples = nonTriggeringExamples
        self.messageCheck = messageCheck
    }

    /// Every rule, in the order of the documentation: one line per rule file.
    public static let allCases: [LocaleRule] = [
        .missingLocaleFile,
        .missingKey,
        .obsoleteKey,
        .emptyValue,
        .sameAsSource,
        .icuSyntax,
        .argumentUnknown,
        .argumentDropped,
        .argumentAdded,
        .pluralMissingCategory,
        .pluralUnusedCategory,
        .selectWithoutOther,
        .markupMismatch,
        .urlMismatch,
        .numberMismatch,
        .whitespaceEdge,
        .doubleSpace,
        .newlineMismatch,
        .endingPunctuation,
        .invisibleCharacter,
        .bidiControl,
        .yamlTrap,
        .duplicateKey,
        .yamlAlias,
        .renderFailure,
        .unknownLanguage
    ]

    /// The checks the rules bring themselves (`messageCheck`), in the order of `allCases`.
    static let messageChecks: [MessageCheck] = allCases.compactMap(\.messageCheck)

    public init?(rawValue: String) {
        guard let rule = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = rule
    }

    public init?(code: DiagnosticCode) {
        guard let rule = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = rule
    }

    public static func == (lhs: LocaleRule, rhs: LocaleRule) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }
    public var description: String { rawValue }

    public init(from decoder: any Decoder) throws {
        let id = try decoder.singleValueContainer().decode(String.self)
        guard let rule = Self(rawValue: id) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "unknown rule '\(id)'"))
        }
        self = rule
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// How the rule's findings are grouped in the documentation.
    public enum Group: String, Sendable, CaseIterable {
        case files = "Locale files and keys"
        case syntax = "ICU syntax and arguments"
        case plurals = "Plural and select"
        case text = "Text against the reference"
        case characters = "Characters"
        case yaml = "YAML"
        case rendering = "Rendering"
    }

    /// The example that shows the rule in the documentation (its first triggering example).
    public var example: LocaleRuleExample { triggeringExamples[0] }

    /// The rules' part of JumpDiagnostics' table of codes
    /// (Sources/JumpDiagnostics/DiagnosticCode+LocaleRules.generated.swift): each code's rule
    /// id, severity, title, explanation and example, as the rule files say them.
    public static var generatedCodeTable: String {
        let literal = swiftStringLiteral
        var out = """
            // Generated from the rules of `jump-forms locales check` (Sources/JumpLocaleCheck/Rules/*.swift)
            // by RuleExampleTests (RECORD_SNAPSHOTS=1). Do not edit: edit the rule's file.

            extension DiagnosticCode {
                /// The codes of the rules of `jump-forms locales check`, by code.
                static let localeRuleCatalog: [String: LocaleEntry] = [

            """
        for rule in allCases {
            out += "        \(literal(rule.code.rawValue)): LocaleEntry(\n"
            out += "            rule: \(literal(rule.rawValue)), severity: .\(rule.severity.rawValue),\n"
            out += "            title: \(literal(rule.title)),\n"
            out += "            explanation: \(literal(rule.explanation)),\n"
            out += "            example: \(literal(rule.codeExample))),\n"
        }
        return out + "    ]\n}\n"
    }
}

/// What a rule's `messageCheck` is given besides the message.
struct MessageContext {
    /// The reference's message of the key, for a locale other than the reference.
    let reference: ProjectFacts.ReferenceFacts?
    /// The message's text and what a first scan of it found.
    let facts: TextPrescan
}

/// The files and options of a rule's example.
public struct LocaleRuleExample: Sendable, Hashable {
    public struct File: Sendable, Hashable {
        public var path: String
        public var text: String

        public init(_ path: String, _ text: String) {
            self.path = path
            self.text = text
        }
    }

    /// The flow of the examples that need call sites.
    static let exampleFlow = """
        flow: example
        version: "1"
        defaultLocale: en-US
        locales: ../locales
        fields:
          email:
            type: email
            label: fields.email.label
            validation:
              - { rule: required, message: validation.required }
        forms:
          signInForm: { fields: [email] }

        """

    /// An example of the call-site checks: `exampleFlow`, its en-US reference ("{label} is
    /// required.") and one translation of the flow's `validation.required` message.
    static func requiredMessage(locale: String, label: String, text: String) -> LocaleRuleExample {
        LocaleRuleExample(
            files: [
                .init("flows/flow.yaml", exampleFlow),
                .init(
                    "locales/en-US.yaml", "locale: en-US\nmessages:\n  fields.email.label: Email\n  validation.required: \"{label} is required.\"\n"),
                .init("locales/\(locale).yaml", "locale: \(locale)\nmessages:\n  fields.email.label: \(label)\n  validation.required: \"\(text)\"\n")
            ], options: ["--flows", "flows/flow.yaml"])
    }

    public var files: [File]
    /// Options of `jump-forms locales check`, run in the example's folder; `--locales
    /// locales` and, unless given, `--reference en-US` are added.
    public var options: [String]

    public init(files: [File], options: [String] = []) {
        self.files = files
        self.options = options
    }

    /// The arguments of `jump-forms locales check` for the example.
    public var arguments: [String] {
        var result = ["locales", "check", "--locales", "locales"]
        if !options.contains("--reference") { result += ["--reference", "en-US"] }
        return result + options
    }

    /// An en-US reference and one translation, both given as the lines under `messages:`
    /// (or, with `messagesGiven`, the translation's whole body after `locale:`).
    static func pair(_ reference: String, _ tag: String, _ translation: String, messagesGiven: Bool = false) -> LocaleRuleExample {
        func indented(_ text: String) -> String {
            text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
        }
        return LocaleRuleExample(files: [
            File("locales/en-US.yaml", "locale: en-US\nmessages:\n" + indented(reference) + "\n"),
            File("locales/\(tag).yaml", "locale: \(tag)\n" + (messagesGiven ? translation : "messages:\n" + indented(translation)) + "\n")
        ])
    }
}
