import Dispatch
import JumpForms
import Synchronization

/// Runs every `LocaleRule` over a set of locale catalogs: each file against the reference
/// locale, the flows' message keys and call sites, jump-forms' own catalog and CLDR's plural
/// rules. Files are checked concurrently; the findings come back sorted by place, the same
/// whichever way they were computed.
public struct LocaleChecker: Sendable {
    public let input: LocaleCheckInput

    public init(_ input: LocaleCheckInput) {
        self.input = input
    }

    public func run() -> [LocaleFinding] {
        // Without the file of the reference named (`--reference`, the flow's default locale)
        // there is nothing to compare with: that is the finding, once, and the check stops
        // (not every key of every file reported against nothing).
        let namedReference = input.requiredLocales.filter { $0.tag == input.reference }
        if !namedReference.isEmpty, !input.catalogs.contains(where: { $0.tag.value == input.reference }) {
            return Self.missingLocaleFiles(namedReference, catalogs: input.catalogs)
        }
        let project = ProjectFacts(input)
        var findings = Self.missingLocaleFiles(input.requiredLocales, catalogs: input.catalogs)
        let check = { @Sendable (catalog: LocaleCatalog) in CatalogCheck(project: project, catalog: catalog).run() }
        let perCatalog = input.concurrently ? ConcurrentMap.map(input.catalogs, check) : input.catalogs.map(check)
        for list in perCatalog { findings += list }
        return Self.sorted(findings)
    }

    /// Findings sorted by file, line, column and rule; findings without a place first.
    public static func sorted(_ findings: [LocaleFinding]) -> [LocaleFinding] {
        findings.enumerated().sorted { lhs, rhs in
            let l = lhs.element.diagnostic.location
            let r = rhs.element.diagnostic.location
            switch (l, r) {
            case (nil, nil): return lhs.offset < rhs.offset
            case (nil, _): return true
            case (_, nil): return false
            case let (l?, r?):
                if l != r { return l < r }
                if lhs.element.rule != rhs.element.rule { return lhs.element.rule.rawValue < rhs.element.rule.rawValue }
                return lhs.offset < rhs.offset
            }
        }.map(\.element)
    }

    /// `missing-locale-file`: each required locale without a catalog, once (also used by
    /// `locales coverage`, which must not measure against a locale that has no file). A locale
    /// that only has to be served (`captureLocale`) is not missing when a file serves it as
    /// `LocaleMatcher` negotiates (fr-FR.yaml for fr-CA).
    public static func missingLocaleFiles(_ required: [RequiredLocale], catalogs: [LocaleCatalog]) -> [LocaleFinding] {
        var findings: [LocaleFinding] = []
        let present = Set(catalogs.map(\.tag.value))
        var reported = Set<LocaleTag>()
        let known = catalogs.map(\.tag.value.identifier)
        let folder = catalogs.first.map { " in " + ProjectFacts.folder(of: $0.path) } ?? ""
        let matcher = LocaleMatcher(available: catalogs.map(\.tag.value).sorted())
        for required in required where !present.contains(required.tag) {
            if required.servedByAnother, matcher.bestMatch(for: required.tag) != nil { continue }
            guard reported.insert(required.tag).inserted else { continue }
            // The file that serves the locale (fr-FR.yaml for fr), else a similar name.
            let served = matcher.bestMatch(for: required.tag).map { "did you mean '\($0)'? (\($0).yaml serves \(required.tag)), or add \(required.tag).yaml" }
            findings.append(LocaleFinding(
                .missingLocaleFile, "\(required.tag) (\(required.origin)) has no locale file\(folder)",
                at: required.location, file: required.location?.file ?? "", key: nil,
                hint: served ?? Suggestion.hint(for: required.tag.identifier, among: known) ?? "add \(required.tag).yaml, or correct the tag"))
        }
        return findings
    }
}

// MARK: - Shared facts

/// Facts every catalog's check reads: the reference, the keys in use and their call sites.
struct ProjectFacts: Sendable {
    struct CallSite: Sendable {
        var arguments: [String: MessageArgument]
        var location: SourceLocation
    }

    let input: LocaleCheckInput
    let reference: LocaleTag
    let referenceCatalog: LocaleCatalog?
    let catalogsByTag: [LocaleTag: LocaleCatalog]
    /// Keys the flows use, in order of first use, with every call site.
    let usedKeys: [String]
    let callSites: [String: [CallSite]]
    let builtinKeys: Set<String>
    /// jump-forms' own en-US messages: their arguments are what their call sites provide.
    let builtinReference: LocaleCatalog?
    /// jump-forms' own catalogs by locale, and the language of its source texts (`en`).
    let builtinByTag: [LocaleTag: LocaleCatalog]
    /// Which catalogs (and built-in catalogs) serve a locale's missing keys (see `LocaleMatcher`).
    let catalogMatcher: LocaleMatcher
    let builtinMatcher: LocaleMatcher
    let builtinLanguage: String?
    /// Keys that are not obsolete, for did-you-mean hints.
    let knownKeyList: [String]
    let knownKeys: Set<String>
    let hasFlows: Bool
    /// Everything known about a key, found with one lookup per message.
    let keyInfo: [String: KeyInfo]
    /// The reference's keys in file order with their info, and each key's position: files
    /// mostly list the keys in the reference's order, so a message's info is found by
    /// comparing its key with the next expected one (a string comparison, no hashing).
    let referenceKeys: [String]
    let referenceInfo: [KeyInfo]
    let referencePosition: [String: Int]
    /// Keys the flows use that the reference lacks.
    let usedOutsideReference: [String]

