/// The semantic pass over a decoded flow, its locale catalogs and the client configuration.
/// Collects every finding; never stops at the first.
public struct FlowLinter: Sendable {
    public var flow: Flow
    public var catalogs: [LocaleCatalog]
    public var config: ClientConfig?
    /// Keys the CLI's own catalog uses: never "unused", and their arguments are known.
    public var builtinMessageKeys: Set<String>
    /// Keys other flows sharing the locales folder use (not "unused" either).
    public var otherUsedKeys: Set<String>
    /// Whether a file exists (icons), given a path relative to the current directory.
    public var fileExists: @Sendable (String) -> Bool
    /// The arguments each catalog's messages use, by catalog position, from
    /// `CatalogLinter.lintKeepingArguments` (each message parsed once); without them (or for a
    /// catalog they were not made from) the used messages are parsed here.
    package var argumentTables: [MessageArgumentTable]?

    public init(
        flow: Flow,
        catalogs: [LocaleCatalog],
        config: ClientConfig? = nil,
        builtinMessageKeys: Set<String> = [],
        otherUsedKeys: Set<String> = [],
        fileExists: @escaping @Sendable (String) -> Bool
    ) {
        self.flow = flow
        self.catalogs = catalogs
        self.config = config
        self.builtinMessageKeys = builtinMessageKeys
        self.otherUsedKeys = otherUsedKeys
        self.fileExists = fileExists
    }

    /// The flow-level checks. Checks of the catalogs alone (ICU syntax) are
    /// `CatalogLinter`'s, run once per catalog however many flows share it.
    public func lint() -> [Diagnostic] {
        var findings: [Diagnostic] = []
        lintForms(&findings)
        lintFields(&findings)
        lintProviders(&findings)
        lintSharing(&findings)
        lintConfig(&findings)
        lintMessages(&findings)
        return findings.sortedByLocation()
    }

    // MARK: forms

    private func lintForms(_ findings: inout [Diagnostic]) {
        let fieldNames = flow.fields.map(\.name)
        for form in flow.forms {
            var seen: [String: SourceLocation] = [:]
            for reference in form.fields {
                if flow.field(named: reference.value) == nil {
                    findings.append(
                        Diagnostic(
                            .undefinedField,
                            "form '\(form.name)' names field '\(reference.value)', which the flow does not define",
                            at: reference.location, hint: Suggestion.hint(for: reference.value, among: fieldNames)))
                }
                if let first = seen[reference.value] {
                    findings.append(
                        Diagnostic(
                            .fieldRepeatedInForm, "field '\(reference.value)' is listed twice in form '\(form.name)'",
                            at: reference.location, related: [.init("first listed here", at: first)]))
                } else {
                    seen[reference.value] = reference.location
                }
            }
        }
        let used = Set(flow.forms.flatMap { $0.fields.map(\.value) })
        for field in flow.fields where !used.contains(field.name) {
            findings.append(Diagnostic(.unusedField, "field '\(field.name)' is not used by any form", at: field.location))
        }
    }

    // MARK: fields and rules

