import JumpForms

/// How much of the reference each locale has translated: over all of the reference's keys and
/// jump-forms' own (`jumpForms.*`), per flow (the keys it uses) and per form (the keys of its
/// fields: labels, placeholders, tips, option labels, validation messages).
///
/// A key counts as translated when the locale's file (or a more general file of its language,
/// `fr` for `fr-CA`) has a text for it that is not empty, is valid ICU, and differs from the
/// reference's text, unless the key is listed under `sameAsSource`, the text has nothing to
/// translate (no letters outside arguments, URLs and numbers), or the locale speaks the
/// reference's language. jump-forms' own keys also count when its built-in catalog has a text
/// for the locale (along `fr-CA`, `fr`) or the locale speaks the built-in texts' language.
public struct CoverageReport: Sendable {
    public struct Count: Sendable, Hashable {
        public var translated: Int
        public var total: Int

        public init(translated: Int, total: Int) {
            self.translated = translated
            self.total = total
        }

        /// Percent with one decimal, rounded down (so 99.96% never shows as 100.0%).
        public var percent: Double {
            guard total > 0 else { return 100 }
            return Double(translated * 1000 / total) / 10
        }

        public var percentText: String {
            let tenths = total > 0 ? translated * 1000 / total : 1000
            return "\(tenths / 10).\(tenths % 10)%"
        }
    }

    public struct FormCoverage: Sendable {
        public var name: String
        public var count: Count
    }

    public struct FlowCoverage: Sendable {
        public var name: String
        public var path: String
        public var count: Count
        public var forms: [FormCoverage]
    }

    public struct LocaleCoverage: Sendable {
        public var tag: LocaleTag
        public var path: String
        /// Over every key of the reference and of jump-forms' own catalog.
        public var all: Count
        public var flows: [FlowCoverage]
        /// Keys not translated, in the reference's order (for `--missing`).
        public var untranslated: [String]
    }

    public var reference: LocaleTag
    public var locales: [LocaleCoverage]

    /// `builtinCatalogs`: jump-forms' own catalog, en-US first (none: its keys are not counted).
    public init(
        catalogs: [LocaleCatalog], reference: LocaleTag, flows: [Flow], builtinCatalogs: [LocaleCatalog] = [],
        sameAsSourceAllowed: [String] = []
    ) {
        self.reference = reference
        let byTag = Dictionary(catalogs.map { ($0.tag.value, $0) }, uniquingKeysWith: { first, _ in first })
        let builtinByTag = Dictionary(builtinCatalogs.map { ($0.tag.value, $0) }, uniquingKeysWith: { first, _ in first })
        let catalogMatcher = LocaleMatcher(available: byTag.keys.sorted())
        let builtinMatcher = LocaleMatcher(available: builtinByTag.keys.sorted())
        let builtinSource = builtinCatalogs.first
        let referenceCatalog = byTag[reference]
        var referenceKeys = referenceCatalog?.keys ?? []
        var seen = Set(referenceKeys)
        for flow in flows {
            for key in flow.messageKeyUses.map(\.value) where seen.insert(key).inserted { referenceKeys.append(key) }
        }
        // jump-forms' own keys that the reference does not override.
        let referenceKeySet = Set(referenceCatalog?.keys ?? [])
        let builtinKeys = (builtinSource?.keys ?? []).filter { !referenceKeySet.contains($0) }
        let builtinKeySet = Set(builtinSource?.keys ?? [])
        for key in builtinKeys where seen.insert(key).inserted { referenceKeys.append(key) }
        locales = catalogs.sorted { $0.tag.value < $1.tag.value }.map { catalog in
            let tag = catalog.tag.value
            let fallbacks = catalogMatcher.ranked(tag).filter { $0 != tag }.compactMap { byTag[$0] }
            let builtinChain = builtinMatcher.ranked(tag).compactMap { builtinByTag[$0] }
            let speaksBuiltinLanguage = tag.language == builtinSource?.tag.value.language
            let allowed = catalog.sameAsSource.map(\.value) + sameAsSourceAllowed
            var memo: [String: Bool] = [:]
            func translated(_ key: String) -> Bool {
                if let known = memo[key] { return known }
                var result = Self.isTranslated(key, in: catalog, fallbacks: fallbacks, reference: referenceCatalog, allowed: allowed)
                if !result, builtinKeySet.contains(key), catalog[key] == nil, !fallbacks.contains(where: { $0.contains(key) }) {
                    result = speaksBuiltinLanguage || builtinChain.contains { $0.contains(key) }
                }
                memo[key] = result
                return result
            }
            func count(_ keys: [String]) -> Count {
                let distinct = Array(Set(keys))
                return Count(translated: distinct.filter(translated).count, total: distinct.count)
            }
            let flowCoverage = flows.map { flow in
                FlowCoverage(
                    name: flow.name.value, path: flow.path, count: count(flow.messageKeyUses.map(\.value)),
                    forms: flow.forms.map { form in FormCoverage(name: form.name, count: count(Self.keys(of: form, in: flow))) })
            }
            let all = (referenceCatalog?.keys ?? []) + builtinKeys
            return LocaleCoverage(
                tag: tag, path: catalog.path, all: count(all), flows: flowCoverage,
                untranslated: referenceKeys.filter { !translated($0) })
        }
    }