    /// A class: looked up once per message in every locale, where copying a struct of arrays
    /// would cost a dozen reference-count operations. Made once, never changed.
    final class KeyInfo: Sendable {
        let known: Bool
        let sites: [CallSite]?
        /// The distinct argument shapes the call sites give, for rendering: worked out on first
        /// use, since few messages need rendering and a key such as `validation.required` has
        /// a call site in every field.
        var signatures: [[String: CatalogCheck.Sample]] {
            signatureCache.withLock { cache in
                if let cache { return cache }
                let made = sites.map(ProjectFacts.signatures) ?? []
                cache = made
                return made
            }
        }
        private let signatureCache = Mutex<[[String: CatalogCheck.Sample]]?>(nil)
        /// What the call sites all provide (or jump-forms' own en-US text uses).
        let provided: ProvidedArguments?
        let isBuiltin: Bool
        let builtinPattern: MessagePattern?
        let reference: ReferenceFacts?

        /// What `ProjectFacts.init` gathers about a key before its info is made.
        struct Draft: Sendable {
            var known = false
            var sites: [CallSite]?
            var isBuiltin = false
            var builtinPattern: MessagePattern?
            /// The reference's message under the key, whose facts the info holds.
            var referenceMessage: LocaleMessage?
        }

        /// `referenceSource` names the reference's text in messages ("the en-US text").
        init(_ draft: Draft, referenceSource: String) {
            known = draft.known
            sites = draft.sites
            isBuiltin = draft.isBuiltin
            builtinPattern = draft.builtinPattern
            let reference = draft.referenceMessage.map { ReferenceFacts($0, source: referenceSource) }
            self.reference = reference
            if let sites = draft.sites {
                var names = Set(sites[0].arguments.keys)
                for site in sites.dropFirst() { names.formIntersection(site.arguments.keys) }
                provided = ProvidedArguments(names.sorted(), source: "its call site")
            } else if let pattern = draft.builtinPattern {
                provided = ProvidedArguments(Set(pattern.argumentNames).sorted(), source: "jump-forms' call site")
            } else {
                provided = nil
            }
        }
    }

    /// The arguments a message under a key may use (sorted), and what says so ("its call
    /// site", "the en-US text"), for messages. One object: a check reads it with one retain.
    final class ProvidedArguments: Sendable {
        let names: [String]
        let source: String

        init(_ names: [String], source: String) {
            self.names = names
            self.source = source
        }
    }

    /// What the checks compare with, computed once per reference message (not once per locale).
    final class ReferenceFacts: Sendable {
        let message: LocaleMessage
        /// `message.text`, read without copying the message.
        let text: String
        let pattern: MessagePattern?
        /// Whether `pattern` is set, known without copying it.
        let hasPattern: Bool
        let argumentNames: [String]
        /// The arguments the text uses, as what a message may use when no call site says.
        let provided: ProvidedArguments
        let tags: [String]
        let urls: [String]
        let numbers: [String]
        let leading: Bool
        let trailing: Bool
        let hasDoubleSpace: Bool
        let newlines: Int

        init(_ message: LocaleMessage, source: String) {
            self.message = message
            let text = message.text
            self.text = text
            let facts = TextPrescan(text)
            if case .success(let pattern) = message.pattern {
                self.pattern = pattern
                hasPattern = true
                argumentNames = facts.hasBrace ? pattern.argumentNames : []
                provided = ProvidedArguments(Set(argumentNames).sorted(), source: source)
                let literal = TextScan.literalText(pattern)
                tags = facts.hasTag ? TextScan.tags(in: literal) : []
                urls = facts.mayHoldURL ? TextScan.urls(in: literal) : []
                numbers = facts.hasDigit ? TextScan.numbers(in: literal) : []
            } else {
                pattern = nil
                hasPattern = false
                argumentNames = []
                provided = ProvidedArguments([], source: source)
                tags = []
                urls = []
                numbers = []
            }
            leading = facts.startsWithWhitespace
            trailing = facts.endsWithWhitespace
            hasDoubleSpace = facts.hasDoubleSpace
            newlines = facts.newlines
        }
    }

