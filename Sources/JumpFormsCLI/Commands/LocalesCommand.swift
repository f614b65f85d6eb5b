import ArgumentParser
import Dispatch
import JumpFiles
import JumpForms
import JumpFormsLoader
import JumpLocaleCheck

/// `jump-forms locales`: testing and exchanging locale files (docs/locales.md).
struct LocalesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locales",
        abstract: "Check locale files, exchange them with translation tools, make pseudo-locales, measure coverage, format messages.",
        discussion: "Rules, formats and examples: docs/locales.md.",
        subcommands: [
            LocalesCheckCommand.self, LocalesImportCommand.self, LocalesExportCommand.self,
            LocalesPseudoCommand.self, LocalesCoverageCommand.self, LocalesFormatCommand.self
        ]
    )
}

/// Which flows, locale files and reference a `locales` subcommand works on.
struct LocaleSetOptions: ParsableArguments {
    @Option(
        name: .customLong("flows"), parsing: .upToNextOption,
        help: ArgumentHelp(
            "Flow files whose message keys and call sites the locales serve (default: jump.yaml's flow, else ./flows).", valueName: "flow.yaml"))
    var flows: [String] = []

    @Option(help: ArgumentHelp("The folder of locale files (default: the flow's, else ./locales).", valueName: "folder"))
    var locales: String?

    @Option(help: ArgumentHelp("The locale the others are compared with (default: the flow's defaultLocale).", valueName: "tag"))
    var reference: String?

    @Option(
        help: ArgumentHelp(
            "The client configuration whose flow and captureLocale to use (default: ./jump.yaml when no --flows or --locales is given).",
            valueName: "jump.yaml"))
    var config: String?

    @OptionGroup var limits: LimitOptions

    func validate() throws {
        if let reference, LocaleTag(reference) == nil {
            throw ValidationError("--reference '\(reference)' is not a BCP 47 locale tag (for example en-US)")
        }
    }

    /// What was loaded, or the load's errors (exit 2).
    struct Loaded {
        var project: LoadedProject
        var flows: [Flow]
        var catalogs: [LocaleCatalog]
        var directory: String
        var reference: LocaleTag
        var referenceNamedAt: SourceLocation?
        var required: [RequiredLocale]
        /// Load errors that stop the command (read, YAML and decode errors; duplicate keys in
        /// locale files are findings of the check instead).
        var failures: [Diagnostic]
    }

    func load() throws -> Loaded {
        var loader = ProjectLoader(command: limits)
        var paths = flows
        var configPath = config
        if flows.isEmpty && locales == nil && config == nil {
            if WorkingDirectory.isFile("jump.yaml") {
                configPath = "jump.yaml"
            } else if WorkingDirectory.isDirectory("flows") {
                paths = ["flows"]
            }
        }
        if let configPath { paths.append(configPath) }
        // The flows and the locale files load at the same time: the folder is --locales, or
        // what the flow's first lines name (checked against the decoded flow below).
        loader.loadsLocaleFolders = false
        let guess: String? =
            locales.map(PathText.normalize)
            ?? (paths.isEmpty
                ? (WorkingDirectory.isDirectory("locales") ? "locales" : nil)
                : paths.lazy.compactMap { path in WorkingDirectory.isFile(path) ? loader.peekLocalesDirectory(path: path) : nil }.first)
        let flowLoader = loader
        let flowPaths = paths
        let (loadedProject, guessed) = ForkJoin.run(
            {
                flowPaths.isEmpty ? LoadedProject() : flowLoader.load(paths: flowPaths)
            },
            {
                () -> (catalogs: [LocaleCatalog], project: LoadedProject)? in
                guard let guess, WorkingDirectory.isDirectory(guess) else { return nil }
                var localeProject = LoadedProject()
                let catalogs = flowLoader.loadLocales(in: guess, into: &localeProject)
                return (catalogs, localeProject)
            })
        var project = loadedProject
        let loadedFlows = project.flows.map(\.flow)
        let directory: String
        if let locales {
            directory = locales
        } else if let first = project.flows.first {
            directory = first.localesDirectory
        } else if WorkingDirectory.isDirectory("locales") {
            directory = "locales"
        } else {
            throw ValidationError("no locale files here: name the folder with --locales, or run where jump.yaml or ./locales is")
        }
        var catalogs: [LocaleCatalog]
        if let guessed, let guess, PathText.normalize(guess) == PathText.normalize(directory) {
            catalogs = guessed.catalogs
            project.sources.merge(guessed.project.sources)
            project.diagnostics += guessed.project.diagnostics
            project.localeAliases.merge(guessed.project.localeAliases) { first, _ in first }
        } else if WorkingDirectory.isDirectory(directory) {
            catalogs = loader.loadLocales(in: directory, into: &project)
        } else if WorkingDirectory.isFile(directory) {
            throw ValidationError("'\(directory)' is a file, not a folder: --locales names the folder of locale files")
        } else {
            throw ValidationError("the locales folder '\(directory)' does not exist")
        }
        var required: [RequiredLocale] = []
        let referenceTag: LocaleTag
        var referenceNamedAt: SourceLocation?
        if let reference, let tag = LocaleTag(reference) {
            referenceTag = tag
            required.append(RequiredLocale(tag: tag, origin: "--reference"))
        } else if let flow = project.flows.first {
            referenceTag = flow.flow.defaultLocale.value
            referenceNamedAt = flow.flow.defaultLocale.location
        } else if catalogs.contains(where: { $0.tag.value.identifier == "en-US" }) {
            referenceTag = LocaleTag("en-US")!
        } else {
            throw ValidationError("name the reference locale with --reference (there is no flow to take its defaultLocale from)")
        }
        for flow in project.flows {
            required.append(
                RequiredLocale(
                    tag: flow.flow.defaultLocale.value, origin: "defaultLocale of \(flow.flow.path)",
                    location: flow.flow.defaultLocale.location))
        }
        if let config = project.config {
            required.append(
                RequiredLocale(
                    tag: config.captureLocale.value, origin: "captureLocale in \(config.path)",
                    location: config.captureLocale.location, servedByAnother: true))
        }
        let localePaths = Set(catalogs.map(\.path))
        let failures = project.diagnostics.filter { diagnostic in
            guard diagnostic.severity == .error else { return false }
            if diagnostic.code == .duplicateKey || diagnostic.code == .duplicateMessageKey,
                let file = diagnostic.location?.file, localePaths.contains(file)
            {
                return false
            }
            return true
        }
        return Loaded(
            project: project, flows: loadedFlows, catalogs: catalogs, directory: directory, reference: referenceTag,
            referenceNamedAt: referenceNamedAt, required: required, failures: failures)
    }
}

/// Two pieces of work at the same time, for loading flows and locale files together: the first
/// on Dispatch's pool, the second on the calling thread, so that the second may itself use
/// `concurrentPerform` (which would run serially if nested in another one).
enum ForkJoin {
    static func run<A: Sendable, B>(_ first: @escaping @Sendable () -> A, _ second: () -> B) -> (A, B) {
        let firstResult = Result<A>()
        let group = DispatchGroup()
        let directory = WorkingDirectory.override
        DispatchQueue.global().async(group: group) { firstResult.value = WorkingDirectory.$override.withValue(directory) { first() } }
        let secondResult = second()
        group.wait()
        return (firstResult.value!, secondResult)
    }

    /// Written by the first piece, read after `group.wait()`.
    private final class Result<A>: @unchecked Sendable {
        var value: A?
    }
}