    private func lintFields(_ findings: inout [Diagnostic]) {
        let fieldNames = flow.fields.map(\.name)
        var patternChecks: [String: PatternCheck] = [:]
        for field in flow.fields {
            for rule in field.validation where rule.kind == .pattern {
                if case .text(let source) = rule.value, patternChecks[source] == nil { patternChecks[source] = Self.checkPattern(source) }
            }
        }
        for field in flow.fields {
            let type = field.type.value
            let hasOptions = !field.options.isEmpty
            if type.offersOptions, !field.options.contains(where: { !$0.disabled }) {
                findings.append(
                    Diagnostic(
                        .choiceWithoutOptions, "\(type.rawValue) field '\(field.name)' has no enabled options",
                        at: field.optionsLocation ?? field.type.location))
            }
            if !type.offersOptions, hasOptions {
                findings.append(
                    Diagnostic(
                        .optionsOnNonChoiceField,
                        "\(type.rawValue) field '\(field.name)' has options, but only select and radio fields show them",
                        at: field.optionsLocation ?? field.location))
            }
            var optionValues: [String: SourceLocation] = [:]
            for option in field.options {
                if let first = optionValues[option.value.value] {
                    findings.append(
                        Diagnostic(
                            .duplicateOptionValue, "field '\(field.name)' has two options with value '\(option.value.value)'",
                            at: option.value.location, related: [.init("first option with this value", at: first)]))
                } else {
                    optionValues[option.value.value] = option.value.location
                }
            }
            var seenRules: [ValidationRule] = []
            for rule in field.validation {
                lintRule(rule, of: field, fieldNames: fieldNames, hasOptions: hasOptions, patternChecks: patternChecks, &findings)
                if let first = seenRules.first(where: { $0.kind == rule.kind && $0.value == rule.value }) {
                    findings.append(
                        Diagnostic(
                            .duplicateRule, "rule '\(rule.kind.rawValue)' appears twice on field '\(field.name)'",
                            at: rule.location, related: [.init("first written here", at: first.location)]))
                }
                seenRules.append(rule)
            }
            lintRanges(field, &findings)
        }
    }

    /// What compiling a `pattern` rule's expression found: nothing, a backtracking risk, or an
    /// error. Worked out once per distinct expression (flows repeat them field after field).
    private enum PatternCheck {
        case compiles(PatternAnalysis.Risk?)
        case fails(String)
    }

    private static func checkPattern(_ source: String) -> PatternCheck {
        do {
            _ = try Regex(source)
            return .compiles(PatternAnalysis.backtrackingRisk(in: source))
        } catch {
            return .fails("\(error)")
        }
    }

    private func lintRule(
        _ rule: ValidationRule, of field: FieldDefinition, fieldNames: [String], hasOptions: Bool,
        patternChecks: [String: PatternCheck], _ findings: inout [Diagnostic]
    ) {
        let type = field.type.value
        let valueLocation = rule.valueLocation ?? rule.location
        if !rule.kind.fits(type, hasOptions: hasOptions) {
            let why =
                rule.kind == .matchOptions && !hasOptions
                ? "field '\(field.name)' has no options"
                : "it needs a field of type \(rule.kind.fittingTypes), and '\(field.name)' is \(type.rawValue)"
            findings.append(Diagnostic(.ruleDoesNotFitField, "rule '\(rule.kind.rawValue)' does not fit: \(why)", at: rule.location))
        }
        switch (rule.kind, rule.value) {
        case (.match, .text(let other)), (.alongWith, .text(let other)):
            guard flow.field(named: other) != nil else {
                findings.append(
                    Diagnostic(
                        .unknownFieldReference, "rule '\(rule.kind.rawValue)' names field '\(other)', which the flow does not define",
                        at: valueLocation, hint: Suggestion.hint(for: other, among: fieldNames)))
                return
            }
            if other == field.name {
                findings.append(
                    Diagnostic(
                        .unknownFieldReference, "rule '\(rule.kind.rawValue)' names the field itself",
                        at: valueLocation))
            }
            for form in flow.forms
            where form.fields.contains(where: { $0.value == field.name })
                && !form.fields.contains(where: { $0.value == other })
            {
                findings.append(
                    Diagnostic(
                        .referenceOutsideForm,
                        "rule '\(rule.kind.rawValue)' of field '\(field.name)' names '\(other)', which form '\(form.name)' does not contain",
                        at: valueLocation, related: [.init("form '\(form.name)' is defined here", at: form.location)]))
            }
        case (.format, .text(let name)):
            if Format(rawValue: name) == nil {
                findings.append(
                    Diagnostic(
                        .unknownFormat, "unknown format '\(name)'", at: valueLocation,
                        hint: Suggestion.hint(for: name, among: Format.allCases.map(\.rawValue))
                            ?? "formats: \(Format.allCases.map(\.rawValue).joined(separator: ", "))"))
            }
        case (.pattern, .text(let source)):
            switch patternChecks[source] ?? Self.checkPattern(source) {
            case .compiles(nil):
                break
            case .compiles(let risk?):
                findings.append(
                    Diagnostic(
                        .backtrackingPattern,
                        "pattern is prone to catastrophic backtracking: \(risk)", at: valueLocation, hint: risk.hint))
            case .fails(let error):
                findings.append(Diagnostic(.invalidPattern, "pattern does not compile: \(error)", at: valueLocation))
            }
        case (.whitelist, .list([])):
            findings.append(
                Diagnostic(
                    .emptyRuleList, "rule 'whitelist' of field '\(field.name)' lists no value: it accepts nothing",
                    at: valueLocation, hint: "list the accepted values, or remove the rule"))
        case (.blacklist, .list([])), (.emailDomainBlacklist, .list([])):
            findings.append(
                Diagnostic(
                    .emptyRuleList, "rule '\(rule.kind.rawValue)' of field '\(field.name)' lists no value: it refuses nothing",
                    at: valueLocation, hint: "list the refused values, or remove the rule"))
        default:
            break
        }
    }