    /// The message keys a form shows.
    public static func keys(of form: FormDefinition, in flow: Flow) -> [String] {
        var keys: [String] = []
        for name in form.fields {
            guard let field = flow.field(named: name.value) else { continue }
            keys += [field.label, field.placeholder, field.tip].compactMap { $0?.value }
            keys += field.options.map(\.label.value)
            keys += field.validation.map(\.message.value)
        }
        return keys
    }

    static func isTranslated(
        _ key: String, in catalog: LocaleCatalog, fallbacks: [LocaleCatalog], reference: LocaleCatalog?,
        allowed: [String]
    ) -> Bool {
        guard let message = catalog[key] ?? fallbacks.lazy.compactMap({ $0[key] }).first else { return false }
        let text = message.text
        guard !text.unicodeScalars.allSatisfy(\.properties.isWhitespace), case .success(let pattern) = MessagePattern.parse(text) else {
            return false
        }
        guard let reference, catalog.tag.value != reference.tag.value, let source = reference[key], source.text == text else { return true }
        if catalog.tag.value.language == reference.tag.value.language { return true }
        if allowed.contains(where: { Glob.matches($0, key) }) { return true }
        return !TextScan.hasTranslatableLetters(TextScan.literalText(pattern))
    }

    // MARK: output

    /// A table per flow: forms by locale, and a first row over all the reference's keys.
    public var text: String {
        var out = ""
        let tags = locales.map(\.tag.identifier)
        let width = max(8, tags.map(\.count).max() ?? 0)
        func pad(_ text: String, _ count: Int) -> String { text + String(repeating: " ", count: max(0, count - text.count)) }
        func leftPad(_ text: String, _ count: Int) -> String { String(repeating: " ", count: max(0, count - text.count)) + text }
        var rows: [(String, Int, [Count])] = []
        rows.append(("all keys", locales.first?.all.total ?? 0, locales.map(\.all)))
        let flowCount = locales.first?.flows.count ?? 0
        for flowIndex in 0..<flowCount {
            let flow = locales[0].flows[flowIndex]
            rows.append(("flow \(flow.name)", flow.count.total, locales.map { $0.flows[flowIndex].count }))
            for formIndex in flow.forms.indices {
                rows.append(
                    ("  \(flow.forms[formIndex].name)", flow.forms[formIndex].count.total, locales.map { $0.flows[flowIndex].forms[formIndex].count })
                )
            }
        }
        let nameWidth = max(24, rows.map(\.0.count).max() ?? 0)
        out += pad("", nameWidth) + leftPad("keys", 6) + tags.map { "  " + leftPad($0, width) }.joined() + "\n"
        for (name, total, counts) in rows {
            out += pad(name, nameWidth) + leftPad(String(total), 6) + counts.map { "  " + leftPad($0.percentText, width) }.joined() + "\n"
        }
        return out
    }

    public var json: JSONValue {
        func count(_ count: Count) -> [(key: String, value: JSONValue)] {
            [
                (key: "translated", value: .integer(count.translated)), (key: "total", value: .integer(count.total)),
                (key: "percent", value: .number(count.percentText.replacingAll("%", with: "")))
            ]
        }
        return .object([
            (key: "reference", value: .string(reference.identifier)),
            (
                key: "locales",
                value: .array(
                    locales.map { locale in
                        .object(
                            [(key: "locale", value: .string(locale.tag.identifier)), (key: "file", value: .string(locale.path))]
                                + count(locale.all)
                                + [
                                    (
                                        key: "flows",
                                        value: .array(
                                            locale.flows.map { flow in
                                                .object(
                                                    [(key: "flow", value: .string(flow.name)), (key: "file", value: .string(flow.path))]
                                                        + count(flow.count)
                                                        + [
                                                            (
                                                                key: "forms",
                                                                value: .array(
                                                                    flow.forms.map { form in
                                                                        .object([(key: "form", value: .string(form.name))] + count(form.count))
                                                                    })
                                                            )
                                                        ])
                                            })
                                    ),
                                    (key: "untranslated", value: .array(locale.untranslated.map { .string($0) }))
                                ])
                    })
            )
        ])
    }
}
