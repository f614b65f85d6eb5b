/// A check of `jump-forms lint` (a `JF3xx` code). A rule is one file, Lint/Rules/<Rule>.swift:
/// its code, its severity, its description and example, and its check. Adding a rule is adding
/// its file and its line in `LintRule.allCases` (the code goes at the end of `DiagnosticCode`'s
/// cases, and `LintRuleTests` with `RECORD_SNAPSHOTS=1` writes its description into
/// JumpDiagnostics' generated table, from which docs/diagnostics.md is generated). Its
/// examples are the projects under Tests/JumpFormsLoaderTests/Fixtures/diagnostics named after
/// its code, whose output is a golden file.
public struct LintRule: Sendable, Hashable, CustomStringConvertible {
    /// The diagnostic code (`JF3xx`).
    public let code: DiagnosticCode
    public let severity: Diagnostic.Severity
    public let title: String
    public let explanation: String
    /// A short example of what triggers it, for docs/diagnostics.md.
    public let example: String
    /// The rule's check of a flow, nil for the rules whose findings come from a shared pass
    /// (FlowLinter's message pass, CatalogLinter's parse of each message).
    let check: Check?

    typealias Check = @Sendable (FlowLinter, inout [Diagnostic]) -> Void

    init(
        _ code: DiagnosticCode, severity: Diagnostic.Severity, title: String, explanation: String, example: String,
        check: Check? = nil
    ) {
        self.code = code
        self.severity = severity
        self.title = title
        self.explanation = explanation
        self.example = example
        self.check = check
    }

    /// Every rule, in the order of their codes: one line per rule file.
    public static let allCases: [LintRule] = [
        .undefinedField,
        .fieldRepeatedInForm,
        .ruleDoesNotFitField,
        .unknownFieldReference,
        .referenceOutsideForm,
        .unknownFormat,
        .invalidPattern,
        .backtrackingPattern,
        .messageMissingInDefaultLocale,
        .messageMissingInLocale,
        .duplicateOptionValue,
        .duplicateProvider,
        .openIDWithoutIdentifier,
        .samlWithoutProvider,
        .unknownProvider,
        .missingIcon,
        .configNamesMissingForm,
        .signInFormShape,
        .unusedField,
        .unusedMessage,
        .messageSyntax,
        .messageArgument,
        .missingLocale,
        .ruleValueRange,
        .choiceWithoutOptions,
        .formWithoutIdentifier,
        .optionsOnNonChoiceField,
        .configFlowMismatch,
        .duplicateRule,
        .emptyRuleList,
        .sharingProviderNotListed,
        .activityNotPostable,
        .mistypedMessageKey,
        .fieldNotSent
    ]

    /// The checks the rules bring, in the order of `allCases`.
    static let checks: [Check] = allCases.compactMap(\.check)

    public init?(code: DiagnosticCode) {
        guard let rule = Self.allCases.first(where: { $0.code == code }) else { return nil }
        self = rule
    }

    public static func == (lhs: LintRule, rhs: LintRule) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    public var description: String { code.rawValue }

    /// The rules' part of JumpDiagnostics' table of codes
    /// (Sources/JumpDiagnostics/DiagnosticCode+LintRules.generated.swift): each code's severity,
    /// title, explanation and example, as the rule files say them.
    public static var generatedCodeTable: String {
        let literal = swiftStringLiteral
        var out = """
            // Generated from the rules of `jump-forms lint` (Sources/JumpForms/Lint/Rules/*.swift) by
            // LintRuleTests (RECORD_SNAPSHOTS=1). Do not edit: edit the rule's file.

            extension DiagnosticCode {
                /// The codes of the rules of `jump-forms lint`, by code.
                static let lintRuleCatalog: [String: LintEntry] = [

            """
        for rule in allCases {
            out += "        \(literal(rule.code.rawValue)): LintEntry(\n"
            out += "            severity: .\(rule.severity.rawValue),\n"
            out += "            title: \(literal(rule.title)),\n"
            out += "            explanation: \(literal(rule.explanation)),\n"
            out += "            example: \(literal(rule.example))),\n"
        }
        return out + "    ]\n}\n"
    }
}