    private func lintRanges(_ field: FieldDefinition, _ findings: inout [Diagnostic]) {
        var bounds: [RuleKind: (Int, ValidationRule)] = [:]
        for rule in field.validation {
            guard case .integer(let number) = rule.value else { continue }
            if number < 0 {
                findings.append(
                    Diagnostic(
                        .ruleValueRange, "rule '\(rule.kind.rawValue)' has a negative value (\(number))",
                        at: rule.valueLocation ?? rule.location))
            }
            bounds[rule.kind] = (number, rule)
        }
        for (low, high) in [(RuleKind.minLength, RuleKind.maxLength), (.minYears, .maxYears)] {
            if let (minimum, rule) = bounds[low], let (maximum, maxRule) = bounds[high], minimum > maximum {
                findings.append(
                    Diagnostic(
                        .ruleValueRange,
                        "'\(low.rawValue)' (\(minimum)) is above '\(high.rawValue)' (\(maximum)): no value can pass",
                        at: rule.valueLocation ?? rule.location, related: [.init("'\(high.rawValue)' is here", at: maxRule.location)]))
            }
        }
    }

    // MARK: providers

    private func lintProviders(_ findings: inout [Diagnostic]) {
        var seen: [String: SourceLocation] = [:]
        let flowDirectory = Self.directory(of: flow.path)
        for provider in flow.providers {
            if let first = seen[provider.id.value] {
                findings.append(
                    Diagnostic(
                        .duplicateProvider, "provider '\(provider.id.value)' is listed twice",
                        at: provider.id.location, related: [.init("first listed here", at: first)]))
            } else {
                seen[provider.id.value] = provider.id.location
            }
            switch provider.kind {
            case .builtIn:
                if BuiltInProvider(rawValue: provider.id.value) == nil {
                    findings.append(
                        Diagnostic(
                            .unknownProvider, "unknown built-in provider '\(provider.id.value)'", at: provider.id.location,
                            hint: Suggestion.hint(for: provider.id.value, among: BuiltInProvider.allCases.map(\.rawValue))
                                ?? "custom providers need 'type: openid' or 'type: saml'"))
                }
            case .openID(let identifier, _):
                if identifier == nil {
                    findings.append(
                        Diagnostic(
                            .openIDWithoutIdentifier, "custom OpenID provider '\(provider.id.value)' has no 'openidIdentifier'",
                            at: provider.id.location))
                }
            case .saml(let samlProvider):
                if samlProvider == nil {
                    findings.append(
                        Diagnostic(
                            .samlWithoutProvider, "custom SAML provider '\(provider.id.value)' has no 'samlProvider'",
                            at: provider.id.location))
                }
            }
            if let icon = provider.icon {
                let path = icon.value.hasPrefix("/") ? icon.value : Self.join(flowDirectory, icon.value)
                if !fileExists(path) {
                    findings.append(
                        Diagnostic(
                            .missingIcon, "icon file '\(path)' does not exist", at: icon.location,
                            hint: "icon paths are relative to the flow file"))
                }
            }
        }
    }

