import JumpDiagnostics

import Synchronization

/// Picks, among the locales there are texts for, those that serve a requested locale, best
/// first, with CLDR's data (CLDR 47 through babel; `LocaleMatcher+CLDR.generated.swift`,
/// `scripts/generate-locale-data.py`):
///
/// 1. The requested tag is canonicalized: CLDR's language, territory and script aliases
///    (`iw` → `he`, `tl` → `fil`, `sh` → `sr-Latn`, `en-UK` → `en-GB`; and ICU's `ars` → `ar-SA`).
/// 2. Likely subtags tell its script (`zh-HK` is `zh-Hant-HK`, `sr-ME` is `sr-Latn-ME`), kept
///    only where it is not the language's own (`fr-CA` stays `fr-CA`).
/// 3. Its CLDR inheritance chain follows the parent locales: `fr-CA` → `fr`; `es-AR` →
///    `es-419` → `es`; `en-AU` → `en-001` → `en`; `zh-HK` → `zh-Hant` (whose parent is root,
///    not `zh`); `nb` → `no`; `pt-AO` → `pt-PT` → `pt`.
/// 4. An available locale serves the request when its own chain meets the request's. The one
///    that meets it nearest the request wins (`es-419` before `es-ES` for `es-AR`); among
///    equals, the locale that is the meeting point's own (its likely region: `fr-FR` for `fr`,
///    `zh-TW` for `zh-Hant`), then one of CLDR's paradigm locales (`en-GB`, `es-419`, `pt-PT`:
///    the regional variety others of its language follow), then the one nearest the meeting
///    point, then the first of `available` (callers pass them sorted, so the first in
///    alphabetical order).
///
/// A pseudo-locale (region `XA`, `XB` or `XC`: `en-XA`, `ar-XB`, as ICU's LocaleMatcher has
/// them) serves only a request for itself and is served only by itself: `en-XA.yaml` never
/// speaks for `en-US`, nor `en-US.yaml` for `en-XA`. Pseudo text is chosen by name.
///
/// An available locale spelt as requested always comes first. Locales of another language
/// never serve (the caller falls back to its default locale), unless CLDR makes one the parent
/// (`hi-Latn` → `en-IN`: Hinglish inherits English texts), nor do other scripts of the same
/// language (`sr-Latn` is not served by `sr-Cyrl`).
///
/// ```swift
/// let matcher = LocaleMatcher(available: ["en-US", "es-ES", "es-MX", "fr-FR"].compactMap(LocaleTag.init))
/// matcher.bestMatch(for: LocaleTag("fr-CA")!)    // fr-FR
/// matcher.bestMatch(for: LocaleTag("es-419")!)   // es-MX
/// matcher.ranked(LocaleTag("es-AR")!)            // [es-MX, es-ES]
/// matcher.bestMatch(for: LocaleTag("ja")!)       // nil
/// ```
public struct LocaleMatcher: Sendable {
    /// The locales there are texts for, in the order ties are broken.
    public let available: [LocaleTag]
    /// Each available locale's CLDR inheritance chain, as CLDR ids.
    private let chains: [[String]]

    /// Answers given before (a form looks up every text for the same locale).
    private let answers = RankingCache()

    public init(available: [LocaleTag]) {
        self.available = available
        chains = available.map { LocaleInheritance.chain(of: $0) }
    }

    /// The available locales that serve `requested`, best first; empty when none speaks its
    /// language (or `requested` is `und`).
    public func ranked(_ requested: LocaleTag) -> [LocaleTag] {
        if let known = answers.entries.withLock({ $0[requested] }) { return known }
        let answer = rank(requested)
        answers.entries.withLock { entries in
            // Bounded: a server asked for every tag there is keeps at most this many.
            if entries.count >= RankingCache.limit { entries.removeAll(keepingCapacity: true) }
            entries[requested] = answer
        }
        return answer
    }

    private func rank(_ requested: LocaleTag) -> [LocaleTag] {
        guard requested.language != "und" else { return [] }
        let wanted = LocaleInheritance.chain(of: requested)
        var scored: [(key: (Int, Int, Int, Int, Int), tag: LocaleTag)] = []
        for (position, tag) in available.enumerated() {
            if tag == requested {
                scored.append(((-1, 0, 0, 0, position), tag))
                continue
            }
            let chain = chains[position]
            guard let meeting = wanted.firstIndex(where: { chain.contains($0) }),
                let depth = chain.firstIndex(of: wanted[meeting])
            else { continue }
            let node = wanted[meeting]
            let isOwn = chain[0] == node || chain[0] == LocaleInheritance.representative(of: node)
            let isParadigm = LocaleInheritance.paradigmLocales.contains(chain[0])
            scored.append(((meeting, isOwn ? 0 : 1, isParadigm ? 0 : 1, depth, position), tag))
        }
        return scored.sorted { $0.key < $1.key }.map(\.tag)
    }

    /// The available locale that serves `requested` best; nil when none does.
    public func bestMatch(for requested: LocaleTag) -> LocaleTag? {
        ranked(requested).first
    }
}

