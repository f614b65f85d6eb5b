import JumpForms
import Synchronization

/// What every catalog's check reads about the project: the reference, the keys the flows use
/// and their call sites, jump-forms' own catalogs.
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

        /// `referenceSource` names the reference's text in messages ("the en-US text");
        /// `referenceLanguage` is the reference's language.
        init(_ draft: Draft, referenceSource: String, referenceLanguage: String) {
            known = draft.known
            sites = draft.sites
            isBuiltin = draft.isBuiltin
            builtinPattern = draft.builtinPattern
            let reference = draft.referenceMessage.map { ReferenceFacts($0, source: referenceSource, language: referenceLanguage) }
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
        /// The mark the text ends with (`ending-punctuation` compares every locale's with it).
        let endingMark: EndingMark

        init(_ message: LocaleMessage, source: String, language: String) {
            self.message = message
            let text = message.text
            self.text = text
            endingMark = EndingMark(text, language: language)
            let facts = TextPrescan(text)
            if case .success(let pattern) = MessagePattern.parse(text) {
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
            // An activity's messages get the arguments it declares, whose values come from
            // `--set` (text or numbers: a number is the sample that fits every use).
            for activity in flow.activities {
                let arguments = Dictionary(activity.arguments.map { ($0.value, MessageArgument.int(1)) }, uniquingKeysWith: { first, _ in first })
                for key in activity.messageKeys {
                    if sites[key.value] == nil { used.append(key.value) }
                    sites[key.value, default: []].append(CallSite(arguments: arguments, location: key.location))
                }
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
        let info = drafts.mapValues { KeyInfo($0, referenceSource: referenceSource, referenceLanguage: input.reference.language) }
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