    // MARK: sharing

    private func lintSharing(_ findings: inout [Diagnostic]) {
        let listed = flow.providers.map(\.id.value)
        var seen: [String: SourceLocation] = [:]
        for provider in flow.sharing {
            if let first = seen[provider.value] {
                findings.append(
                    Diagnostic(
                        .duplicateProvider, "sharing provider '\(provider.value)' is listed twice",
                        at: provider.location, related: [.init("first listed here", at: first)]))
                continue
            }
            seen[provider.value] = provider.location
            if !listed.contains(provider.value) {
                findings.append(
                    Diagnostic(
                        .sharingProviderNotListed, "sharing provider '\(provider.value)' is not among the flow's providers",
                        at: provider.location,
                        hint: Suggestion.hint(for: provider.value, among: listed) ?? "add it to 'providers'"))
            }
        }
        let posting = flow.sharing.filter { SharingProvider(rawValue: $0.value) != nil }
        guard posting.isEmpty else { return }
        let capable = SharingProvider.allCases.map(\.rawValue).joined(separator: ", ")
        for activity in flow.activities {
            let why =
                flow.sharing.isEmpty
                ? "the flow's 'sharing' lists no provider"
                : "none of the providers in 'sharing' (\(flow.sharing.map(\.value).joined(separator: ", "))) takes activities"
            findings.append(
                Diagnostic(
                    .activityNotPostable, "no provider could post activity '\(activity.name)': \(why)", at: activity.location,
                    hint: "providers that take activities: \(capable)"))
        }
    }

    // MARK: configuration

    private func lintConfig(_ findings: inout [Diagnostic]) {
        let formNames = flow.forms.map(\.name)
        if let config {
            // Defaults name forms a flow may not have; a name written in jump.yaml must exist.
            for (key, form) in config.namedForms where config.writtenKeys.contains(key) && flow.form(named: form.value) == nil {
                findings.append(
                    Diagnostic(
                        .configNamesMissingForm, "'\(key)' names form '\(form.value)', which the flow lacks",
                        at: form.location, hint: Suggestion.hint(for: form.value, among: formNames)))
            }
            if let name = config.captureFlowName, name.value != flow.name.value {
                findings.append(
                    Diagnostic(
                        .configFlowMismatch,
                        "'captureFlowName' is '\(name.value)' but the flow is named '\(flow.name.value)'", at: name.location,
                        related: [.init("the flow's name", at: flow.name.location)]))
            }
            let version = config.captureFlowVersion
            if version.value != "HEAD", version.value != flow.version.value {
                findings.append(
                    Diagnostic(
                        .configFlowMismatch,
                        "'captureFlowVersion' is '\(version.value)' but the flow's version is '\(flow.version.value)'",
                        at: version.location, hint: "write HEAD (the latest version) or '\(flow.version.value)'",
                        related: [.init("the flow's version", at: flow.version.location)]))
            }
            let tag = config.captureLocale.value
            if LocaleMatcher(available: catalogs.map(\.tag.value)).bestMatch(for: tag) == nil {
                findings.append(
                    Diagnostic(
                        .missingLocale, "'captureLocale' is \(tag), but no locale file serves it",
                        at: config.captureLocale.location, hint: "add \(tag).yaml (or \(tag.language).yaml) to the locales folder"))
            }
        }
        let signInName = config?.captureSignInFormName.value ?? "signInForm"
        let signInType = config?.captureTraditionalSignInType.value ?? .email
        if let form = flow.form(named: signInName) {
            let fields = form.fields.compactMap { flow.field(named: $0.value) }
            let passwords = fields.filter { $0.type.value == .password }.count
            let identifiers = fields.filter { signInType == .email ? $0.type.value == .email : $0.type.value == .text }.count
            if passwords != 1 || identifiers != 1 {
                let identifierType = signInType == .email ? "email" : "text (username)"
                findings.append(
                    Diagnostic(
                        .signInFormShape,
                        "sign-in form '\(signInName)' has \(passwords) password field\(passwords == 1 ? "" : "s") and \(identifiers) \(identifierType) field\(identifiers == 1 ? "" : "s"); it needs exactly one of each",
                        at: form.location))
            }
        }
        let identifyingForms = [
            config?.forgottenPasswordFormName.value ?? "forgotPasswordForm",
            config?.resendEmailVerificationFormName.value ?? "resendVerificationForm"
        ]
        for name in identifyingForms {
            guard let form = flow.form(named: name) else { continue }
            let hasIdentifier = form.fields.contains { flow.field(named: $0.value)?.type.value.canIdentify == true }
            if !hasIdentifier {
                findings.append(
                    Diagnostic(
                        .formWithoutIdentifier, "form '\(name)' has no field of type email or text to identify the account",
                        at: form.location))
            }
        }
        lintUnsentFields(&findings)
    }

