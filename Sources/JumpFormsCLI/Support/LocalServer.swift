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

    /// The logger of a command that opens the server's database and says its own failures in
    /// one line (`db migrate`, `reset`): the pool's lines only at the level `JUMP_LOG_LEVEL` or
    /// `LOG_LEVEL` asks for, else none.
    static func quietLogger(label: String, environment: [String: String], console: Console) -> Logger {
        var logger = logger(label: label, environment: environment, console: console)
        if (environment["JUMP_LOG_LEVEL"] ?? environment["LOG_LEVEL"] ?? "").isEmpty { logger.logLevel = .critical }
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
        if let database = configuredSQLite(config) { return relative(database, to: config.path) }
        let name = String(
            config.captureClientId.value.unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" })
        return (dataDirectory(environment) ?? "$HOME/.local/share/jump-forms") + "/\(name.isEmpty ? "capture" : name).sqlite"
    }

    /// The database a command that reads the local server's records lists (`outbox`, `feed`):
    /// jump.yaml's (or `--db`), which must exist; usage errors otherwise.
    static func existingDatabasePath(
        _ project: ProjectOptions, override: String?, database: String? = nil, command: String, console: Console,
        environment: [String: String] = Environment.current
    ) throws -> (path: String, location: DatabaseLocation?) {
        let workspace = try project.load(console: console)
        guard let config = workspace.project.config else { throw ValidationError("\(command) needs jump.yaml: pass --config FILE") }
        let found = try serverDatabase(config, database: database, db: override, environment: environment)
        guard found.location != nil || WorkingDirectory.isFile(found.path) else {
            throw ValidationError("no database at \(found.path): start the server (jump-forms serve) or pass --db")
        }
        return found
    }

    /// What a command says of the database it read: the SQLite path, or the URL without its password.
    static func shown(_ database: (path: String, location: DatabaseLocation?)) -> String {
        database.location?.description ?? database.path
    }

    /// `databasePath`, or a usage error when it would be in a home folder there is none of.
    static func checkedDatabasePath(_ config: ClientConfig, override: String?, environment: [String: String]) throws -> String {
        if override == nil, configuredSQLite(config) == nil, dataDirectory(environment) == nil {
            throw ValidationError("no folder for the database: \(HomeFolder.unknownReason), or pass --db")
        }
        return databasePath(config, override: override, environment: environment)
    }

    /// `server.database` when it names a SQLite file (a path, or `sqlite:PATH`), not a URL.
    static func configuredSQLite(_ config: ClientConfig) -> String? {
        guard let text = config.server.database?.value, case .sqlite(let path)? = try? DatabaseLocation(parsing: text) else { return nil }
        return path
    }

    /// The server's database and the SQLite path beside which its key lives: `--database`
    /// (a URL or a path), else `--db`, else `JUMP_DATABASE_URL`, else `server.database` (a URL,
    /// or a path relative to jump.yaml; `JUMP_DATABASE` sets it), else the data folder's
    /// `<client id>.sqlite`. With PostgreSQL, `path` is where the SQLite file would be, and
    /// `path.key` the key every instance needs the same copy of. A URL that cannot be read is a
    /// usage error, its password masked.
    static func serverDatabase(
        _ config: ClientConfig, database: String?, db: String?, environment: [String: String]
    ) throws -> (path: String, location: DatabaseLocation?) {
        let named = environment["JUMP_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        let configured = config.server.database?.value
        let text = database ?? (db == nil ? named ?? configured.flatMap { configuredSQLite(config) == nil ? $0 : nil } : nil)
        if let text {
            let location: DatabaseLocation
            do {
                location = try DatabaseLocation(parsing: text, environment: environment)
            } catch {
                throw ValidationError("cannot use the database \(error)")
            }
            switch location {
            case .sqlite(let path): return (WorkingDirectory.path(path), nil)
            case .postgres:
                return (WorkingDirectory.path(try checkedDatabasePath(config, override: db, environment: environment)), location)
            }
        }
        return (WorkingDirectory.path(try checkedDatabasePath(config, override: db, environment: environment)), nil)
    }

    static func relative(_ path: String, to file: String) -> String {
        if path.hasPrefix("/") { return path }
        guard let slash = file.lastIndex(of: "/") else { return path }
        return String(file[..<slash]) + "/" + path
    }

    /// The setup, or a thrown exit after printing the identities file's or the schema's
    /// problems. `schemaOverride`: `serve --schema`, else `server.schema` (relative to jump.yaml).
    static func setup(
        _ workspace: Workspace, databaseOverride: String?, databaseURL: String? = nil, schemaOverride: String? = nil,
        environment: [String: String], console: Console
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
        let database = try serverDatabase(config, database: databaseURL, db: databaseOverride, environment: environment)
        var setup = CaptureServerSetup(
            config: config, flow: workspace.flow, localizer: workspace.localizer, identities: identities,
            databasePath: database.path, schema: schema)
        setup.database = database.location
        return setup
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
