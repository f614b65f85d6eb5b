import ArgumentParser
import JumpFiles
import JumpForms
import JumpFormsLoader

/// `jump-forms lint [PATH ...] [--format text|json|sarif]`
struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Check flows, locale files and jump.yaml; report every problem with its place.",
        discussion: """
            With no PATH: ./jump.yaml if there is one, else ./flows and ./locales. A folder brings \
            every .yaml file in it; a flow brings its locales folder; jump.yaml brings its flow.
            Exit status: 0 clean (warnings allowed unless --strict), 1 errors found, 2 usage or I/O error.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, sarif }

    @Argument(help: "Files or folders to check.")
    var paths: [String] = []

    @Option(help: "Output format: text, json or sarif.")
    var format: Format = .text

    @Flag(help: "Treat warnings as errors.")
    var strict = false

    @OptionGroup var limits: LimitOptions

    @Option(
        help: ArgumentHelp(
            "A Capture entity-type schema (JSON): check every field's schemaId, its type and the schema's constraints against it (docs/schema.md).",
            valueName: "file"))
    var schema: String?

    func run() throws {
        let console = Console()
        var targets = paths
        if targets.isEmpty {
            if WorkingDirectory.isFile("jump.yaml") {
                targets = ["jump.yaml"]
            } else {
                targets = ["flows", "locales"].filter(WorkingDirectory.isDirectory)
            }
            guard !targets.isEmpty else {
                throw ValidationError("nothing to lint here: no jump.yaml, ./flows or ./locales; name the files or folders to check")
            }
        }
        let project = ProjectLoader(command: limits).load(paths: targets)
        var findings = project.lint()
        var schemaSources = SourceFiles()
        if let schema {
            let checked = project.schemaFindings(schemaPath: schema)
            findings = (findings + project.withheld.apply(to: checked.findings)).sortedByLocation()
            schemaSources = checked.sources
        }
        switch format {
        case .text:
            var sources = project.sources
            sources.merge(BuiltinCatalog.sources)
            sources.merge(schemaSources)
            console.out(DiagnosticRenderer(sources: sources, useColor: console.colorOut).render(findings))
            console.err(Self.summary(findings, files: project.files.count + schemaSources.count))
        case .json:
            console.out(DiagnosticReport.json(findings).serialized(pretty: true) + "\n")
        case .sarif:
            console.out(DiagnosticReport.sarif(findings, toolVersion: JumpFormsCommand.version).serialized(pretty: true) + "\n")
        }
        let ioFailure = findings.contains { $0.code == .fileUnreadable || $0.code == .directoryUnreadable }
        if ioFailure { throw ExitCode(2) }
        if findings.containsErrors || (strict && findings.contains { $0.severity == .warning }) { throw ExitCode(1) }
    }

    static func summary(_ findings: [Diagnostic], files: Int) -> String {
        let errors = findings.filter { $0.severity == .error }.count
        let warnings = findings.filter { $0.severity == .warning }.count
        func plural(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        return "\(plural(errors, "error")), \(plural(warnings, "warning")) in \(plural(files, "file"))\n"
    }
}