    /// The forms the JUMP SDKs fill from the record (registration, social registration, edit
    /// profile) send a field only through its `schemaId` (iOS JRCaptureUser+Extras.m:132-171;
    /// Android CaptureFlowUtils.java:53-105): a field without one never reaches the server,
    /// and Android's debuggable builds throw on it before sending anything.
    private func lintUnsentFields(_ findings: inout [Diagnostic]) {
        var names: [String] = []
        for name in [
            config?.captureTraditionalRegistrationFormName.value ?? "registrationForm",
            config?.captureSocialRegistrationFormName.value ?? "socialRegistrationForm",
            config?.editProfileFormName.value ?? "editProfileForm"
        ] where !names.contains(name) {
            names.append(name)
        }
        for name in names {
            guard let form = flow.form(named: name) else { continue }
            for reference in form.fields {
                guard let field = flow.field(named: reference.value), field.schemaId == nil else { continue }
                findings.append(
                    Diagnostic(
                        .fieldNotSent,
                        """
                        field '\(field.name)' of form '\(name)' has no schemaId, so the JUMP SDKs cannot send it: \
                        iOS and Android release builds leave it out, Android debuggable builds throw \
                        'field defn is missing schemaId' and send nothing
                        """,
                        at: reference.location,
                        hint: "give it the schemaId of the attribute it writes (a confirmation: the schemaId of the field it confirms)",
                        related: [.init("the field", at: field.location)]))
            }
        }
        // The forgot-password and resend-verification forms send their first field of type
        // email or text alone (iOS JRCaptureFlow.m:81-97; Android CaptureFlowUtils.java:212-227).
        for name in [
            config?.forgottenPasswordFormName.value ?? "forgotPasswordForm",
            config?.resendEmailVerificationFormName.value ?? "resendVerificationForm"
        ] {
            guard let form = flow.form(named: name),
                let identifying = form.fields.first(where: { flow.field(named: $0.value)?.type.value.canIdentify == true })
            else { continue }
            for reference in form.fields where reference.value != identifying.value && flow.field(named: reference.value) != nil {
                findings.append(
                    Diagnostic(
                        .fieldNotSent,
                        """
                        field '\(reference.value)' of form '\(name)' is never sent: the JUMP SDKs send only the form's first \
                        field of type email or text ('\(identifying.value)')
                        """,
                        at: reference.location, hint: "remove it from the form",
                        related: [.init("the field the SDKs send", at: identifying.location)]))
            }
        }
    }

    // MARK: messages

    /// The arguments a call site gives a message: a validation message gets `label`, `field`
    /// and, when its rule has a value, `value`; an activity's messages get the arguments it
    /// declares; the other slots (labels, tips, options, provider names) get none.
    private struct CallArguments: Sendable {
        var isValidation: Bool
        var field: String
        var value: MessageArgument?
        /// An activity's messages: the arguments it declares (values from `--set`, text or
        /// numbers, so any use of them passes).
        var declared: [String]? = nil

        static let none = CallArguments(isValidation: false, field: "", value: nil)

        /// The names given, sorted.
        var names: [String] {
            if let declared { return declared.sorted() }
            return isValidation ? (value == nil ? ["field", "label"] : ["field", "label", "value"]) : []
        }