    init(_ input: LocaleCheckInput) {
        self.input = input
        reference = input.reference
        var byTag: [LocaleTag: LocaleCatalog] = [:]
        for catalog in input.catalogs where byTag[catalog.tag.value] == nil { byTag[catalog.tag.value] = catalog }
        catalogsByTag = byTag
        catalogMatcher = LocaleMatcher(available: byTag.keys.sorted())
        referenceCatalog = byTag[input.reference]
        var used: [String] = []
        var sites: [String: [CallSite]] = [:]
        for flow in input.flows {
            for field in flow.fields {
                for slot in [field.label, field.placeholder, field.tip].compactMap({ $0 }) + field.options.map(\.label) {
                    if sites[slot.value] == nil { used.append(slot.value) }
                    sites[slot.value, default: []].append(CallSite(arguments: [:], location: slot.location))
                }
                for rule in field.validation {
                    var arguments: [String: MessageArgument] = ["label": "Label", "field": .string(field.name)]
                    switch rule.value {
                    case .none: break
                    case .integer(let number): arguments["value"] = .int(number)
                    case .text(let text): arguments["value"] = .string(text)
                    case .list(let items): arguments["value"] = .string(items.joined(separator: ", "))
                    }
                    if sites[rule.message.value] == nil { used.append(rule.message.value) }
                    sites[rule.message.value, default: []].append(CallSite(arguments: arguments, location: rule.message.location))
                }
            }
            for provider in flow.providers {
                guard let name = provider.name else { continue }
                if sites[name.value] == nil { used.append(name.value) }
                sites[name.value, default: []].append(CallSite(arguments: [:], location: name.location))
            }
        }
        usedKeys = used
        callSites = sites
        builtinKeys = Set(input.builtinCatalogs.flatMap(\.keys))
        builtinReference = input.builtinCatalogs.first { $0.tag.value.identifier == "en-US" } ?? input.builtinCatalogs.first
        var builtinTags: [LocaleTag: LocaleCatalog] = [:]
        for catalog in input.builtinCatalogs where builtinTags[catalog.tag.value] == nil { builtinTags[catalog.tag.value] = catalog }
        builtinByTag = builtinTags
        builtinMatcher = LocaleMatcher(available: builtinTags.keys.sorted())
        builtinLanguage = builtinReference?.tag.value.language
        hasFlows = !input.flows.isEmpty
        var known: [String] = []
        var knownSet = Set<String>()
        let keysOfReference = byTag[input.reference]?.keys ?? []
        for key in (hasFlows ? used : keysOfReference) + input.builtinCatalogs.flatMap(\.keys) where knownSet.insert(key).inserted {
            known.append(key)
        }
        knownKeyList = known
        knownKeys = knownSet
        var drafts: [String: KeyInfo.Draft] = [:]
        drafts.reserveCapacity(knownSet.count + keysOfReference.count)
        for key in knownSet { drafts[key, default: KeyInfo.Draft()].known = true }
        for (key, list) in sites { drafts[key, default: KeyInfo.Draft()].sites = list }
        for catalog in input.builtinCatalogs {
            for key in catalog.keys { drafts[key, default: KeyInfo.Draft()].isBuiltin = true }
        }
        for message in builtinReference?.allMessages ?? [] {
            if case .success(let pattern) = message.pattern { drafts[message.key, default: KeyInfo.Draft()].builtinPattern = pattern }
        }
        for message in byTag[input.reference]?.allMessages ?? [] {
            drafts[message.key, default: KeyInfo.Draft()].referenceMessage = message
        }
        let referenceSource = "the \(input.reference) text"
        let info = drafts.mapValues { KeyInfo($0, referenceSource: referenceSource) }
        keyInfo = info
        let orderedKeys = byTag[input.reference]?.keys ?? []
        referenceKeys = orderedKeys
        referenceInfo = orderedKeys.map { info[$0]! }
        var positions: [String: Int] = [:]
        positions.reserveCapacity(orderedKeys.count)
        for (position, key) in orderedKeys.enumerated() { positions[key] = position }
        referencePosition = positions
        usedOutsideReference = used.filter { positions[$0] == nil }
    }

