import ArgumentParser
import Foundation
import JumpFiles
import JumpForms
import JumpFormsLoader

/// `jump-forms schema`: the JSON Schemas of the flow, locale, jump.yaml and identities formats,
/// for editors (yaml-language-server's `# yaml-language-server: $schema=...` modeline).
struct SchemaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Write JSON Schemas (draft 2020-12) of the flow, locale, jump.yaml and identities formats, for editors.",
        discussion: """
            --out DIR writes flow.schema.json, locale.schema.json, jump.schema.json and \
            identities.schema.json into DIR (created when missing; existing schema files are replaced). \
            --kind KIND prints one schema to standard output instead. Add a modeline to a YAML file for \
            VS Code (YAML extension) and other yaml-language-server editors: \
            # yaml-language-server: $schema=./schemas/json/flow.schema.json
            """
    )

    @Option(help: ArgumentHelp("The folder to write the four schemas into.", valueName: "dir"))
    var out: String?

    @Option(help: "Print one schema to standard output: flow, locale, jump or identities.")
    var kind: FormatSchema?

    func validate() throws {
        if out == nil, kind == nil { throw ValidationError("give --out DIR (write all four schemas) or --kind KIND (print one)") }
        if out != nil, kind != nil { throw ValidationError("give either --out or --kind, not both") }
    }

    func run() throws {
        let console = Console()
        if let kind {
            console.out(kind.text)
            return
        }
        guard let out else { return }
        do {
            guard LocaleFileIO.createFolder(out) else { throw FileFailure.system(out) }
            for schema in FormatSchema.allCases {
                try AtomicFile.write(Array(schema.text.utf8), to: WorkingDirectory.path(PathText.join(out, schema.fileName)), mode: 0o644)
            }
        } catch {
            console.err(escaping: "Error: \(error)\n")
            throw ExitCode(2)
        }
        console.out(escaping: FormatSchema.allCases.map { "wrote \(PathText.join(out, $0.fileName))\n" }.joined())
    }
}

extension FormatSchema: ExpressibleByArgument {}