        subscript(name: String) -> MessageArgument? {
            if let declared { return declared.contains(name) ? .int(1) : nil }
            guard isValidation else { return nil }
            switch name {
            case "label": return "Label"
            case "field": return .string(field)
            case "value": return value
            default: return nil
            }
        }

        /// Call sites giving the same names check a message alike.
        func givesSameNames(as other: CallArguments) -> Bool {
            isValidation == other.isValidation && (value == nil) == (other.value == nil) && declared?.sorted() == other.declared?.sorted()
        }
    }

    private func keyUses() -> [(key: Located<String>, arguments: CallArguments)] {
        var uses: [(Located<String>, CallArguments)] = []
        for field in flow.fields {
            for slot in [field.label, field.placeholder, field.tip].compactMap({ $0 }) { uses.append((slot, .none)) }
            for option in field.options { uses.append((option.label, .none)) }
            for rule in field.validation {
                let value: MessageArgument? =
                    switch rule.value {
                    case .none: nil
                    case .integer(let number): .int(number)
                    case .text(let text): .string(text)
                    case .list(let items): .string(items.joined(separator: ", "))
                    }
                uses.append((rule.message, CallArguments(isValidation: true, field: field.name, value: value)))
            }
        }
        for provider in flow.providers {
            if let name = provider.name { uses.append((name, .none)) }
        }
        for activity in flow.activities {
            let arguments = CallArguments(isValidation: false, field: "", value: nil, declared: activity.arguments.map(\.value))
            for key in activity.messageKeys { uses.append((key, arguments)) }
        }
        return uses
    }

    /// A message key the flow uses: where first, and the argument sets its call sites give
    /// (one per distinct set of argument names; the first use of a set decides its values).
    private struct KeyUse: Sendable {
        var key: Located<String>
        var hashed: MessageKey
        var argumentSets: [CallArguments]
    }

    /// The used keys, each once, in order of first use.
    private func distinctKeyUses() -> [KeyUse] {
        var position: [MessageKey: Int] = [:]
        var result: [KeyUse] = []
        for (key, arguments) in keyUses() {
            let hashed = MessageKey(key.value)
            if let index = position[hashed] {
                if !result[index].argumentSets.contains(where: { $0.givesSameNames(as: arguments) }) {
                    result[index].argumentSets.append(arguments)
                }
            } else {
                position[hashed] = result.count
                result.append(KeyUse(key: key, hashed: hashed, argumentSets: [arguments]))
            }
        }
        return result
    }

