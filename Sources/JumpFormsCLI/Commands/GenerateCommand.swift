import ArgumentParser
import JumpForms
import JumpSchema

/// `jump-forms generate`: source code from a Capture schema.
struct GenerateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Generate source code from a Capture entity-type schema.",
        subcommands: [GenerateModelCommand.self]
    )
}

/// `jump-forms generate model --schema SCHEMA.json --out DIR [--access-schema FILE] [--type-prefix P]`
struct GenerateModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "model",
        abstract: "Write the app's user model (Swift) from a Capture entity-type schema.",
        discussion: """
            The --schema file is the entity-type schema as the dashboard downloads it (a list of \
            attribute definitions), an object with attr_defs, or the entityType API's answer. Writes \
            <Type>.swift (one Codable, Sendable, Equatable struct per object and plural element) \
            and CaptureSupport.swift (the date, dateTime and json types) into the --out folder. \
            See docs/schema.md.
            Exit status: 0 written, 1 the schema or access schema has errors, 2 usage or I/O error.
            """
    )

    @Option(help: ArgumentHelp("The Capture entity-type schema (JSON).", valueName: "file"))
    var schema: String

    @Option(help: ArgumentHelp("The folder to write the Swift files to (created when missing).", valueName: "folder"))
    var out: String

    @Option(
        help: ArgumentHelp(
            "The client's write access schema (JSON list of attribute paths): marks the attributes an access token cannot write.",
            valueName: "file"))
    var accessSchema: String?

    @Option(help: ArgumentHelp("A prefix for the generated top-level types (JR -> JRUser, JRCaptureDate).", valueName: "prefix"))
    var typePrefix: String = ""

    func validate() throws {
        guard ModelGenerator.isValidTypePrefix(typePrefix) else {
            throw ValidationError(
                "--type-prefix '\(typePrefix)' is not a Swift identifier: use ASCII letters, digits and '_', not starting with a digit")
        }
    }

    func run() throws {
        let console = Console()
        var sources = SourceFiles()
        var diagnostics: [Diagnostic] = []
        let loadedSchema = SchemaLoader.schema(path: schema, directory: WorkingDirectory.override)
        sources.merge(loadedSchema.sources)
        diagnostics += loadedSchema.diagnostics
        var access: AccessSchema?
        if let accessSchema, let entity = loadedSchema.value {
            let loaded = SchemaLoader.accessSchema(path: accessSchema, schema: entity, directory: WorkingDirectory.override)
            sources.merge(loaded.sources)
            diagnostics += loaded.diagnostics
            access = loaded.value
        }
        if !diagnostics.isEmpty {
            console.err(DiagnosticRenderer(sources: sources, useColor: console.colorErr).render(diagnostics))
        }
        if diagnostics.contains(where: { $0.code == .fileUnreadable || $0.code == .fileTooLarge }) { throw ExitCode(2) }
        guard let entity = loadedSchema.value, !diagnostics.containsErrors else { throw ExitCode(1) }
        let generator = ModelGenerator(schema: entity, accessSchema: access, typePrefix: typePrefix)
        do {
            for path in try OutputFolder.write(generator.files(), to: out, from: WorkingDirectory.override) {
                console.out("wrote \(path)\n")
            }
        } catch {
            console.err(escaping: "error: \(error)\n")
            throw ExitCode(2)
        }
    }
}
