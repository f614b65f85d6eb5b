import JumpForms

/// The checks of `jump-forms locales check`, one case per rule. The rule id (the raw value)
/// is stable: it names the finding in every output format and in baseline files. Each rule is a
/// `DiagnosticCode` of the `JF5xx` range, which holds its title and explanation; the examples
/// here are run by the test suite (each must produce exactly its rule's findings, and its
/// output is a golden file) and printed in docs/locales.md.
public enum LocaleRule: String, Sendable, Hashable, CaseIterable, Codable {
    case missingLocaleFile = "missing-locale-file"
    case missingKey = "missing-key"
    case obsoleteKey = "obsolete-key"
    case emptyValue = "empty-value"
    case sameAsSource = "same-as-source"
    case icuSyntax = "icu-syntax"
    case argumentUnknown = "argument-unknown"
    case argumentDropped = "argument-dropped"
    case argumentAdded = "argument-added"
    case pluralMissingCategory = "plural-missing-category"
    case pluralUnusedCategory = "plural-unused-category"
    case selectWithoutOther = "select-without-other"
    case markupMismatch = "markup-mismatch"
    case urlMismatch = "url-mismatch"
    case numberMismatch = "number-mismatch"
    case whitespaceEdge = "whitespace-edge"
    case doubleSpace = "double-space"
    case newlineMismatch = "newline-mismatch"
    case invisibleCharacter = "invisible-character"
    case bidiControl = "bidi-control"
    case yamlTrap = "yaml-trap"
    case duplicateKey = "duplicate-key"
    case yamlAlias = "yaml-alias"
    case renderFailure = "render-failure"
    case unknownLanguage = "unknown-language"

    /// The diagnostic code of the rule (`JF5xx`).
    public var code: DiagnosticCode {
        switch self {
        case .missingLocaleFile: .missingLocaleFile
        case .missingKey: .localeMissingKey
        case .obsoleteKey: .localeObsoleteKey
        case .emptyValue: .localeEmptyValue
        case .sameAsSource: .localeSameAsSource
        case .icuSyntax: .localeICUSyntax
        case .argumentUnknown: .localeArgumentUnknown
        case .argumentDropped: .localeArgumentDropped
        case .argumentAdded: .localeArgumentAdded
        case .pluralMissingCategory: .pluralMissingCategory
        case .pluralUnusedCategory: .pluralUnusedCategory
        case .selectWithoutOther: .selectWithoutOther
        case .markupMismatch: .markupMismatch
        case .urlMismatch: .urlMismatch
        case .numberMismatch: .numberMismatch
        case .whitespaceEdge: .whitespaceEdge
        case .doubleSpace: .doubleSpace
        case .newlineMismatch: .newlineMismatch
        case .invisibleCharacter: .invisibleCharacter
        case .bidiControl: .bidiControl
        case .yamlTrap: .yamlTrap
        case .duplicateKey: .localeDuplicateKey
        case .yamlAlias: .yamlAlias
        case .renderFailure: .renderFailure
        case .unknownLanguage: .unknownLanguage
        }
    }

    public init?(code: DiagnosticCode) {
        guard let rule = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = rule
    }

    public var severity: Diagnostic.Severity { code.defaultSeverity }
    public var title: String { code.title }
    public var explanation: String { code.explanation }

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

    public var group: Group {
        switch self {
        case .missingLocaleFile, .missingKey, .obsoleteKey, .emptyValue, .sameAsSource, .unknownLanguage: .files
        case .icuSyntax, .argumentUnknown, .argumentDropped, .argumentAdded: .syntax
        case .pluralMissingCategory, .pluralUnusedCategory, .selectWithoutOther: .plurals
        case .markupMismatch, .urlMismatch, .numberMismatch, .whitespaceEdge, .doubleSpace, .newlineMismatch: .text
        case .invisibleCharacter, .bidiControl: .characters
        case .yamlTrap, .duplicateKey, .yamlAlias: .yaml
        case .renderFailure: .rendering
        }
    }

    /// The rule's definition (Rules/<Rule>.swift): its examples.
    public var definition: LocaleRuleDefinition {
        LocaleRuleDefinition.all.first { $0.rule == self }!
    }

    /// The example that shows the rule in the documentation (its first triggering example).
    public var example: LocaleRuleExample { definition.triggeringExamples[0] }
}

/// A rule of `jump-forms locales check` as its documentation and tests see it: its id and
/// description (`LocaleRule`, whose `DiagnosticCode` holds the title and explanation), examples
/// that trigger it and examples that do not. Its check is in the same file, Rules/<Rule>.swift.
public struct LocaleRuleDefinition: Sendable {
    public let rule: LocaleRule
    /// Each produces findings of this rule.
    public let triggeringExamples: [LocaleRuleExample]
    /// None produces a finding of this rule.
    public let nonTriggeringExamples: [LocaleRuleExample]

    /// Every rule's definition, in the order of `LocaleRule.allCases`.
    public static let all: [LocaleRuleDefinition] = [
        .missingLocaleFile, .missingKey, .obsoleteKey, .emptyValue, .sameAsSource, .icuSyntax, .argumentUnknown,
        .argumentDropped, .argumentAdded, .pluralMissingCategory, .pluralUnusedCategory, .selectWithoutOther,
        .markupMismatch, .urlMismatch, .numberMismatch, .whitespaceEdge, .doubleSpace, .newlineMismatch,
        .invisibleCharacter, .bidiControl, .yamlTrap, .duplicateKey, .yamlAlias, .renderFailure, .unknownLanguage
    ]
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
