/// A check of `jump-forms lint` (a `JF3xx` code). A rule is one file, Lint/Rules/<Rule>.swift:
/// its code, its severity, its description, its examples and its check. Adding a rule is adding
/// its file and its line in `LintRule.allCases` (the code goes at the end of `DiagnosticCode`'s
/// cases, and `LintRuleTests` with `RECORD_SNAPSHOTS=1` writes its description into
/// JumpDiagnostics' generated table; `DocsTests` then writes docs/diagnostics.md, which shows
/// its examples). The examples are small projects (`LintRuleExample`) and one set: the test
/// suite (`LintRuleExampleTests`) writes each to a folder and lints it as `jump-forms lint`
/// does, a triggering one must be reported with the rule's code, a non-triggering one (the
/// corrected project) must lint clean, and docs/diagnostics.md shows the first triggering one
/// and the non-triggering ones.
public struct LintRule: Sendable, Hashable, CustomStringConvertible {
    /// The diagnostic code (`JF3xx`).
    public let code: DiagnosticCode
    public let severity: Diagnostic.Severity
    public let title: String
    public let explanation: String
    /// Projects the rule reports (at least one; the first is the one docs/diagnostics.md shows).
    public let triggeringExamples: [LintRuleExample]
    /// Projects it does not report, the triggering ones corrected (at least one): they lint clean.
    public let nonTriggeringExamples: [LintRuleExample]
    /// The rule's check of a flow, nil for the rules whose findings come from a shared pass
    /// (FlowLinter's message pass, CatalogLinter's parse of each message).
    let check: Check?

    typealias Check = @Sendable (FlowLinter, inout [Diagnostic]) -> Void

    init(
        _ code: DiagnosticCode, severity: Diagnostic.Severity, title: String, explanation: String,
        triggeringExamples: [LintRuleExample], nonTriggeringExamples: [LintRuleExample], check: Check? = nil
    ) {
        self.code = code
        self.severity = severity
        self.title = title
        self.explanation = explanation
        self.triggeringExamples = triggeringExamples
        self.nonTriggeringExamples = nonTriggeringExamples
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
    /// title and explanation, as the rule files say them (their examples are projects, which
    /// docs/diagnostics.md takes from the rules themselves).
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
            out += "            explanation: \(literal(rule.explanation))),\n"
        }
        return out + "    ]\n}\n"
    }
}

/// A small project that shows a lint rule: its files (a flow, `flow.yaml`, its default locale's
/// file, `locales/en-US.yaml`, and where the rule needs them other locale files, `jump.yaml` or
/// an icon), as text. JumpForms does not read them: the test suite writes them to a folder and
/// lints them, and docs/diagnostics.md shows them whole. Most are written with `signInProject`,
/// as what they add to one sign-in project, so that a rule's file shows only what matters to it.
public struct LintRuleExample: Sendable, Hashable {
    /// A file of the project: its path in the project's folder and its text.
    public struct File: Sendable, Hashable {
        public var path: String
        public var text: String

        public init(_ path: String, _ text: String) {
            self.path = path
            self.text = text.hasSuffix("\n") ? text : text + "\n"
        }

        /// `locales/<tag>.yaml` holding `messages` (the lines under `messages:`).
        static func locale(_ tag: String, _ messages: String) -> File {
            let indented = messages.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }.joined(separator: "\n")
            return File("locales/\(tag).yaml", "locale: \(tag)\nmessages:\n" + indented)
        }

