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

    /// A small project that shows the rule: files (relative paths) and the options of
    /// `jump-forms locales check` run in its folder.
    public var example: LocaleRuleExample {
        switch self {
        case .missingLocaleFile:
            return LocaleRuleExample(files: [
                .init("locales/en-US.yaml", "locale: en-US\nmessages:\n  greeting: Hello\n"),
                .init("locales/pl-PL.yaml", "locale: pl-PL\nmessages:\n  greeting: Cześć\n"),
            ], options: ["--reference", "en-US", "--locale", "pl-PL", "--locale", "pt-PT"])
        case .missingKey:
            return .pair("""
            fields.email.label: Email address
            fields.email.tip: We never share it.
            """, "fr-FR", """
            fields.email.label: Adresse e-mail
            """)
        case .obsoleteKey:
            return .pair("""
            fields.emailAddress.label: Email address
            """, "fr-FR", """
            fields.emailAddress.label: Adresse e-mail
            fields.emailAdress.label: Adresse e-mail
            """)
        case .emptyValue:
            return .pair("""
            fields.email.label: Email address
            fields.email.tip: We never share it.
            """, "de-DE", """
            fields.email.label: ""
            fields.email.tip: Wir geben sie nie weiter.
            """)
        case .sameAsSource:
            return .pair("""
            fields.email.label: Email address
            options.country.CA: Canada
            """, "fr-FR", """
            sameAsSource: [options.country.CA]
            messages:
              fields.email.label: Email address
              options.country.CA: Canada
            """, messagesGiven: true)
        case .icuSyntax:
            return .pair("""
            validation.minLength: "{value, plural, one {At least # character.} other {At least # characters.}}"
            """, "es-ES", """
            validation.minLength: "{value, plural, one {Al menos # carácter.} other {Al menos # caracteres.}"
            """)
        case .argumentUnknown:
            return LocaleRuleExample(files: [
                .init("flows/flow.yaml", Self.exampleFlow),
                .init("locales/en-US.yaml", "locale: en-US\nmessages:\n  fields.email.label: Email\n  validation.required: \"{label} is required.\"\n"),
                .init("locales/de-DE.yaml", "locale: de-DE\nmessages:\n  fields.email.label: E-Mail\n  validation.required: \"{lable} ist erforderlich ({min} Zeichen).\"\n"),
            ], options: ["--flows", "flows/flow.yaml"])
        case .argumentDropped:
            return .pair("""
            validation.required: "{label} is required."
            """, "fr-FR", """
            validation.required: Ce champ est obligatoire.
            """)
        case .argumentAdded:
            return LocaleRuleExample(files: [
                .init("flows/flow.yaml", Self.exampleFlow),
                .init("locales/en-US.yaml", "locale: en-US\nmessages:\n  fields.email.label: Email\n  validation.required: \"{label} is required.\"\n"),
                .init("locales/de-DE.yaml", "locale: de-DE\nmessages:\n  fields.email.label: E-Mail\n  validation.required: \"{label} ({field}) ist erforderlich.\"\n"),
            ], options: ["--flows", "flows/flow.yaml"])
        case .pluralMissingCategory:
            return .pair("""
            files.count: "{count, plural, one {# file} other {# files}}"
            """, "pl-PL", """
            files.count: "{count, plural, one {# plik} other {# plików}}"
            """)
        case .pluralUnusedCategory:
            return .pair("""
            files.count: "{count, plural, one {# file} other {# files}}"
            """, "ja-JP", """
            files.count: "{count, plural, one {# 個のファイル} other {# 個のファイル}}"
            """)
        case .selectWithoutOther:
            return .pair("""
            welcome: "{gender, select, female {She joined} male {He joined} other {They joined}}"
            """, "fr-FR", """
            welcome: "{gender, select, female {Elle a rejoint} male {Il a rejoint}}"
            """)
        case .markupMismatch:
            return .pair("""
            notice: "<b>Note:</b> your address stays private."
            """, "de-DE", """
            notice: "<b>Hinweis: Ihre Adresse bleibt privat."
            """)
        case .urlMismatch:
            return .pair("""
            help: "Read https://example.com/help/privacy first."
            """, "fr-FR", """
            help: "Lisez d'abord https://exmaple.com/help/privacy."
            """)
        case .numberMismatch:
            return .pair("""
            fields.name.tip: Use 3 to 40 characters.
            """, "es-ES", """
            fields.name.tip: Usa de 3 a 4 caracteres.
            """)
        case .whitespaceEdge:
            return .pair("""
            fields.name.label: Full name
            """, "fr-FR", """
            fields.name.label: "Nom complet "
            """)
        case .doubleSpace:
            return .pair("""
            fields.email.label: Email address
            """, "fr-FR", """
            fields.email.label: Adresse  e-mail
            """)
        case .newlineMismatch:
            return .pair("""
            fields.password.tip: |-
              At least 8 characters.
              A long passphrase is best.
            """, "de-DE", """
            fields.password.tip: Mindestens 8 Zeichen. Eine lange Passphrase ist am besten.
            """)
        case .invisibleCharacter:
            return .pair("""
            fields.email.label: Email address
            """, "de-DE", """
            fields.email.label: "E-Mail\u{200B}-Adresse"
            """)
        case .bidiControl:
            return .pair("""
            fields.password.label: Password
            """, "fr-FR", """
            fields.password.label: "Mot de \\u202Epasse"
            """)
        case .yamlTrap:
            return .pair("""
            prompt.yes: "Yes"
            prompt.no: "No"
            about.version: Version
            options.country:
              "NO": Norway
            """, "es-ES", """
            prompt.yes: sí
            prompt.no: no
            about.version: 1.0
            options.country:
              NO: Noruega
            """)
        case .duplicateKey:
            return .pair("""
            fields.email.label: Email address
            """, "fr-FR", """
            fields.email.label: Adresse e-mail
            fields:
              email:
                label: Courriel
            """)
        case .yamlAlias:
            return .pair("""
            actions.cancel: Cancel
            actions.close: Close
            """, "fr-FR", """
            actions.cancel: &cancel Annuler
            actions.close: *cancel
            """)
        case .renderFailure:
            return LocaleRuleExample(files: [
                .init("flows/flow.yaml", Self.exampleFlow),
                .init("locales/en-US.yaml", "locale: en-US\nmessages:\n  fields.email.label: Email\n  validation.required: \"{label} is required.\"\n"),
                .init("locales/fr-FR.yaml", "locale: fr-FR\nmessages:\n  fields.email.label: E-mail\n  validation.required: \"{label, number} est obligatoire.\"\n"),
            ], options: ["--flows", "flows/flow.yaml"])
        case .unknownLanguage:
            return .pair("""
            greeting: Hello
            """, "pk-PL", """
            greeting: Cześć
            """)
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
            File("locales/\(tag).yaml", "locale: \(tag)\n" + (messagesGiven ? translation : "messages:\n" + indented(translation)) + "\n"),
        ])
    }
}
