import ArgumentParser
import JumpFiles
import JumpForms
import JumpFormsLoader

/// `--config` / `--flow`: which files a command works on.
struct ProjectOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The client configuration.", valueName: "jump.yaml"))
    var config: String?

    @Option(help: ArgumentHelp("A flow file, or a Capture flow document (.json), instead of the one jump.yaml names.", valueName: "flow.yaml"))
    var flow: String?

    @Option(
        help: ArgumentHelp(
            "The locale (BCP 47) of texts and messages; default: jump.yaml's captureLocale, else the flow's defaultLocale.", valueName: "tag"))
    var locale: String?

    @OptionGroup var limits: LimitOptions

    func validate() throws {
        if let locale, LocaleTag(locale) == nil {
            throw ValidationError("'\(locale)' is not a BCP 47 locale tag (for example en-US, fr, pt-BR)")
        }
    }

    /// Loads what the options name: `--flow`, else `--config`, else `./jump.yaml`.
    func load(console: Console) throws -> Workspace {
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
        var project = loader.load(paths: paths)
        if let flow {
            // An explicit flow wins over the one jump.yaml names.
            if let index = project.flows.firstIndex(where: { $0.flow.path == flow }) {
                project.flows.insert(project.flows.remove(at: index), at: 0)
            }
        }
        let errors = project.diagnostics.filter { $0.severity == .error }
        guard errors.isEmpty, let loaded = project.primaryFlow else {
            let renderer = DiagnosticRenderer(sources: project.sources, useColor: console.colorErr)
            console.err(renderer.render(errors))
            console.err("cannot continue: the files above have errors (run 'jump-forms lint' for every finding)\n")
            throw ExitCode(2)
        }
        // A single Capture flow document speaks its own locale unless asked otherwise.
        let documentLocale = loaded.documentLocales.count == 1 ? loaded.documentLocales.first : nil
        let tag = locale.flatMap(LocaleTag.init) ?? project.config?.captureLocale.value ?? documentLocale ?? loaded.flow.defaultLocale.value
        let workspace = Workspace(project: project, loaded: loaded, locale: tag)
        if locale != nil, let used = workspace.localizer.bestCatalog(for: tag)?.tag.value, used != tag {
            // No file for the asked locale: say which one speaks instead (CLDR's negotiation:
            // fr-FR for fr-CA, es-MX for es-419; the default locale for xx-YY).
            console.err(
                workspace.localizer.text(
                    "jumpForms.cli.localeFallback", for: used,
                    ["requested": .string(tag.identifier), "used": .string(used.identifier)]) + "\n")
        }
        return workspace
    }
}

extension ProjectLoader {
    /// The loader of a command: its limits, the environment it sees and its working directory
    /// (`WorkingDirectory`), which relative paths are read from.
    init(command limits: LimitOptions) {
        self.init(limits: limits.limits, environment: Environment.current, directory: WorkingDirectory.override)
    }
}

/// The loaded files a command works with.
struct Workspace {
    var project: LoadedProject
    var loaded: LoadedFlow
    var locale: LocaleTag

    var flow: Flow { loaded.flow }
    var localizer: Localizer { loaded.localizer() }

    /// The form model, or a usage error naming the forms there are.
    func form(_ name: String) throws -> FormModel {
        do {
            return try FormInterpreter(flow: flow, localizer: localizer).model(form: name, locale: locale)
        } catch {
            throw ValidationError(error.description)
        }
    }
}

/// `--format text|json`
enum DataFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

/// Where the server's data is, for the commands that read or write it (`serve`, `outbox`,
/// `feed`, `reset`, `db migrate`, `users import`): `--db PATH` or `--database URL`, else
/// `JUMP_DATABASE_URL`, `server.database` in jump.yaml, or the default SQLite file.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp("The SQLite database file.", valueName: "path"))
    var path: String?

    @Option(
        name: .customLong("database"),
        help: ArgumentHelp(
            "The database: postgres://user[:password]@host:port/db[?sslmode=disable|require|verify-full] (password also from PGPASSWORD), or a SQLite path (env JUMP_DATABASE_URL).",
            valueName: "url"))
    var url: String?
}