    /// The folder part of a file's path ("." for a bare name), for messages.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return String(path[..<slash])
    }

    /// The distinct argument shapes of call sites: `label` takes sample strings, integers the
    /// locale's sample numbers, other values stay as the call site gives them.
    static func signatures(_ sites: [CallSite]) -> [[String: CatalogCheck.Sample]] {
        var seen = Set<String>()
        var result: [[String: CatalogCheck.Sample]] = []
        // Most keys have one call site: its shape cannot repeat, so it is not written out.
        let compareShapes = sites.count > 1
        for site in sites {
            var signature: [String: CatalogCheck.Sample] = [:]
            for (name, value) in site.arguments.sorted(by: { $0.key < $1.key }) {
                switch (name, value) {
                case ("label", _): signature[name] = .strings
                case (_, .int): signature[name] = .numbers(integersOnly: true)
                case (_, .string), (_, .decimal), (_, .date): signature[name] = .fixed(value)
                }
            }
            if !compareShapes || seen.insert(shape(of: site)).inserted { result.append(signature) }
        }
        return result
    }

    /// What tells call sites that render differently apart: `label`, `name#` for an integer,
    /// `name=text` for a fixed value, in name order.
    static func shape(of site: CallSite) -> String {
        site.arguments.sorted(by: { $0.key < $1.key }).map { name, value in
            switch (name, value) {
            case ("label", _): name
            case (_, .int): name + "#"
            case (_, .string(let text)), (_, .decimal(let text)): name + "=" + text
            case (_, .date(let date)): name + "=" + date.description
            }
        }.joined(separator: ",")
    }

    /// The closest known key: first among the keys of the same parent (`fields.email.*`), then
    /// among all keys of about the same length.
    func suggestKey(for key: String) -> String? {
        let parent = key.lastIndex(of: ".").map { String(key[..<$0]) } ?? ""
        let siblings = knownKeyList.filter { candidate in
            candidate.hasPrefix(parent) && candidate.lastIndex(of: ".").map { String(candidate[..<$0]) } ?? "" == parent
        }
        if let found = Suggestion.closest(to: key, among: siblings) { return found }
        let length = key.utf8.count
        return Suggestion.closest(to: key, among: knownKeyList.lazy.filter { abs($0.utf8.count - length) <= 3 })
    }

    /// The arguments a key's call sites all provide; nil when nothing is known about them.
    func providedArguments(_ info: KeyInfo?, useReference: Bool) -> ProvidedArguments? {
        if let provided = info?.provided { return provided }
        if useReference, let reference = info?.reference, reference.hasPattern { return reference.provided }
        return nil
    }
}

