import JumpForms

/// The check of one catalog: the file-level checks, then each message's, each rule's check in its
/// file under Rules/ (called here in order, or, for a rule that brings its `messageCheck`, in
/// the order of `LocaleRule.allCases`).
struct CatalogCheck {
    let project: ProjectFacts
    let catalog: LocaleCatalog
    let tag: LocaleTag
    let isReference: Bool
    let rules: PluralRules
    /// The ordinal rules (`selectordinal`).
    let ordinalRules: PluralRules
    let formatter: MessageFormatter
    let rightToLeft: Bool
    let allowZeroWidthSpace: Bool
    let sameLanguageAsReference: Bool
    let allowedSame: [String]
    /// A pseudo-locale `locales pseudo` writes (`en-XA`, `ar-XB`): its padding ends every text.
    let isPseudoLocale: Bool
    /// More general files of the same language (`fr` for `fr-CA`): their keys count as present.
    let fallbacks: [LocaleCatalog]
    /// jump-forms' own catalogs along the locale's chain (`fr-CA`, `fr`): the keys they
    /// translate need no text in the locale's files.
    let builtinChain: [LocaleCatalog]
    /// jump-forms' own keys need no text in the locale's files: it speaks the language of
    /// jump-forms' own texts, or a language CLDR does not know (`unknown-language` says what
    /// to fix first).
    let skipsBuiltinKeys: Bool
    let sampleIntegers: [MessageArgument]
    let sampleNumbers: [MessageArgument]
    /// Whether a key nothing knows is obsolete: the flows say which keys are in use, else the
    /// reference's file does (the reference's own keys only against flows). Without flows and
    /// without the reference's file nothing does (`missing-locale-file` says why).
    let judgesObsoleteKeys: Bool
    /// Where findings go: a class, so that the checks need not be `mutating` (a mutating
    /// method would copy every message it is handed out of the catalog's storage).
    let sink = FindingSink()

    init(project: ProjectFacts, catalog: LocaleCatalog) {
        self.project = project
        self.catalog = catalog
        tag = catalog.tag.value
        isReference = tag == project.reference
        rules = PluralRules.cardinal(for: tag.identifier)
        ordinalRules = PluralRules.ordinal(for: tag.identifier)
        formatter = MessageFormatter(localeTag: tag.identifier)
        rightToLeft = TextScan.isRightToLeft(tag)
        allowZeroWidthSpace = TextScan.zeroWidthSpaceLanguages.contains(tag.language)
        sameLanguageAsReference = tag.language == project.reference.language
        allowedSame = catalog.sameAsSource.map(\.value) + project.input.sameAsSourceAllowed
        isPseudoLocale = PseudoLocalizer.Style(rawValue: tag.identifier) != nil
        let own = catalog.tag.value
        fallbacks = project.catalogMatcher.ranked(own).filter { $0 != own }.compactMap { project.catalogsByTag[$0] }
        builtinChain = project.builtinMatcher.ranked(own).compactMap { project.builtinByTag[$0] }
        skipsBuiltinKeys = tag.language == project.builtinLanguage || rules.language == "root"
        sampleIntegers = Self.sampleNumbers(rules, integersOnly: true)
        sampleNumbers = Self.sampleNumbers(rules, integersOnly: false)
        judgesObsoleteKeys = project.hasFlows || (!isReference && project.referenceCatalog != nil)
    }

    var path: String { catalog.path }

    func add(
        _ rule: LocaleRule, _ message: String, at location: SourceLocation?, key: String?,
        hint: String? = nil, related: [Diagnostic.Related] = []
    ) {
        sink.findings.append(LocaleFinding(rule, message, at: location, file: path, key: key, hint: hint, related: related))
    }

    /// The findings of the catalog: the file-level checks, then each message's.
    func run() -> [LocaleFinding] {
        checkFile()
        let referenceKeys = project.referenceKeys
        var next = 0
        // Through a span each message is borrowed in place: a copy would retain its strings,
        // locations, offset map and pattern.
        let messages = catalog.allMessages
        let span = messages.span
        let infos = project.referenceInfo
        for index in span.indices {
            let key = span[index].key
            let position: Int
            if next < referenceKeys.count, referenceKeys[next] == key {
                position = next
            } else if let found = project.referencePosition[key] {
                position = found
            } else {
                check(span[index], info: project.keyInfo[key])
                continue
            }
            next = position + 1
            check(span[index], info: infos[position])
        }
        return sink.findings
    }

    /// The checks of the file as a whole: the language, YAML facts, missing keys.
    func checkFile() {
        checkLanguage()
        checkKeyTraps()
        checkDuplicateKeys()
        checkYAMLAliases()
        checkMissingKeys()
    }