    private func lintMessages(_ findings: inout [Diagnostic]) {
        let defaultTag = flow.defaultLocale.value
        let positionOfTag = Dictionary(catalogs.indices.map { (catalogs[$0].tag.value, $0) }, uniquingKeysWith: { first, _ in first })
        let defaultPosition = positionOfTag[defaultTag]
        if defaultPosition == nil {
            findings.append(
                Diagnostic(
                    .missingLocale, "the default locale \(defaultTag) has no locale file",
                    at: flow.defaultLocale.location, hint: "add \(defaultTag).yaml to the locales folder"))
        }
        let uses = distinctKeyUses()
        // A catalog whose `messages` could not be read has a decode error; its keys are not
        // reported missing one by one.
        if let defaultPosition, catalogs[defaultPosition].isComplete {
            let defaultCatalog = catalogs[defaultPosition]
            for use in uses where defaultCatalog.position(of: use.hashed) == nil {
                findings.append(
                    Diagnostic(
                        .messageMissingInDefaultLocale,
                        "message '\(use.key.value)' is missing from the default locale \(defaultTag) (\(defaultCatalog.path))",
                        at: use.key.location, hint: Suggestion.hint(for: use.key.value, among: defaultCatalog.keys)))
            }
        }
        let matcher = LocaleMatcher(available: catalogs.map(\.tag.value).sorted())
        // Each catalog on its own (all cores): keys missing along its chain (fr-CA, fr, before
        // the default locale), and the arguments its messages use. Results are merged in
        // catalog order, so the outcome is the same as one loop.
        let all = catalogs
        let tables = argumentTables
        let perCatalog = ConcurrentMap.map(Array(all.indices)) { position -> [Diagnostic] in
            let catalog = all[position]
            let isDefault = catalog.tag.value == defaultTag
            // The rest of the chain: the catalog itself is looked up first, for both checks.
            let fallbacks = matcher.ranked(catalog.tag.value).filter { $0 != catalog.tag.value }.compactMap { positionOfTag[$0] }.map {
                all[$0].keyPositions
            }
            var found: [Diagnostic] = []
            // The uses are read in place: copying them out would retain their strings, which
            // both cores share (atomic reference counts on one cache line slow both down). A
            // message is made only for a key the flow uses (by its position, no array of all).
            uses.withUnsafeBufferPointer { uses in
                for index in uses.indices {
                    guard let own = catalog.position(of: uses[index].hashed) else {
                        if !isDefault, catalog.isComplete, !fallbacks.contains(where: { $0.position(of: uses[index].hashed) != nil }) {
                            found.append(
                                Diagnostic(
                                    .messageMissingInLocale,
                                    """
                                    message '\(uses[index].key.value)' is missing from \(catalog.tag.value) (\(catalog.path)); its users see the \
                                    \(defaultTag) text
                                    """,
                                    at: uses[index].key.location))
                        }
                        continue
                    }
                    Self.checkArguments(
                        Self.argumentUses(of: catalog, at: own, table: tables.flatMap { position < $0.count ? $0[position] : nil }),
                        of: catalog.message(at: own),
                        use: uses.baseAddress! + index, into: &found)
                }
            }
            return found
        }
        for found in perCatalog { findings += found }
        // Unused keys: in any locale, one a letter or two off a used key that the file lacks
        // and another locale file (or jump-forms' own catalog) has is a typo (an error where it
        // is written; where no file has the used key, the typo may be the flow's: JF308 says so
        // there); the rest are
        // reported in the default locale only, to report each once.
        let own = Set(uses.map(\.key.value))
        let usedKeys = own.union(otherUsedKeys).union(builtinMessageKeys)
        var known: KnownKeys?
        // The used keys hashed once; each catalog's used messages found by position, so only an
        // unused message's key is made into a string.
        let hashedUsedKeys = usedKeys.map(MessageKey.init)
        for catalog in catalogs where catalog.isComplete {
            let isDefault = catalog.tag.value == defaultTag
            var used = [Bool](repeating: false, count: catalog.count)
            for key in hashedUsedKeys {
                if let position = catalog.position(of: key) { used[position] = true }
            }
            for position in used.indices where !used[position] {
                let message = catalog.message(at: position)
                if known == nil { known = KnownKeys(usedKeys) }
                if let meant = known?.meant(by: message.key, missingFrom: catalog),
                    builtinMessageKeys.contains(meant.key)
                        || catalogs.contains(where: { $0.tag.value != catalog.tag.value && $0.contains(meant.key) })
                {
                    // Written nested (`lable:` under `email:`), the segment; written flat, the key.
                    let written = message.keyLocation.length == message.key.count ? meant.key : meant.segment
                    findings.append(
                        Diagnostic(
                            .mistypedMessageKey,
                            "message key '\(message.key)' is used by nothing, and \(catalog.tag.value) lacks '\(meant.key)'",
                            at: message.keyLocation, hint: "did you mean '\(written)'?"))
                } else if isDefault {
                    findings.append(Diagnostic(.unusedMessage, "message '\(message.key)' is not used by the flow", at: message.keyLocation))
                }
            }
        }
    }

    /// The message keys in use, to tell a mistyped key: one that differs from a used key in a
    /// single dot-separated segment, by a typo's distance (`fields.email.lable`,
    /// `fields.emial.label`). Made only when a message is unused, and searched for the few
    /// unused keys (a table of every key with each segment left out cost more than all the
    /// rest of lint: 1.13 G of 10.0 G instructions on the long-message corpus).
    struct KnownKeys {
        /// The used keys' segments, by segment count (strings: short ones compare as two
        /// words, substrings character by character). Unsorted: the few candidates a search
        /// finds are sorted instead.
        private var keysBySegmentCount: [Int: [[String]]] = [:]

