import JumpForms

/// The hint of `unknown-language`: which tag the author probably meant. A mistyped language
/// (`pk-PL`) usually keeps its region, so the region's main language comes first (`pl`), then
/// the languages CLDR knows that are one edit away (`ak`, `pa`, `ps`, `pt`).
enum LanguageHint {
    /// The main language of a region (CLDR's likely subtags, `und-PL` -> `pl`), for the
    /// regions locale files name most.
    static let regionLanguages: [String: String] = {
        let pairs = """
            AD ca AE ar AF fa AL sq AM hy AO pt AR es AT de AU en AZ az BA bs BD bn BE nl BF fr BG bg \
            BH ar BJ fr BO es BR pt BY be BZ en CA en CD sw CF fr CG fr CH de CI fr CL es CM fr CN zh \
            CO es CR es CU es CV pt CY el CZ cs DE de DK da DO es DZ ar EC es EE et EG ar ES es ET am \
            FI fi FO fo FR fr GA fr GB en GE ka GH ak GL kl GN fr GR el GT es HK zh HN es HR hr HU hu \
            ID id IE en IL he IN hi IQ ar IR fa IS is IT it JO ar JP ja KE sw KG ky KH km KR ko KW ar \
            KZ ru LA lo LB ar LI de LK si LT lt LU fr LV lv LY ar MA ar MC fr MD ro ME sr MG mg MK mk \
            ML bm MM my MN mn MO zh MT mt MX es MY ms MZ pt NE ha NG en NI es NL nl NO nb NP ne NZ en \
            OM ar PA es PE es PH fil PK ur PL pl PR es PS ar PT pt QA ar RO ro RS sr RU ru SA ar SD ar \
            SE sv SG en SI sl SK sk SN fr SO so SV es SY ar TH th TJ tg TM tk TN ar TR tr TW zh TZ sw \
            UA uk UG sw US en UY es UZ uz VE es VN vi YE ar ZA en ZM en ZW sn
            """.split(separator: " ").map(String.init)
        var table: [String: String] = [:]
        for index in stride(from: 0, to: pairs.count - 1, by: 2) { table[pairs[index]] = pairs[index + 1] }
        return table
    }()

    /// `did you mean 'pl-PL'? (pl is the main language of PL; known languages near 'pk': ak, pa, ps, pt)`,
    /// or nil when nothing is close.
    static func hint(for tag: LocaleTag, known: [String]) -> String? {
        let knownSet = Set(known)
        let language = tag.language
        let regional = tag.region.flatMap { regionLanguages[$0] }.flatMap { knownSet.contains($0) ? $0 : nil }
        // One edit away (the limit of `Suggestion` for two- and three-letter words).
        let near = known.filter { $0 != regional && $0.count == language.count && Suggestion.closest(to: language, among: [$0]) != nil }
        let shown = near.prefix(5).joined(separator: ", ") + (near.count > 5 ? ", ..." : "")
        if let regional, let region = tag.region {
            let suggested = Self.replacingLanguage(of: tag, with: regional)
            let others = near.isEmpty ? "" : "; known languages near '\(language)': \(shown)"
            return "did you mean '\(suggested)'? (\(regional) is the main language of \(region)\(others))"
        }
        guard let first = near.first else { return Suggestion.hint(for: language, among: known) }
        let others = near.count > 1 ? " (known languages near '\(language)': \(shown))" : ""
        return "did you mean '\(Self.replacingLanguage(of: tag, with: first))'?\(others)"
    }

    static func replacingLanguage(of tag: LocaleTag, with language: String) -> String {
        ([language] + [tag.script, tag.region].compactMap { $0 } + tag.variants).joined(separator: "-")
    }
}
