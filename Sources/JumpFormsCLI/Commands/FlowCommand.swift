import ArgumentParser
import JumpFiles
import JumpForms
import JumpFormsLoader

/// `jump-forms flow export|import`: Capture's flow documents (JSON) to and from flow files.
struct FlowCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "flow",
        abstract: "Write a flow as Capture flow documents (JSON), or turn Capture flow documents into flow and locale files.",
        discussion: "The documents are those the JUMP SDKs download (docs/flow-format.md, \"Capture flow documents\").",
        subcommands: [FlowExportCommand.self, FlowImportCommand.self]
    )
}

/// `jump-forms flow export [--config jump.yaml | --flow FILE] [--locale L]... --out DIR [--head]`
struct FlowExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write the flow's Capture flow documents in the CDN layout: DIR/<flow>/<version>/<locale>.json.",
        discussion: """
            One document per locale: every locale of the flow's locale files unless --locale names \
            some (a locale without a file of its own falls back as the forms do). The documents say \
            everything the flow file and its locale files hold that the forms use, so that 'flow \
            import' makes the same forms again. Exit status: 0 written, 1 the flow has errors (nothing \
            written), 2 usage or I/O error.
            """
    )

    @Option(help: ArgumentHelp("The client configuration whose flow is written.", valueName: "jump.yaml"))
    var config: String?

    @Option(help: ArgumentHelp("A flow file (YAML, or a Capture flow document) instead of the one jump.yaml names.", valueName: "file"))
    var flow: String?

    @Option(
        name: .customLong("locale"),
        help: ArgumentHelp("A locale to write (BCP 47); repeat for several. Default: every locale file's.", valueName: "tag"))
    var locales: [String] = []

    @Option(help: ArgumentHelp("The folder to write into (created if missing).", valueName: "dir"))
    var out: String

    @Flag(help: "Also write each document under HEAD (DIR/<flow>/HEAD/<locale>.json), the version the SDKs ask for by default.")
    var head = false

    @OptionGroup var limits: LimitOptions

    func validate() throws {
        for locale in locales where LocaleTag(locale) == nil {
            throw ValidationError("'\(locale)' is not a BCP 47 locale tag (for example en-US, fr, pt-BR)")
        }
    }

    func run() throws {
        let console = Console()
        let loader = ProjectLoader(command: limits)
        var paths: [String] = []
        if let flow { paths.append(flow) }
        if let config {
            paths.append(config)
        } else if flow == nil {
            guard WorkingDirectory.isFile("jump.yaml") else {
                throw ValidationError("no jump.yaml in this folder: pass --config FILE or --flow FILE")
            }
            paths.append("jump.yaml")
        }
        let project = loader.load(paths: paths)
        var sources = project.sources
        sources.merge(BuiltinCatalog.sources)
        let renderer = DiagnosticRenderer(sources: sources, useColor: console.colorErr)
        let findings = project.lint()
        let loaded = flow.flatMap { path in project.flows.first { $0.flow.path == path } } ?? project.primaryFlow
        guard !findings.containsErrors, let loaded else {
            console.err(renderer.render(findings))
            console.err("nothing written: the flow has errors (run 'jump-forms lint' for every finding)\n")
            throw ExitCode(project.diagnostics.contains { $0.code == .fileUnreadable || $0.code == .directoryUnreadable } ? 2 : 1)
        }
        if !findings.isEmpty { console.err(renderer.render(findings)) }
        let flowName = loaded.flow.name.value
        let version = loaded.flow.version.value
        for (what, segment) in [("flow name", flowName), ("version", version)] where !Self.isPathSegment(segment) {
            throw ValidationError("the \(what) '\(segment)' cannot be a folder name of the CDN layout (empty, '.', '..', or with '/')")
        }
        let localizer = loaded.localizer()
        let tags = locales.isEmpty ? localizer.locales : locales.compactMap(LocaleTag.init)
        guard !tags.isEmpty else { throw ValidationError("the flow has no locale files: name the locales to write with --locale") }
        var documents: [(tag: LocaleTag, text: String)] = []
        for tag in tags {
            do {
                documents.append((tag, try CaptureFlowDocument.text(loaded.flow, localizer: localizer, locale: tag)))
            } catch {
                console.err(renderer.render([error.diagnostic]))
                console.err("nothing written: the flow cannot be a Capture flow document\n")
                throw ExitCode(1)
            }
            if !locales.isEmpty, let used = localizer.bestCatalog(for: tag)?.tag.value, used != tag {
                console.err(
                    localizer.text(
                        "jumpForms.cli.localeFallback", for: used,
                        ["requested": .string(tag.identifier), "used": .string(used.identifier)]) + "\n")
            }
        }
        let folders = [version] + (head && version != "HEAD" ? ["HEAD"] : [])
        for folder in folders {
            let directory = "\(out)/\(flowName)/\(folder)"
            guard LocaleFileIO.createFolder(directory) else { throw ValidationError("cannot create the folder '\(directory)'") }
            for document in documents {
                let path = "\(directory)/\(document.tag.identifier).json"
                try LocaleFileIO.write(Array(document.text.utf8), to: path)
                console.out(path + "\n")
            }
        }
    }

    static func isPathSegment(_ text: String) -> Bool {
        !text.isEmpty && text != "." && text != ".." && !text.contains("/") && !text.unicodeScalars.contains { $0.value < 0x20 }
    }
}