/// The rankings a `LocaleMatcher` has answered, shared by its copies.
private final class RankingCache: Sendable {
    static let limit = 256
    let entries = Mutex<[LocaleTag: [LocaleTag]]>([:])
}

extension LocaleTag {
    /// The tag with CLDR's aliases replaced: `iw` → `he`, `sh` → `sr-Latn`, `mo-MD` → `ro-MD`,
    /// `en-UK` → `en-GB`, `ars` → `ar-SA` (an ICU alias). Subtags the tag has win over those
    /// of the replacement.
    public var canonicalized: LocaleTag {
        let id = LocaleInheritance.canonical(self)
        return LocaleTag(id.joined) ?? self
    }

    /// The canonical tag with its likely script and region added (CLDR likely subtags):
    /// `fr` → `fr-Latn-FR`, `zh-HK` → `zh-Hant-HK`, `es-419` → `es-Latn-419`. Unknown
    /// languages stay as they are.
    public var maximized: LocaleTag {
        let id = LocaleInheritance.maximize(LocaleInheritance.canonical(self))
        return LocaleTag(id.joined) ?? self
    }

    /// The CLDR inheritance chain, most specific first, root left out: `es-AR` → `[es-AR,
    /// es-419, es]`, `zh-HK` → `[zh-Hant-HK, zh-Hant]`, `nb-NO` → `[nb-NO, nb, no]`; a
    /// pseudo-locale's is itself (`en-XA` → `[en-XA]`). The tag is
    /// canonicalized first, and a script is written only where it is not the language's own.
    public var inheritanceChain: [LocaleTag] {
        LocaleInheritance.chain(of: self).compactMap { LocaleTag($0.replacingUnderscores) }
    }
}

private extension String {
    var replacingUnderscores: String { split(separator: "_").joined(separator: "-") }
}

/// A locale as CLDR names it: `language[_Script][_REGION][_VARIANT...]`.
struct CLDRLocaleParts: Hashable, Sendable {
    var language: String
    var script: String?
    var region: String?
    var variants: [String] = []

    init(language: String, script: String?, region: String?, variants: [String] = []) {
        self.language = language
        self.script = script
        self.region = region
        self.variants = variants
    }

    init(_ tag: LocaleTag) {
        self.init(language: tag.language, script: tag.script, region: tag.region, variants: tag.variants)
    }

    /// `language_Script_Region`, for the data's keys.
    var id: String {
        var text = language
        if let script { text += "_" + script }
        if let region { text += "_" + region }
        for variant in variants { text += "_" + variant.uppercased() }
        return text
    }

    /// The BCP 47 form.
    var joined: String {
        ([language] + [script, region].compactMap { $0 } + variants).joined(separator: "-")
    }

    /// Parses `language[_Script][_Region]` as the data writes it.
    init?(id: String) {
        let parts = id.split(separator: "_").map(String.init)
        guard let first = parts.first else { return nil }
        language = first
        var index = 1
        if index < parts.count, parts[index].count == 4 { script = parts[index]; index += 1 }
        if index < parts.count { region = parts[index]; index += 1 }
        variants = parts[index...].map { $0.lowercased() }
    }
}

/// CLDR's aliases, likely subtags and parent locales, and the chains made of them.
enum LocaleInheritance {
    /// The data tables, parsed once from the generated text.
    struct Tables: Sendable {
        var likely: [String: String] = [:]
        var parents: [String: String] = [:]
        var languageAliases: [String: String] = [:]
        var territoryAliases: [String: [String]] = [:]

        init() {
            likely = Self.pairs(LocaleData.likelySubtagsText)
            for line in LocaleData.likelyScriptRegionText.utf8.split(separator: UInt8(ascii: "\n")) {
                let fields = line.split(separator: UInt8(ascii: " ")).map(Substring.init)
                guard let addition = fields.first else { continue }
                for language in fields.dropFirst() { likely[String(language)] = "\(language)_\(addition)" }
            }
            parents = Self.pairs(LocaleData.parentLocalesText)
            languageAliases = Self.pairs(LocaleData.languageAliasesText)
            for (code, replacements) in Self.pairs(LocaleData.territoryAliasesText) {
                territoryAliases[code] = replacements.split(separator: ",").map(String.init)
            }
        }

