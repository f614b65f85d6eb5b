import JumpFiles
import JumpForms

extension LoadedProject {
    /// Runs the lint pass and returns the load diagnostics followed by the lint findings,
    /// sorted by place. A flow whose file had read or decode errors is not linted (its model is
    /// incomplete, so lint would only echo those errors); its locale files still are.
    public func lint() -> [Diagnostic] {
        var findings: [Diagnostic] = []
        let builtinKeys = BuiltinCatalog.keys
        // Each folder's catalogs are linted once, keeping the arguments of every message for
        // the flows that share them (each message parsed once).
        var argumentTables: [String: [MessageArgumentTable]] = [:]
        var keysOfFolder: [String: Set<String>] = [:]
        // And the messages no flow of the folder uses, found once for them all.
        var unusedOfFolder: [String: UnusedMessages] = [:]
        for loaded in flows { keysOfFolder[loaded.localesDirectory, default: []].formUnion(loaded.flow.messageKeyUses.map(\.value)) }
        for loaded in flows {
            if argumentTables[loaded.localesDirectory] == nil {
                let linted = CatalogLinter.lintKeepingArguments(loaded.catalogs)
                findings += linted.findings
                argumentTables[loaded.localesDirectory] = linted.arguments
            }
            guard loaded.isComplete else { continue }
            // Keys that other flows sharing the folder use are not "unused" (the flow's own
            // keys are in the set too, which changes nothing).
            let others = keysOfFolder[loaded.localesDirectory] ?? []
            let configForFlow = config.flatMap { config -> ClientConfig? in
                let configFlow = PathText.normalize(PathText.resolve(config.flow.value, against: PathText.folder(of: config.path)))
                return configFlow == PathText.normalize(loaded.flow.path) ? config : nil
            }
            var linter = FlowLinter(
                flow: loaded.flow, catalogs: loaded.catalogs, config: configForFlow,
                builtinMessageKeys: builtinKeys, otherUsedKeys: others,
                fileExists: { [directory] in FileAccess.kind(of: $0, from: directory) == .file }
            )
            linter.argumentTables = argumentTables[loaded.localesDirectory]
            if unusedOfFolder[loaded.localesDirectory] == nil {
                unusedOfFolder[loaded.localesDirectory] = UnusedMessages(
                    catalogs: loaded.catalogs, usedKeys: others, builtinMessageKeys: builtinKeys)
            }
            linter.unusedMessages = unusedOfFolder[loaded.localesDirectory]
            findings += linter.lint()
        }
        findings += CatalogLinter.lint(looseCatalogs)
        // The load's diagnostics are shown as `withheld` says already; the findings now too.
        findings = diagnostics + withheld.apply(to: findings)
        // Flows sharing a folder may report the same finding: keep each once, in order.
        var seen = Set<Diagnostic>()
        return findings.filter { seen.insert($0).inserted }.sortedByLocation()
    }
}