// MARK: - One catalog

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
        let own = catalog.tag.value
        fallbacks = project.catalogMatcher.ranked(own).filter { $0 != own }.compactMap { project.catalogsByTag[$0] }
        builtinChain = project.builtinMatcher.ranked(own).compactMap { project.builtinByTag[$0] }
        skipsBuiltinKeys = tag.language == project.builtinLanguage || rules.language == "root"
        sampleIntegers = Self.sampleNumbers(rules, integersOnly: true)
        sampleNumbers = Self.sampleNumbers(rules, integersOnly: false)
        judgesObsoleteKeys = project.hasFlows || (!isReference && project.referenceCatalog != nil)
    }

    var path: String { catalog.path }

    func add(_ rule: LocaleRule, _ message: String, at location: SourceLocation?, key: String?,
             hint: String? = nil, related: [Diagnostic.Related] = []) {
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
        if rules.language == "root" {
            let languages = PluralRules.languages.filter { !$0.contains("_") }
            add(.unknownLanguage, "'\(tag.language)' of \(tag) is not a language CLDR knows (it has no plural rules for it); plural checks use the root rules (only 'other')",
                at: catalog.tag.location, key: nil, hint: LanguageHint.hint(for: tag, known: languages))
        }
        checkYAMLFacts()
        checkMissingKeys()
    }

    // MARK: file-level

    func checkYAMLFacts() {
        for trap in catalog.keyTraps {
            add(.yamlTrap, "the key '\(trap.written)' is unquoted: YAML 1.1 tools read it as \(Self.reading(trap.trap, trap.written)), not as text, so they see another key than '\(trap.key)'",
                at: trap.location, key: trap.key, hint: "write it in quotes: \"\(trap.written)\":")
        }
        for duplicate in catalog.duplicateKeys {
            add(.duplicateKey, "message key '\(duplicate.key)' is written twice; jump-forms uses the first value, most other tools the last",
                at: duplicate.location, key: duplicate.key, hint: "remove one of them",
                related: [Diagnostic.Related("'\(duplicate.key)' first written here", at: duplicate.firstLocation)])
        }
        let references = catalog.yamlReferences
        let aliasNames = Set(references.filter { $0.kind == .alias }.map(\.name))
        for reference in references {
            switch reference.kind {
            case .alias:
                let anchor = references.last { $0.kind == .anchor && $0.name == reference.name && $0.location < reference.location }
                let what = reference.key.map { "message '\($0)'" } ?? "this value"
                add(.yamlAlias, "\(what) is the alias *\(reference.name): it shares the text of another key, and translation tools flatten aliases",
                    at: reference.location, key: reference.key ?? "*" + reference.name, hint: "write the text out",
                    related: anchor.map { [Diagnostic.Related("anchor &\(reference.name) is here", at: $0.location)] } ?? [])
            case .anchor where !aliasNames.contains(reference.name):
                add(.yamlAlias, "anchor &\(reference.name) is never used by an alias", at: reference.location,
                    key: reference.key ?? "&" + reference.name, hint: "remove '&\(reference.name)'")
            case .anchor:
                break
            }
        }
    }

    func has(_ key: String) -> Bool {
        catalog.contains(key) || fallbacks.contains { $0.contains(key) }
    }

    func checkMissingKeys() {
        let place = catalog.messagesLocation ?? catalog.tag.location
        var reported = Set<String>()
        if !isReference, let reference = project.referenceCatalog {
            // Walk the file's keys along the reference's: where they agree (most of the time),
            // a string comparison says the key is there.
            let keys = catalog.keys
            var cursor = 0
            for (position, key) in project.referenceKeys.enumerated() {
                if cursor < keys.count, keys[cursor] == key {
                    cursor += 1
                    continue
                }
                guard !has(key) else { continue }
                let info = project.referenceInfo[position]
                guard !project.hasFlows || info.known else { continue }
                // jump-forms' own keys that its catalog translates for this locale.
                if info.isBuiltin, builtinServes(key) { continue }
                reported.insert(key)
                let related = reference[key].map { [Diagnostic.Related("\(project.reference) has it here", at: $0.keyLocation)] } ?? []
                add(.missingKey, "message '\(key)' is missing from \(tag); \(project.reference) has it", at: place, key: key, related: related)
            }
        }
        let candidates = isReference || project.referenceCatalog == nil ? project.usedKeys : project.usedOutsideReference
        for key in candidates where !reported.contains(key) && !has(key) {
            let info = project.keyInfo[key]
            if info?.isBuiltin == true, builtinServes(key) { continue }
            reported.insert(key)
            let site = info?.sites?.first
            add(.missingKey, "message '\(key)' is missing from \(tag); the flow uses it", at: place, key: key,
                related: site.map { [Diagnostic.Related("used here", at: $0.location)] } ?? [])
        }
        // jump-forms' own messages: the locale's files or jump-forms' catalog must translate them
        // (where the files serve jump-forms: see `LocaleCheckInput.requiresBuiltinTexts`).
        guard project.input.requiresBuiltinTexts, !skipsBuiltinKeys, let builtin = project.builtinReference else { return }
        for message in builtin.allMessages where !reported.contains(message.key) && !has(message.key) && !builtinServes(message.key) {
            add(.missingKey, "message '\(message.key)' is missing from \(tag); jump-forms uses it, and its own catalog has no \(tag.language) text for it",
                at: place, key: message.key, hint: "translate jump-forms' \(builtin.tag.value) text: \(Self.quoted(message.text))")
        }
    }

    /// Whether jump-forms' own catalog gives the locale a text for `key` in its language.
    func builtinServes(_ key: String) -> Bool {
        skipsBuiltinKeys || builtinChain.contains { $0.contains(key) }
    }

    // MARK: messages

    func check(_ message: borrowing LocaleMessage, info: ProjectFacts.KeyInfo?) {
        let reference = isReference ? nil : info?.reference
        let key = message.key

        let known = info?.known ?? false
        let obsolete = !known && judgesObsoleteKeys
        if obsolete {
            let why = project.hasFlows ? "no flow uses it" : "\(project.reference) has no such key"
            // An emptied parent (`gender:` whose cases were removed) names what belongs under it.
            let prefix = key + "."
            let child = message.text.isEmpty ? project.knownKeyList.first { $0.hasPrefix(prefix) } : nil
            let hint = child.map { "the keys under it were removed (such as '\($0)'): restore them, or remove it" }
                ?? project.suggestKey(for: key).map { "did you mean '\($0)'?" } ?? "remove it"
            add(.obsoleteKey, "message '\(key)' is obsolete: \(why)", at: message.keyLocation, key: key, hint: hint)
        }
        if let trap = message.trap, !(trap == .null && message.text.isEmpty) {
            add(.yamlTrap, "'\(message.text)' is unquoted: YAML 1.1 tools read it as \(Self.reading(trap, message.text)), not as text",
                at: message.valueLocation, key: key, hint: "write it in quotes: \"\(message.text)\"")
            // Other tools read another value than the one written: comparing it (`1.0` has
            // the number 10 for a YAML 1.1 tool, 1.0 for jump-forms) would report the trap again.
            return
        }
        let text = message.text
        let facts = TextPrescan(text)
        if text.isEmpty || (facts.startsWithWhitespace && text.unicodeScalars.allSatisfy(TextScan.isWhitespace)) {
            // An obsolete key is reported once: emptied (`gender:` whose cases were removed)
            // or not, the fix is to remove it.
            if obsolete { return }
            add(.emptyValue, "message '\(key)' is empty", at: message.valueLocation, key: key,
                hint: reference.map { "\(project.reference) says: \(Self.quoted($0.text))" })
            return
        }
        if facts.mayHoldSpecialCharacter { checkCharacters(message) }

        // A message with a syntax error gets only that finding (and the character checks,
        // which do not depend on its structure): comparing a broken text with the reference
        // would report the same mistake again.
        let pattern: MessagePattern
        switch message.pattern {
        case .failure(let error):
            if error.isMissingOtherCase {
                add(.selectWithoutOther, "message '\(key)': \(error.message)", at: message.location(ofOffset: error.offset), key: key,
                    hint: "add an 'other' case, used when no other case matches")
            } else {
                add(.icuSyntax, "message '\(key)': \(error.message)", at: message.location(ofOffset: error.offset), key: key, hint: error.hint)
            }
            return
        case .success(let parsed):
            pattern = parsed
        }
        checkWhitespace(message, reference, facts)
        let hasArguments = facts.hasBrace
        let uses = hasArguments ? pattern.arguments : []
        let complete = checkArguments(message, uses, hasArguments: hasArguments, info: info, reference: reference)
        if hasArguments { checkPlurals(message, pattern) }
        if let reference, reference.hasPattern {
            checkAgainstReference(message, pattern, reference, facts)
        }
        // Formatting can fail only where a number is needed (`plural`, `selectordinal`,
        // `number`): a message whose arguments are all text, `select`, `date` or `time` with
        // every argument provided always renders, so only the others are formatted.
        if complete, uses.contains(where: { $0.kind == .plural || $0.kind == .selectordinal || $0.kind == .number }) {
            checkRendering(message, pattern, uses: uses, info: info)
        }
    }

    static func quoted(_ text: String) -> String {
        "\"" + text.replacingAll("\n", with: "\\n") + "\""
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

    /// The key as written on its line (the last part of a nested key).
    static func displayKey(_ message: LocaleMessage) -> String {
        message.key.split(separator: ".").last.map(String.init) ?? message.key
    }

    func checkCharacters(_ message: LocaleMessage) {
        let text = message.text
        var invisibles = TextScan.invisibles(in: text, allowZeroWidthSpace: allowZeroWidthSpace)
        if !invisibles.isEmpty {
            // Written as an escape (`"E-Mail\u200B-Adresse"`): kept on purpose.
            let escapes = message.offsetMap.escapeOffsets
            if !escapes.isEmpty { invisibles.removeAll { escapes.contains($0.offset) } }
        }
        if let first = invisibles.first {
            let more = invisibles.count > 1 ? " (and \(invisibles.count - 1) more)" : ""
            add(.invisibleCharacter, "message '\(message.key)' holds the invisible character \(TextScan.describe(first.scalar))\(more)",
                at: message.location(ofOffset: first.offset), key: message.key, hint: "delete it (write \\u escapes in double quotes to keep one on purpose)")
        }
        if let problem = TextScan.bidiProblem(in: text, rightToLeft: rightToLeft) {
            let more = problem.count > 1 ? " (\(problem.count) bidi controls in all)" : ""
            add(.bidiControl, "message '\(message.key)' holds the bidi control \(TextScan.describe(problem.scalar)): \(problem.problem)\(more)",
                at: message.location(ofOffset: problem.offset), key: message.key)
        }
    }

    func checkWhitespace(_ message: LocaleMessage, _ referenceMessage: ProjectFacts.ReferenceFacts?, _ facts: TextPrescan) {
        let text = message.text
        let scalars = text.unicodeScalars
        let leading = facts.startsWithWhitespace
        let trailing = facts.endsWithWhitespace
        let referenceLeading = referenceMessage?.leading ?? false
        let referenceTrailing = referenceMessage?.trailing ?? false
        var problems: [String] = []
        var offset = 0
        func describe(_ scalar: Unicode.Scalar?) -> String { scalar == "\n" ? "a line break" : scalar == " " ? "a space" : "whitespace" }
        if leading != referenceLeading || (leading && referenceMessage == nil) {
            problems.append(leading ? "starts with \(describe(scalars.first))" : "does not start with whitespace as \(project.reference)'s does")
        }
        if trailing != referenceTrailing || (trailing && referenceMessage == nil) {
            problems.append(trailing ? "ends with \(describe(scalars.last))" : "does not end with whitespace as \(project.reference)'s does")
            if trailing && problems.count == 1 { offset = scalars.count - 1 }
        }
        if !problems.isEmpty {
            add(.whitespaceEdge, "message '\(message.key)' \(problems.joined(separator: " and "))",
                at: message.location(ofOffset: offset), key: message.key,
                hint: leading || trailing ? "remove it (the layout adds the spacing it needs)" : nil)
        }
        if facts.hasDoubleSpace, let double = text.doubleSpaceOffset, referenceMessage?.hasDoubleSpace != true {
            add(.doubleSpace, "message '\(message.key)' has two spaces in a row", at: message.location(ofOffset: double, length: 2),
                key: message.key, hint: "write one space")
        }
        if let referenceMessage {
            let lines = facts.newlines
            let referenceLines = referenceMessage.newlines
            if lines != referenceLines {
                add(.newlineMismatch, "message '\(message.key)' has \(Self.count(lines, "line break")), \(project.reference)'s has \(referenceLines)",
                    at: message.valueLocation, key: message.key)
            }
        }
    }

    static func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }

    /// Unknown and dropped arguments; false when the message uses an argument nobody provides
    /// (then it is not rendered: the finding already says why it would fail).
    func checkArguments(_ message: LocaleMessage, _ uses: [MessageArgumentUse], hasArguments: Bool,
                                 info: ProjectFacts.KeyInfo?, reference: ProjectFacts.ReferenceFacts?) -> Bool {
        // Nothing to compare: no arguments here, none in the reference.
        if !hasArguments, reference?.argumentNames.isEmpty ?? true { return true }
        guard let provided = project.providedArguments(info, useReference: !isReference) else { return true }
        // Messages have few arguments: searching the lists (`uses` has one entry per name)
        // beats hashing each name into the sets.
        let providedList = provided.names
        var dropped: [String] = []
        if let reference {
            dropped = reference.argumentNames.filter { name in providedList.contains(name) && !uses.contains { $0.name == name } }
        }
        // Provided, but the reference does not use it (only known when the call site, not the
        // reference, says what is provided).
        var added: [MessageArgumentUse] = []
        if let reference, reference.hasPattern {
            added = uses.filter { providedList.contains($0.name) && !reference.provided.names.contains($0.name) }
        }
        var complete = true
        for use in uses where !providedList.contains(use.name) {
            complete = false
            let suggestion = Suggestion.closest(to: use.name, among: providedList)
            if let suggestion { dropped.removeAll { $0 == suggestion } }
            let hint = suggestion.map { "did you mean '\($0)'?" }
                ?? (providedList.isEmpty ? "this message gets no arguments" : "it gets: \(providedList.joined(separator: ", "))")
            add(.argumentUnknown, "message '\(message.key)' uses the argument {\(use.name)}, which \(provided.source) does not provide",
                at: message.location(ofOffset: use.nameOffset, length: use.name.unicodeScalars.count), key: message.key, hint: hint)
        }
        for name in dropped {
            add(.argumentDropped, "message '\(message.key)' drops the argument {\(name)}, which the \(project.reference) text uses",
                at: message.valueLocation, key: message.key)
        }
        for use in added {
            add(.argumentAdded, "message '\(message.key)' adds the argument {\(use.name)}, which the \(project.reference) text does not use",
                at: message.location(ofOffset: use.nameOffset, length: use.name.unicodeScalars.count), key: message.key,
                hint: "remove it, or use it in the \(project.reference) text too")
        }
        return complete
    }

    func checkPlurals(_ message: LocaleMessage, _ pattern: MessagePattern) {
        let selectors = pattern.selectors
        guard !selectors.isEmpty else { return }
        for selector in selectors where selector.kind == .plural || selector.kind == .selectordinal {
            let ordinal = selector.kind == .selectordinal
            let rules = ordinal ? ordinalRules : self.rules
            let categories = rules.categories
            let language = rules.language
            let what = ordinal ? "selectordinal" : "plural"
            let present = Set(selector.categories)
            let exact = Set(selector.keys.filter(\.isExactMatch).map { Self.normalizedNumber(String($0.text.dropFirst())) })
            for category in categories where !present.contains(category) && !covered(category, rules: rules, exact: exact, offset: selector.pluralOffset) {
                let samples = Self.sampleText(ordinal ? PluralSamples(integers: rules.samples(for: category).integers, decimals: []) : rules.samples(for: category))
                add(.pluralMissingCategory,
                    "message '\(message.key)': \(what) {\(selector.name)} lacks '\(category.rawValue)', which \(language) uses for \(ordinal ? "the ordinals " : "")\(samples); they would show the 'other' text",
                    at: message.location(ofOffset: selector.nameOffset, length: selector.name.unicodeScalars.count), key: message.key,
                    hint: "add a '\(category.rawValue) {...}' case")
            }
            guard language != "root" else { continue }
            for key in selector.keys {
                guard let category = key.category, !categories.contains(category) else { continue }
                let hint = category == .zero ? "for exactly zero write '=0 {...}'; otherwise remove the case" : "remove the case"
                add(.pluralUnusedCategory,
                    "message '\(message.key)': \(language) never uses the \(ordinal ? "ordinal" : "plural") category '\(category.rawValue)' (it has \(categories.map(\.rawValue).joined(separator: ", ")))",
                    at: message.location(ofOffset: key.offset, length: key.text.unicodeScalars.count), key: message.key, hint: hint)
            }
        }
    }

    /// Whether `=N` cases match every number of a category (only small, finite categories:
    /// English `one` is covered by `=1`).
    func covered(_ category: PluralCategory, rules: PluralRules, exact: Set<String>, offset: Int) -> Bool {
        guard offset == 0, !exact.isEmpty else { return false }
        let samples = rules.samples(for: category)
        let all = samples.integers + samples.decimals
        guard !all.isEmpty, samples.integers.count < 10, !all.contains(where: { $0.contains("c") || $0.contains("e") }) else { return false }
        return all.allSatisfy { exact.contains(Self.normalizedNumber($0)) }
    }

    /// `01.50` -> `1.5`, `-0` -> `0`.
    static func normalizedNumber(_ text: String) -> String {
        var negative = false
        var body = Substring(text)
        if body.first == "-" { negative = true; body = body.dropFirst() }
        let parts = body.split(separator: ".", omittingEmptySubsequences: false)
        var whole = String(parts[0].drop { $0 == "0" })
        if whole.isEmpty { whole = "0" }
        var fraction = parts.count > 1 ? String(parts[1]) : ""
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let value = fraction.isEmpty ? whole : whole + "." + fraction
        return negative && value != "0" ? "-" + value : value
    }

    /// `2, 3, 4, 22, 23, 24…` (decimals when a category has no integers).
    static func sampleText(_ samples: PluralSamples) -> String {
        let plain = { (list: [String]) in list.filter { !$0.contains("c") && !$0.contains("e") } }
        let integers = plain(samples.integers)
        let list = integers.isEmpty ? plain(samples.decimals) : integers
        let shown = list.prefix(6).joined(separator: ", ")
        return list.count > 6 || samples.integers.count >= 10 ? shown + "…" : shown
    }

    func checkAgainstReference(_ message: LocaleMessage, _ pattern: MessagePattern,
                                        _ reference: ProjectFacts.ReferenceFacts, _ facts: TextPrescan) {
        let text = message.text
        if Self.mayBeEqual(text, reference.text), text == reference.text {
            if !sameLanguageAsReference, !isAllowedSame(message.key), TextScan.hasTranslatableLetters(TextScan.literalText(pattern)) {
                add(.sameAsSource, "message '\(message.key)' is the \(project.reference) text, untranslated", at: message.valueLocation,
                    key: message.key, hint: "translate it, or list the key under 'sameAsSource' when the text is the same in \(tag.language)")
            }
            return
        }
        let hasTag = facts.hasTag
        let hasURL = facts.mayHoldURL
        let hasDigit = facts.hasDigit
        guard hasTag || hasURL || hasDigit || !reference.tags.isEmpty || !reference.urls.isEmpty || !reference.numbers.isEmpty else { return }
        let literal = TextScan.literalText(pattern)
        let tags = hasTag ? TextScan.tags(in: literal) : []
        if tags != reference.tags {
            add(.markupMismatch, "message '\(message.key)': markup differs from \(project.reference)'s: " + Self.difference(tags, reference.tags),
                at: message.valueLocation, key: message.key)
        }
        let urls = hasURL ? TextScan.urls(in: literal) : []
        if urls != reference.urls {
            add(.urlMismatch, "message '\(message.key)': links differ from \(project.reference)'s: " + Self.difference(urls, reference.urls),
                at: message.valueLocation, key: message.key)
        }
        let numbers = hasDigit ? TextScan.numbers(in: literal) : []
        if numbers != reference.numbers {
            add(.numberMismatch, "message '\(message.key)': numbers differ from \(project.reference)'s: " + Self.difference(numbers, reference.numbers),
                at: message.valueLocation, key: message.key)
        }
    }

    /// False when two texts start with different ASCII characters, so cannot be equal: an
    /// ASCII character is a starter that canonical decomposition keeps first, so this never
    /// contradicts `==` (which compares canonical equivalence, slowly for non-ASCII text).
    static func mayBeEqual(_ lhs: String, _ rhs: String) -> Bool {
        guard let left = lhs.utf8.first, let right = rhs.utf8.first, left < 0x80, right < 0x80 else { return true }
        return left == right
    }

    /// `lacks </b>; adds <i>`.
    static func difference(_ mine: [String], _ theirs: [String]) -> String {
        let lacking = theirs.filter { !mine.contains($0) }
        let adding = mine.filter { !theirs.contains($0) }
        var parts: [String] = []
        if !lacking.isEmpty { parts.append("lacks " + lacking.joined(separator: ", ")) }
        if !adding.isEmpty { parts.append("adds " + adding.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }

    func isAllowedSame(_ key: String) -> Bool {
        allowedSame.contains { Glob.matches($0, key) }
    }

    // MARK: rendering

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

    func checkRendering(_ message: LocaleMessage, _ pattern: MessagePattern, uses: [MessageArgumentUse], info: ProjectFacts.KeyInfo?) {
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
            if let failure = render(pattern, signature) {
                add(.renderFailure, "message '\(message.key)' cannot be rendered for \(tag) with \(failure.arguments): \(failure.error)",
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

/// The findings of one catalog's check (used by one thread).
final class FindingSink {
    var findings: [LocaleFinding] = []
}

// MARK: - Helpers

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