    /// The checks of one message, in the order that lets one finding stand for several: a
    /// value trap or an empty message is reported alone, and a message with a syntax error
    /// gets only that finding and the character checks (which do not depend on its structure):
    /// comparing a broken text with the reference would report the same mistake again.
    func check(_ message: borrowing LocaleMessage, info: ProjectFacts.KeyInfo?) {
        let reference = isReference ? nil : info?.reference
        let obsolete = checkObsoleteKey(message, info: info)
        if checkValueTrap(message) { return }
        let facts = TextPrescan(message.text)
        if checkEmptyValue(message, facts, obsolete: obsolete, reference: reference) { return }
        if facts.mayHoldSpecialCharacter {
            checkInvisibleCharacters(message)
            checkBidiControls(message)
        }
        guard let pattern = checkICUSyntax(message, facts.text) else { return }
        checkWhitespaceEdges(message, reference, facts)
        checkDoubleSpace(message, reference, facts)
        checkNewlines(message, reference, facts)
        if !LocaleRule.messageChecks.isEmpty {
            let context = MessageContext(reference: reference, facts: facts)
            for check in LocaleRule.messageChecks { check(self, message, context) }
        }
        let hasArguments = facts.hasBrace
        let uses = hasArguments ? pattern.arguments : []
        let complete = checkArguments(message, uses, hasArguments: hasArguments, info: info, reference: reference)
        if hasArguments {
            let selectors = pattern.selectors
            if !selectors.isEmpty {
                checkPluralMissingCategories(message, selectors)
                checkPluralUnusedCategories(message, selectors)
            }
        }
        if let reference, reference.hasPattern, !checkSameAsSource(message, facts.text, pattern, reference),
            facts.hasTag || facts.mayHoldURL || facts.hasDigit || !reference.tags.isEmpty || !reference.urls.isEmpty || !reference.numbers.isEmpty
        {
            let literal = TextScan.literalText(pattern)
            checkMarkupMismatch(message, literal: literal, reference, facts)
            checkUrlMismatch(message, literal: literal, reference, facts)
            checkNumberMismatch(message, literal: literal, reference, facts)
        }
        // Formatting can fail only where a number is needed (`plural`, `selectordinal`,
        // `number`): a message whose arguments are all text, `select`, `date` or `time` with
        // every argument provided always renders, so only the others are formatted.
        if complete, uses.contains(where: { $0.kind == .plural || $0.kind == .selectordinal || $0.kind == .number }) {
            checkRendering(message, pattern, uses: uses, info: info)
        }
    }

    /// The argument checks (`argument-unknown`, `argument-dropped`, `argument-added`); false
    /// when the message uses an argument nobody provides (then it is not rendered: the finding
    /// already says why it would fail).
    func checkArguments(
        _ message: borrowing LocaleMessage, _ uses: [MessageArgumentUse], hasArguments: Bool,
        info: ProjectFacts.KeyInfo?, reference: ProjectFacts.ReferenceFacts?
    ) -> Bool {
        // Nothing to compare: no arguments here, none in the reference.
        if !hasArguments, reference?.argumentNames.isEmpty ?? true { return true }
        guard let provided = project.providedArguments(info, useReference: !isReference) else { return true }
        let (complete, suggested) = checkUnknownArguments(message, uses, provided: provided)
        checkDroppedArguments(message, uses, provided: provided, reference: reference, suggested: suggested)
        checkAddedArguments(message, uses, provided: provided, reference: reference)
        return complete
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingAll("\n", with: "\\n") + "\""
    }
}

/// The findings of one catalog's check (used by one thread).
final class FindingSink {
    var findings: [LocaleFinding] = []
}

/// `*` patterns over dotted keys: `*` matches any run of characters (dots included).
enum Glob {
    static func matches(_ pattern: String, _ text: String) -> Bool {
        if !pattern.contains("*") { return pattern == text }
        let p = Array(pattern.unicodeScalars)
        let t = Array(text.unicodeScalars)
        var pi = 0, ti = 0, star = -1, mark = 0
        while ti < t.count {
            if pi < p.count, p[pi] != "*", p[pi] == t[ti] {
                pi += 1; ti += 1
            } else if pi < p.count, p[pi] == "*" {
                star = pi; mark = ti; pi += 1
            } else if star >= 0 {
                pi = star + 1; mark += 1; ti = mark
            } else {
                return false
            }
        }
        while pi < p.count, p[pi] == "*" { pi += 1 }
        return pi == p.count
    }
}
