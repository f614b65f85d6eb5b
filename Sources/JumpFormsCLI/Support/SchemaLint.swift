import JumpForms
import JumpFormsLoader
import JumpSchema

extension LoadedProject {
    /// `lint --schema`: the schema file's own problems, then every complete flow checked
    /// against it (the primary flow with `jump.yaml`'s form names), with the schema's text for
    /// rendering.
    func schemaFindings(schemaPath: String) -> (findings: [Diagnostic], sources: SourceFiles) {
        let loaded = SchemaLoader.schema(path: schemaPath, directory: WorkingDirectory.override)
        var findings = loaded.diagnostics
        if let schema = loaded.value {
            for (index, flow) in flows.enumerated() where flow.isComplete {
                findings += SchemaLinter(schema: schema, flow: flow.flow, config: index == 0 ? config : nil).lint()
            }
        }
        return (findings, loaded.sources)
    }
}
