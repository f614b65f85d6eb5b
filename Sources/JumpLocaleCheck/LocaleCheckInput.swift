import JumpForms

/// A locale that must have a file: named on the command line, by jump.yaml's `captureLocale`
/// or by a flow's `defaultLocale`.
public struct RequiredLocale: Sendable, Hashable {
    public var tag: LocaleTag
    /// Who names it, for the message: "--locale", "captureLocale in jump.yaml".
    public var origin: String
    /// Where it is named in a file; nil for the command line.
    public var location: SourceLocation?
    /// Whether another locale's file may serve it (`captureLocale`: fr-FR.yaml serves fr-CA, as
    /// the forms negotiate); false: it needs a file of its own (`--reference`, `--locale`).
    public var servedByAnother: Bool

    public init(tag: LocaleTag, origin: String, location: SourceLocation? = nil, servedByAnother: Bool = false) {
        self.tag = tag
        self.origin = origin
        self.location = location
        self.servedByAnother = servedByAnother
    }
}

/// Everything `LocaleChecker` reads. The loader (JumpFormsLoader) makes the catalogs and flows;
/// nothing here reads files.
public struct LocaleCheckInput: Sendable {
    /// The locale files checked, the reference's among them (when it has one).
    public var catalogs: [LocaleCatalog]
    /// The locale the others are compared with (`--reference`, else the flow's default locale).
    public var reference: LocaleTag
    /// The flows whose message keys and call sites the locales serve.
    public var flows: [Flow]
    /// jump-forms' own catalog (`jumpForms.*`), en-US first: its keys are known, the en-US
    /// text's arguments are what their call sites provide, and a locale it has no text for
    /// (along the locale's chain, in another language than en-US's) must translate them.
    public var builtinCatalogs: [LocaleCatalog]
    /// Locales that must have a file.
    public var requiredLocales: [RequiredLocale]
    /// `--allow-same-as-source` patterns, for every locale (each file adds its `sameAsSource`).
    public var sameAsSourceAllowed: [String]
    /// Check the catalogs on all cores (the result is the same either way).
    public var concurrently: Bool
    /// Whether every locale must have jump-forms' own texts (`jumpForms.*`, from its catalog or
    /// the locale's files): only where the files serve jump-forms, that is a flow or a jump.yaml
    /// is in scope, or when asked (`--builtin-texts`). Default: whether there are flows.
    public var requiresBuiltinTexts: Bool

    public init(
        catalogs: [LocaleCatalog], reference: LocaleTag, flows: [Flow] = [], builtinCatalogs: [LocaleCatalog] = [],
        requiredLocales: [RequiredLocale] = [], sameAsSourceAllowed: [String] = [], concurrently: Bool = true,
        requiresBuiltinTexts: Bool? = nil
    ) {
        self.catalogs = catalogs
        self.reference = reference
        self.flows = flows
        self.builtinCatalogs = builtinCatalogs
        self.requiredLocales = requiredLocales
        self.sameAsSourceAllowed = sameAsSourceAllowed
        self.concurrently = concurrently
        self.requiresBuiltinTexts = requiresBuiltinTexts ?? !flows.isEmpty
    }
}

/// One finding of a locale check: the diagnostic, with the rule and the key it is about (for
/// baselines, which must survive lines moving).
public struct LocaleFinding: Sendable, Hashable {
    public var rule: LocaleRule
    public var diagnostic: Diagnostic
    /// The message key, when the finding is about one.
    public var key: String?
    /// The file the finding belongs to (the locale file; "" for the command line).
    public var file: String

    public init(
        _ rule: LocaleRule, _ message: String, at location: SourceLocation?, file: String, key: String?,
        severity: Diagnostic.Severity? = nil, hint: String? = nil, related: [Diagnostic.Related] = []
    ) {
        self.rule = rule
        self.diagnostic = Diagnostic(rule.code, message, at: location, severity: severity, hint: hint, related: related)
        self.key = key
        self.file = file
    }

    /// `rule|file|key|hash of the message`: no line or column, so edits elsewhere in the file
    /// keep it; a changed text (and so a changed message) makes a new finding.
    public var fingerprint: Fingerprint {
        Fingerprint(rule: rule.rawValue, file: file, key: key ?? "", messageHash: Fingerprint.hash(diagnostic.message))
    }
}

/// What identifies a finding across runs (see `Baseline`).
public struct Fingerprint: Sendable, Hashable, Comparable {
    public var rule: String
    public var file: String
    public var key: String
    /// FNV-1a 64 of the finding's message, 16 hex digits.
    public var messageHash: String

    public init(rule: String, file: String, key: String, messageHash: String) {
        self.rule = rule
        self.file = file
        self.key = key
        self.messageHash = messageHash
    }

    public static func hash(_ text: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    public static func < (lhs: Fingerprint, rhs: Fingerprint) -> Bool {
        (lhs.file, lhs.rule, lhs.key, lhs.messageHash) < (rhs.file, rhs.rule, rhs.key, rhs.messageHash)
    }
}