        /// `key>value` tokens separated by spaces and line breaks (ASCII: split on bytes,
        /// which `Character`s would not split otherwise, at a fraction of the cost).
        static func pairs(_ text: String) -> [String: String] {
            var result: [String: String] = [:]
            for token in text.utf8.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") }) {
                guard let mark = token.firstIndex(of: UInt8(ascii: ">")) else { continue }
                result[String(Substring(token[..<mark]))] = String(Substring(token[token.index(after: mark)...]))
            }
            return result
        }
    }

    static let tables = Tables()

    /// CLDR's paradigm locales (CLDR 47's languageInfo.xml `paradigmLocales`, which babel does
    /// not carry): among equally near locales, ICU's LocaleMatcher prefers these.
    static let paradigmLocales: Set<String> = ["en", "en_GB", "es", "es_419", "pt_BR", "pt_PT"]

    /// Aliases replaced (language, then territory and script).
    static func canonical(_ tag: LocaleTag) -> CLDRLocaleParts {
        var parts = CLDRLocaleParts(tag)
        let data = tables
        if let text = data.languageAliases[parts.language], let replacing = CLDRLocaleParts(id: text) {
            // The tag's own script and region win over the replacement's (`cnr-BA` is `sr-BA`).
            parts.language = replacing.language
            if parts.script == nil { parts.script = replacing.script }
            if parts.region == nil { parts.region = replacing.region }
        }
        if let script = parts.script, let alias = LocaleData.scriptAliases[script] { parts.script = alias }
        if let region = parts.region, let choices = data.territoryAliases[region] {
            if choices.count == 1 {
                parts.region = choices[0]
            } else {
                // Several successors (`SU`): the one the language is most likely spoken in.
                let likelyRegion = maximize(CLDRLocaleParts(language: parts.language, script: parts.script, region: nil)).region
                parts.region = choices.first { $0 == likelyRegion } ?? choices[0]
            }
        }
        return parts
    }

    /// Likely subtags added (TR35 "Add Likely Subtags", without the canonicalization step).
    static func maximize(_ parts: CLDRLocaleParts) -> CLDRLocaleParts {
        if parts.script != nil && parts.region != nil { return parts }
        let data = tables
        var keys: [String] = []
        if let script = parts.script, let region = parts.region { keys.append("\(parts.language)_\(script)_\(region)") }
        if let region = parts.region { keys.append("\(parts.language)_\(region)") }
        if let script = parts.script { keys.append("\(parts.language)_\(script)") }
        keys.append(parts.language)
        if parts.language != "und" {
            if let script = parts.script, let region = parts.region { keys.append("und_\(script)_\(region)") }
            if let region = parts.region { keys.append("und_\(region)") }
            if let script = parts.script { keys.append("und_\(script)") }
        }
        for key in keys {
            guard let found = data.likely[key], let likely = CLDRLocaleParts(id: found) else { continue }
            var result = parts
            if result.language == "und" { result.language = likely.language }
            if result.script == nil { result.script = likely.script }
            if result.region == nil { result.region = likely.region }
            return result
        }
        return parts
    }

    /// The script a language is written in when nothing else is said (`Hans` for `zh`).
    static func defaultScript(of language: String) -> String? {
        tables.likely[language].flatMap { CLDRLocaleParts(id: $0)?.script }
    }

    /// The CLDR id of a tag: canonical, with the script only where it is not the language's
    /// default (`zh-HK` → `zh_Hant_HK`, `es-Latn-AR` → `es_AR`, `sr-ME` → `sr_Latn_ME`).
    static func cldrID(of tag: LocaleTag) -> CLDRLocaleParts {
        var parts = canonical(tag)
        let script = maximize(parts).script
        parts.script = script == defaultScript(of: parts.language) ? nil : script
        return parts
    }

    /// The regions that make a locale a pseudo-locale (ICU: `en-XA` accented, `ar-XB`
    /// right-to-left, `en-XC` cracked), private-use codes no real locale has.
    static let pseudoRegions: Set<String> = ["XA", "XB", "XC"]

    /// The parent of a CLDR id; nil for root, and for a pseudo-locale (`en_XA`): its chain
    /// stops there, so it neither serves nor is served by its language's locales.
    static func parent(of parts: CLDRLocaleParts) -> CLDRLocaleParts? {
        if parts.variants.isEmpty, let region = parts.region, pseudoRegions.contains(region) { return nil }
        if let explicit = tables.parents[parts.id] {
            return explicit == "root" ? nil : CLDRLocaleParts(id: explicit)
        }
        var parent = parts
        if !parent.variants.isEmpty {
            parent.variants.removeLast()
        } else if parent.region != nil {
            parent.region = nil
        } else if parent.script != nil {
            // `lang_Script` with a script that is not the language's own: root (CLDR lists each
            // of these, `zh_Hant`, `sr_Latn`, ..., as a child of root).
            return nil
        } else {
            return nil
        }
        return parent
    }

    /// The inheritance chain of a tag as CLDR ids, most specific first, root left out.
    static func chain(of tag: LocaleTag) -> [String] {
        var result: [String] = []
        var current: CLDRLocaleParts? = cldrID(of: tag)
        while let parts = current, result.count < 8 {
            result.append(parts.id)
            current = parent(of: parts)
        }
        return result
    }

    /// The locale a chain node stands for when it has no region: its likely region (`fr` →
    /// `fr_FR`, `zh_Hant` → `zh_Hant_TW`, `es_419` stays).
    static func representative(of id: String) -> String {
        guard var parts = CLDRLocaleParts(id: id), parts.region == nil else { return id }
        let likely = maximize(parts)
        parts.region = likely.region
        return parts.id
    }
}