        init(_ keys: Set<String>) {
            for key in keys {
                let segments = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
                keysBySegmentCount[segments.count, default: []].append(segments)
            }
        }

        /// The used key `key` is a typo of (and the segment meant), when `catalog` lacks it.
        func meant(by key: String, missingFrom catalog: LocaleCatalog) -> (key: String, segment: String)? {
            let segments = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard let sameCount = keysBySegmentCount[segments.count] else { return nil }
            for index in segments.indices {
                // The used keys equal to `key` but in this segment, in key order: what they
                // have there.
                let candidates = sameCount.filter { used in
                    !used.indices.contains { other in other != index && used[other] != segments[other] }
                }.map { $0.joined(separator: ".") }.sorted().map { key in
                    String(key.split(separator: ".", omittingEmptySubsequences: false)[index])
                }
                guard !candidates.isEmpty else { continue }
                let missing = candidates.filter { candidate in
                    var fixed = segments
                    fixed[index] = candidate
                    return !catalog.contains(fixed.joined(separator: "."))
                }
                guard let segment = Suggestion.closest(to: segments[index], among: missing) else { continue }
                var fixed = segments
                fixed[index] = segment
                return (fixed.joined(separator: "."), segment)
            }
            return nil
        }
    }

    /// The arguments the message at `position` of `catalog` uses: from `table` (lint's one
    /// parse of each message) when it is the catalog's, else parsed here.
    private static func argumentUses(
        of catalog: LocaleCatalog, at position: Int, table: MessageArgumentTable?
    ) -> ArraySlice<MessageArgumentUse> {
        if let table, table.belongs(to: catalog) { return table.uses(at: position) }
        let message = catalog.message(at: position)
        guard !message.isPlainText, case .success(let pattern) = message.pattern else { return [] }
        return pattern.argumentUses[...]
    }

    /// Arguments, checked statically: each one a message uses must be provided by its call
    /// sites, and plural, selectordinal and number arguments must be numbers. Most messages
    /// use none and have nothing to report.
    private static func checkArguments(
        _ argumentUses: ArraySlice<MessageArgumentUse>, of message: @autoclosure () -> LocaleMessage, use: UnsafePointer<KeyUse>,
        into found: inout [Diagnostic]
    ) {
        guard !argumentUses.isEmpty else { return }
        let message = message()
        for arguments in use.pointee.argumentSets {
            for argumentUse in argumentUses {
                var at: SourceLocation { message.location(ofOffset: argumentUse.offset, length: argumentUse.name.count + 1) }
                guard let argument = arguments[argumentUse.name] else {
                    let provided = arguments.names
                    let hint =
                        arguments.declared != nil
                        ? "the activity declares \(provided.isEmpty ? "no arguments" : provided.joined(separator: ", ")); add '\(argumentUse.name)' to its 'arguments'"
                        : provided.isEmpty ? "this message gets no arguments" : "it gets: \(provided.joined(separator: ", "))"
                    found.append(
                        Diagnostic(
                            .messageArgument,
                            "message '\(use.pointee.key.value)' uses argument '{\(argumentUse.name)}', which its call site does not provide",
                            at: at, hint: hint))
                    continue
                }
                let numeric = argumentUse.kind == .plural || argumentUse.kind == .selectordinal || argumentUse.kind == .number
                if numeric, case .string(let text) = argument, Double(text) == nil {
                    found.append(
                        Diagnostic(
                            .messageArgument,
                            """
                            message '\(use.pointee.key.value)' formats '{\(argumentUse.name)}' as a number (\(argumentUse.kind.rawValue)), but it is \
                            text here
                            """,
                            at: at, hint: "use {\(argumentUse.name)} as plain text, or a select"))
                }
            }
        }
    }

    // MARK: paths

    static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    static func join(_ base: String, _ relative: String) -> String {
        base == "." ? relative : base + "/" + relative
    }
}
