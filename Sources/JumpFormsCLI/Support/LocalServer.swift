import ArgumentParser
import JumpCapture
import JumpCaptureServer
import JumpFiles
import JumpForms
import JumpFormsLoader
import JumpSchema
import Logging

/// Builds the local server's setup from a workspace: the flow, its texts, the test
/// identities and the database path.
enum LocalServer {
    /// The server's logger, writing lines in `format`, at the level `JUMP_LOG_LEVEL` (else
    /// `LOG_LEVEL`) names (default warning; a name that is not a level is warned about).
    static func logger(
        label: String, format: StandardErrorLogHandler.Format = .text, environment: [String: String], console: Console
    ) -> Logger {
        var logger = Logger(label: label) { label in
            StandardErrorLogHandler(label: label, format: format, metadataProvider: LoggingSystem.metadataProvider)
        }
        logger.logLevel = .warning
        if let named = environment["JUMP_LOG_LEVEL"].flatMap({ $0.isEmpty ? nil : $0 }) ?? environment["LOG_LEVEL"], !named.isEmpty {
            if let level = Logger.Level(rawValue: named.lowercased()) {
                logger.logLevel = level
            } else {
                let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
                console.err("warning: LOG_LEVEL=\(named) is not a log level (\(levels)); logging at warning\n")
            }
        }
        return logger
    }

    /// `$XDG_DATA_HOME/jump-forms` or `~/.local/share/jump-forms` (the home folder from HOME,
    /// else from the password database); nil when there is no home folder.
    static func dataDirectory(_ environment: [String: String]) -> String? {
        HomeFolder.xdg("XDG_DATA_HOME", default: ".local/share", environment).map { $0 + "/jump-forms" }
    }

    /// The database: `--db`, else `server.database` (relative to jump.yaml), else
    /// `<data dir>/<client id>.sqlite`. Without a home folder the last is `$HOME/…`, which
    /// `checkedDatabasePath` refuses.
    static func databasePath(_ config: ClientConfig, override: String?, environment: [String: String]) -> String {
        if let override { return override }
        if let database = config.server.database?.value { return relative(database, to: config.path) }
        let name = String(
            config.captureClientId.value.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" })
        return (dataDirectory(environment) ?? "$HOME/.local/share/jump-forms") + "/\(name.isEmpty ? "capture" : name).sqlite"
    }

    /// The database a command that reads the local server's records lists (`outbox`, `feed`):
    /// jump.yaml's (or `--db`), which must exist; usage errors otherwise.
    static func existingDatabasePath(
        _ project: ProjectOptions, override: String?, command: String, console: Console, environment: [String: String] = Environment.current
    ) throws -> String {
        let workspace = try project.load(console: console)
        guard let config = workspace.project.config else { throw ValidationError("\(command) needs jump.yaml: pass --config FILE") }
        let path = try checkedDatabasePath(config, override: override, environment: environment)
        guard WorkingDirectory.isFile(path) else {
            throw ValidationError("no database at \(path): start the server (jump-forms serve) or pass --db")
        }
        return path
    }

    /// `databasePath`, or a usage error when it would be in a home folder there is none of.
    static func checkedDatabasePath(_ config: ClientConfig, override: String?, environment: [String: String]) throws -> String {
        if override == nil, config.server.database == nil, dataDirectory(environment) == nil {
            throw ValidationError("no folder for the database: \(HomeFolder.unknownReason), or pass --db")
        }
        return databasePath(config, override: override, environment: environment)
    }

    static func relative(_ path: String, to file: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let slash = file.lastIndex(of: "/") else { return path }
        return String(file[..<slash]) + "/" + path
    }

    /// The setup, or a thrown exit after printing the identities file's or the schema's
    /// problems. `schemaOverride`: `serve --schema`, else `server.schema` (relative to jump.yaml).
    static func setup(
        _ workspace: Workspace, databaseOverride: String?, schemaOverride: String? = nil, environment: [String: String],
        console: Console
    ) throws -> CaptureServerSetup {
        guard let config = workspace.project.config else {
            throw ValidationError("the server needs jump.yaml (the client configuration): pass --config FILE")
        }
        var identities: [TestIdentity] = []
        let identitiesPath: String? =
            config.server.identities.map { relative($0.value, to: config.path) }
            ?? [relative("identities.yaml", to: config.path)].first(where: WorkingDirectory.isFile)
        if let identitiesPath {
            let loaded = IdentitiesLoader.load(path: identitiesPath, directory: WorkingDirectory.override)
            if loaded.diagnostics.containsErrors {
                console.err(DiagnosticRenderer(sources: loaded.sources, useColor: console.colorErr).render(loaded.diagnostics))
                throw ExitCode(2)
            }
            identities = loaded.identities
        }
        let schema = try self.schema(config, override: schemaOverride, sources: workspace.project.sources, console: console)
        return CaptureServerSetup(
            config: config, flow: workspace.flow, localizer: workspace.localizer, identities: identities,
            databasePath: WorkingDirectory.path(try checkedDatabasePath(config, override: databaseOverride, environment: environment)),
            schema: schema)
    }

    /// The entity-type schema the server's records follow: `--schema`, else `server.schema`
    /// (relative to jump.yaml), else none. A file with errors is reported (JF100 for one that
    /// cannot be read, with the place jump.yaml names it; JF4xx for its contents) and stops
    /// the command (exit 2).
    static func schema(_ config: ClientConfig, override: String?, sources: SourceFiles, console: Console) throws -> EntitySchema? {
        let named = config.server.schema
        guard let path = override ?? named.map({ relative($0.value, to: config.path) }) else { return nil }
        let loaded = SchemaLoader.schema(path: path, directory: WorkingDirectory.override)
        if loaded.diagnostics.containsErrors {
            var diagnostics = loaded.diagnostics
            var all = sources
            all.merge(loaded.sources)
            if override == nil, let named {
                diagnostics = diagnostics.map { diagnostic in
                    var diagnostic = diagnostic
                    diagnostic.related.append(Diagnostic.Related("the schema is named by server.schema here", at: named.location))
                    return diagnostic
                }
            }
            console.err(DiagnosticRenderer(sources: all, useColor: console.colorErr).render(diagnostics))
            throw ExitCode(2)
        }
        return loaded.value
    }
}
