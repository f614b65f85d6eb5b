import JumpForms

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
}
