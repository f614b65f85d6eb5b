import JumpForms

extension LoadedProject {
    /// Runs the lint pass and returns the load diagnostics followed by the lint findings,
    /// sorted by place. A flow whose file had read or decode errors is not linted (its model is
    /// incomplete, so lint would only echo those errors); its locale files still are.
    public func lint() -> [Diagnostic] {
        var findings = diagnostics
        let builtinKeys = BuiltinCatalog.keys
        var lintedDirectories = Set<String>()
        let keysOfFlow = flows.map { Set($0.flow.messageKeyUses.map(\.value)) }
        for (index, loaded) in flows.enumerated() {
            if lintedDirectories.insert(loaded.localesDirectory).inserted {
                findings += CatalogLinter.lint(loaded.catalogs)
            }
            guard loaded.isComplete else { continue }
            // Keys that other flows sharing the folder use are not "unused".
            let others = flows.enumerated()
                .filter { $0.offset != index && $0.element.localesDirectory == loaded.localesDirectory }
                .reduce(into: Set<String>()) { keys, other in keys.formUnion(keysOfFlow[other.offset]) }
            let configForFlow = config.flatMap { config -> ClientConfig? in
                let configFlow = FileAccess.normalize(FileAccess.join(FileAccess.directory(of: config.path), config.flow.value))
                return configFlow == FileAccess.normalize(loaded.flow.path) ? config : nil
            }
            let linter = FlowLinter(
                flow: loaded.flow, catalogs: loaded.catalogs, config: configForFlow,
                builtinMessageKeys: builtinKeys, otherUsedKeys: others,
                fileExists: { FileAccess.kind(of: $0) == .file }
            )
            findings += linter.lint()
        }
        findings += CatalogLinter.lint(looseCatalogs)
        // Flows sharing a folder may report the same finding: keep each once, in order.
        var seen = Set<Diagnostic>()
        return findings.filter { seen.insert($0).inserted }.sortedByLocation()
    }
}