/// `jump-forms flow import FILE.json... --out DIR [--name NAME] [--default-locale TAG] [--force]`
struct FlowImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Turn Capture flow documents (one per locale of one flow) into DIR/flows/<flow>.yaml and DIR/locales/<locale>.yaml.",
        discussion: """
            The migration path of a Capture flow: download its documents (.../widget_data/flows/<app>/\
            <flow>/<version>/<locale>.json), import them, and the forms, prompts, checks and requests \
            of jump-forms follow them. What the flow format has no place for is dropped with a \
            warning naming its place (JF604); every problem of the documents is reported with its \
            place, and nothing is written while there are errors. Exit status: 0 written, 1 the \
            documents have errors, 2 usage or I/O error.
            """
    )

    @Argument(help: ArgumentHelp("Capture flow documents (.json), one per locale.", valueName: "file.json"))
    var files: [String]

    @Option(help: ArgumentHelp("The folder to write flows/ and locales/ into (created if missing).", valueName: "dir"))
    var out: String

    @Option(help: ArgumentHelp("The flow's name, over what the documents say (Capture's own say it only through their CDN path).", valueName: "name"))
    var name: String?

    @Option(help: ArgumentHelp("The flow's default locale, over what the documents say (default: the first document's).", valueName: "tag"))
    var defaultLocale: String?

    @Flag(help: "Replace files that exist already.")
    var force = false

    @OptionGroup var limits: LimitOptions

    func validate() throws {
        guard !files.isEmpty else { throw ValidationError("name the flow documents to import") }
        for file in files where !ProjectLoader.isFlowDocument(file) {
            throw ValidationError("'\(file)' is not a flow document: Capture's flow documents end in .json")
        }
        if let defaultLocale, LocaleTag(defaultLocale) == nil {
            throw ValidationError("'\(defaultLocale)' is not a BCP 47 locale tag (for example en-US, fr, pt-BR)")
        }
        if let name, !FlowExportCommand.isPathSegment(name) { throw ValidationError("'\(name)' cannot be a file name") }
    }

    func run() throws {
        let console = Console()
        var loader = ProjectLoader(command: limits)
        loader.flowDocumentName = name
        loader.flowDocumentDefaultLocale = defaultLocale.flatMap(LocaleTag.init)
        let project = loader.load(paths: files)
        let findings = project.lint()
        var sources = project.sources
        sources.merge(BuiltinCatalog.sources)
        let renderer = DiagnosticRenderer(sources: sources, useColor: console.colorErr)
        if !findings.isEmpty { console.err(renderer.render(findings)) }
        if project.flows.count > 1 {
            throw ValidationError(
                "the documents are of \(project.flows.count) flows (\(project.flows.map(\.flow.name.value).joined(separator: ", "))): import one flow at a time"
            )
        }
        guard !findings.containsErrors, let loaded = project.primaryFlow else {
            if findings.contains(where: { $0.code == .messageMissingInDefaultLocale || $0.code == .missingLocale }), let loaded = project.primaryFlow
            {
                console.err(
                    """
                    note: the default locale is \(loaded.flow.defaultLocale.value): import its document too, or choose another with --default-locale\
                    \n
                    """
                )
            }
            console.err("nothing written: the documents have errors\n")
            throw ExitCode(project.diagnostics.contains { $0.code == .fileUnreadable } ? 2 : 1)
        }
        let flowName = loaded.flow.name.value
        guard FlowExportCommand.isPathSegment(flowName) else {
            throw ValidationError("the flow name '\(flowName)' cannot be a file name: give one with --name")
        }
        let sourcesLine = "From: " + files.joined(separator: ", ")
        var outputs: [(path: String, text: String)] = [
            (
                "\(out)/flows/\(flowName).yaml",
                FlowFileWriter.yaml(
                    loaded.flow,
                    header: [
                        "Flow '\(flowName)', imported from Capture flow documents by 'jump-forms flow import'.", sourcesLine
                    ])
            )
        ]
        for catalog in loaded.catalogs {
            let content = LocaleFileContent(
                catalog, header: ["\(catalog.tag.value): the texts of flow '\(flowName)', imported by 'jump-forms flow import'."])
            let nested = LocaleFileWriter.nestingProblem(content.messages.map(\.key)) == nil
            outputs.append(("\(out)/locales/\(catalog.tag.value.identifier).yaml", LocaleFileWriter.yaml(content, nested: nested)))
        }
        if !force {
            let existing = outputs.map(\.path).filter { WorkingDirectory.isFile($0) || WorkingDirectory.isDirectory($0) }
            guard existing.isEmpty else {
                throw ValidationError(
                    "nothing written: \(existing.joined(separator: ", ")) exist\(existing.count == 1 ? "s" : "") already (--force replaces them)")
            }
        }
        for folder in ["\(out)/flows", "\(out)/locales"] where !LocaleFileIO.createFolder(folder) {
            throw ValidationError("cannot create the folder '\(folder)'")
        }
        for output in outputs {
            try LocaleFileIO.write(Array(output.text.utf8), to: output.path)
            console.out(output.path + "\n")
        }
    }
}