        /// `jump.yaml` for `flow.yaml` (in `embedded` mode, locale en-US) with `keys` added.
        static func config(_ keys: String) -> File {
            File(
                "jump.yaml",
                "captureDomain: embedded\ncaptureClientId: localdev0123456789abcdefghijklmn\ncaptureLocale: en-US\n\(keys)\nflow: flow.yaml")
        }
    }

    public var files: [File]

    public init(files: [File]) {
        self.files = files
    }

    /// What `jump-forms lint` is given, in the project's folder: `jump.yaml` if the project has
    /// one, else the flow (which brings its locales folder).
    public var lintPaths: [String] {
        files.contains { $0.path == "jump.yaml" } ? ["jump.yaml"] : ["flow.yaml"]
    }

    /// The sign-in project most examples start from, with what the example adds. `flow.yaml`:
    ///
    /// ```yaml
    /// flow: example
    /// version: "1"
    /// defaultLocale: en-US
    /// locales: locales
    /// fields:
    ///   email: { type: email, label: f.email }
    ///   password: { type: password, label: f.password }
    ///   <fields>
    /// forms:
    ///   signInForm: { fields: [email, password] }
    ///   <forms>
    /// <sections>
    /// ```
    ///
    /// and `locales/en-US.yaml`, the labels `f.email: Email` and `f.password: Password`, then
    /// `messages`; then the `more` files. `emailValidation` and `passwordValidation` are the
    /// lines under the `validation:` of the email and password fields (written as blocks then).
    /// A field or form the example writes under its own name replaces the standard one:
    /// `forms: "signInForm: ..."` gives another sign-in form.
    static func signInProject(
        emailValidation: String = "", passwordValidation: String = "", fields: String = "", forms: String = "", sections: String = "",
        messages: String = "", defaultLocale: String = "en-US", _ more: File...
    ) -> LintRuleExample {
        let flow = signInFlow(
            emailValidation: emailValidation, passwordValidation: passwordValidation, fields: fields, forms: forms, sections: sections,
            defaultLocale: defaultLocale)
        let labels = ["f.email: Email", "f.password: Password"]
        return LintRuleExample(files: [File("flow.yaml", flow), .locale("en-US", (labels + lines(messages)).joined(separator: "\n"))] + more)
    }

    /// The text of `signInProject`'s `flow.yaml`.
    static func signInFlow(
        emailValidation: String = "", passwordValidation: String = "", fields: String = "", forms: String = "", sections: String = "",
        defaultLocale: String = "en-US"
    ) -> String {
        let header = ["flow: example", "version: \"1\"", "defaultLocale: \(defaultLocale)", "locales: locales"]
        let standardFields = [
            standardField("email", type: "email", validation: emailValidation),
            standardField("password", type: "password", validation: passwordValidation)
        ]
        let body =
            ["fields:"] + replacing(standardFields, with: fields).map { "  " + $0 } + ["forms:"]
            + replacing([["signInForm: { fields: [email, password] }"]], with: forms).map { "  " + $0 } + lines(sections)
        return (header + body).joined(separator: "\n")
    }

    /// A field of the sign-in flow, labelled `f.<name>`: on one line, or with `validation` (the
    /// lines under `validation:`) as a block.
    private static func standardField(_ name: String, type: String, validation: String) -> [String] {
        guard !validation.isEmpty else { return ["\(name): { type: \(type), label: f.\(name) }"] }
        return ["\(name):", "  type: \(type)", "  label: f.\(name)", "  validation:"] + lines(validation).map { "    " + $0 }
    }

    /// The `standard` entries (each its lines, the first `name: ...`) that `given` does not
    /// write under their name, then the lines of `given`.
    private static func replacing(_ standard: [[String]], with given: String) -> [String] {
        let givenLines = lines(given)
        let givenNames = Set(givenLines.filter { !$0.hasPrefix(" ") }.map(name(of:)))
        return standard.filter { !givenNames.contains(name(of: $0[0])) }.flatMap { $0 } + givenLines
    }

    private static func name(of line: String) -> String { String(line.prefix { $0 != ":" }) }

    private static func lines(_ text: String) -> [String] {
        text.isEmpty ? [] : text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A whole project: `flow.yaml`, `locales/en-US.yaml` holding `messages` (the lines under
    /// `messages:`), and the `more` files.
    static func project(flow: String, messages: String, _ more: File...) -> LintRuleExample {
        LintRuleExample(files: [File("flow.yaml", flow), .locale("en-US", messages)] + more)
    }
}
