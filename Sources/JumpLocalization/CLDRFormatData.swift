import JumpDiagnostics

import Synchronization

/// CLDR 47's number and date formatting data (babel 2.18.0, with the few values babel lacks
/// from ICU 77.1: see scripts/generate-cldr-formats.py), resolved along CLDR's locale
/// inheritance.
///
/// The generated files hold, per locale, the values that differ from its parent's. A lookup
/// walks the chain (`fr_CA`, `fr`, `root`; `en_GB`, `en_001`, `en`, `root`; `zh_Hant_TW`,
/// `zh_Hant`, `root`) and takes the first value found.
enum CLDRFormatData {
    /// The tables, split into locales once, on first use.
    static let numbers = Table(numbersText)
    static let dates = Table(datesText)

    /// The separator of list values (month names, plural-form patterns).
    static let listSeparator: Character = "\u{00A6}"

    static let knownIDs: Set<String> = Set(localeIDs)

    /// A generated table. The text is split into locales once (an index of each locale's
    /// lines); a locale's lines are read into a dictionary only when it is first used.
    final class Table: Sendable {
        private let blocks: [String: Substring]
        private let parsed = Mutex<[String: [String: String]]>([:])

        init(_ text: String) {
            var blocks: [String: Substring] = [:]
            var currentID: Substring?
            var blockStart = text.startIndex
            var lineStart = text.startIndex
            while lineStart < text.endIndex {
                let lineEnd = text[lineStart...].firstIndex(of: "\n") ?? text.endIndex
                if text[lineStart] == "@" {
                    if let currentID { blocks[String(currentID)] = text[blockStart..<lineStart] }
                    currentID = text[text.index(after: lineStart)..<lineEnd]
                    blockStart = lineEnd < text.endIndex ? text.index(after: lineEnd) : lineEnd
                }
                lineStart = lineEnd < text.endIndex ? text.index(after: lineEnd) : lineEnd
            }
            if let currentID { blocks[String(currentID)] = text[blockStart...] }
            self.blocks = blocks
        }

        private func entries(_ id: String) -> [String: String]? {
            if let known = parsed.withLock({ $0[id] }) { return known }
            guard let block = blocks[id] else { return nil }
            var entries: [String: String] = [:]
            for line in block.split(separator: "\n") {
                if let equals = line.firstIndex(of: "=") {
                    entries[String(line[..<equals])] = String(line[line.index(after: equals)...])
                }
            }
            parsed.withLock { $0[id] = entries }
            return entries
        }

        /// The value of `key` for the first locale of `chain` that has one.
        func value(_ key: String, chain: [String]) -> String? {
            for id in chain {
                if let value = entries(id)?[key] { return value }
            }
            return nil
        }

        /// Every key starting with `prefix` along `chain`, the most specific value of each.
        func values(prefix: String, chain: [String]) -> [String: String] {
            var result: [String: String] = [:]
            for id in chain.reversed() {
                guard let entries = entries(id) else { continue }
                for (key, value) in entries where key.hasPrefix(prefix) { result[key] = value }
            }
            return result
        }
    }
}

/// A locale as CLDR's data sees it: the id whose data applies, its inheritance chain, and the
/// parts of the requested tag that matter to formatting (the region names the currency).
struct CLDRLocale: Sendable, Hashable {
    /// The CLDR id the tag resolves to (`de_CH`, `zh_Hant_TW`, `fr` for `fr-XY`, `root`).
    let id: String
    /// `id` and its ancestors, ending with `root`.
    let chain: [String]
    /// The region of the tag as written (`DE` in `de-DE`), if any.
    let region: String?
    /// The currency of a `-u-cu-` keyword (`EUR` in `en-US-u-cu-eur`), if any.
    let currencyKeyword: String?

    private static let cache = Mutex<[String: CLDRLocale]>([:])

    /// Resolves a BCP 47 or CLDR tag (`de-DE`, `zh-TW`, `sr_Latn`, `iw`, `en-US-u-cu-eur`).
    /// Unknown languages resolve to `root`; unknown regions and scripts are dropped.
    static func resolve(_ tag: String) -> CLDRLocale {
        if let known = cache.withLock({ $0[tag] }) { return known }
        let resolved = CLDRLocale(tag: tag)
        cache.withLock { $0[tag] = resolved }
        return resolved
    }

    private init(tag: String) {
        var parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        var keyword: String?
        if let singleton = parts.firstIndex(where: { $0.count == 1 }) {
            let extensions = parts[singleton...].map { $0.lowercased() }
            if let u = extensions.firstIndex(of: "u"), let cu = extensions[u...].firstIndex(of: "cu"),
                cu + 1 < extensions.endIndex, extensions[cu + 1].count == 3
            {
                keyword = extensions[cu + 1].uppercased()
            }
            parts = Array(parts[..<singleton])
        }
        currencyKeyword = keyword
        let candidates = CLDRLocaleID.candidates(parts.joined(separator: "-"))
        guard var id = candidates.first else {
            self.id = "root"
            chain = ["root"]
            region = nil
            return
        }
        let subtags = id.split(separator: "_")
        region = subtags.dropFirst().first { $0.count == 2 || ($0.count == 3 && $0.allSatisfy(\.isNumber)) }.map(String.init)
        // A legacy language code (`iw`) becomes its replacement, then the tag its alias
        // (`zh_TW` -> `zh_Hant_TW`); an id CLDR has no data for falls back by truncation.
        if let language = subtags.first, let replacement = CLDRFormatData.localeAliases[String(language)], !replacement.contains("_") {
            id = ([replacement] + subtags.dropFirst().map(String.init)).joined(separator: "_")
        }
        while true {
            if let alias = CLDRFormatData.localeAliases[id] { id = alias }
            if CLDRFormatData.knownIDs.contains(id) { break }
            guard let cut = id.lastIndex(of: "_") else {
                id = "root"
                break
            }
            id = String(id[..<cut])
        }
        self.id = id
        var chain = [id]
        var current = id
        while current != "root" {
            if let parent = CLDRFormatData.parentExceptions[current] {
                current = parent
            } else if let cut = current.lastIndex(of: "_") {
                current = String(current[..<cut])
            } else {
                current = "root"
            }
            chain.append(current)
        }
        self.chain = chain
    }

    /// The currency ICU gives the locale when a format names none: the `-u-cu-` keyword, else
    /// the currency of the tag's region today; nil without a region (ICU then shows `XXX`).
    var defaultCurrency: String? {
        if let currencyKeyword { return currencyKeyword }
        guard let region else { return nil }
        return CLDRFormatData.regionCurrencies[region]
    }

    func number(_ key: String) -> String? { CLDRFormatData.numbers.value(key, chain: chain) }
    func date(_ key: String) -> String? { CLDRFormatData.dates.value(key, chain: chain) }

    /// A list value's items (month names, plural-form patterns).
    static func items(_ value: String) -> [String] {
        value.split(separator: CLDRFormatData.listSeparator, omittingEmptySubsequences: false).map(String.init)
    }
}
