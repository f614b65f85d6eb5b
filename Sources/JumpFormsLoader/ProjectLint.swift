import JumpForms

extension LoadedProject {
    /// Runs the lint pass over every loaded flow (with its locales and the configuration) and
    /// returns the load diagnostics followed by the lint findings, sorted by place.
    public func lint() -> [Diagnostic] {
        var findings = diagnostics
        let builtinKeys = BuiltinCatalog.keys
        for (index, loaded) in flows.enumerated() {
            // Keys that other flows sharing the folder use are not "unused".
            let others = flows.enumerated()
                .filter { $0.offset != index && $0.element.localesDirectory == loaded.localesDirectory }
                .reduce(into: Set<String>()) { keys, other in keys.formUnion(other.element.flow.messageKeyUses.map(\.value)) }
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
        return findings.sortedByLocation()
    }
}
