import ArgumentParser
import JumpCapture
import JumpCaptureServer
import JumpFiles
import JumpForms

/// `jump-forms db`: the server's database.
struct DatabaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "db",
        abstract: "Manage the server's database (SQLite or PostgreSQL).",
        subcommands: [MigrateDatabaseCommand.self]
    )
}

/// `jump-forms db migrate`: brings a database to this version's schema without starting a
/// server (an upgrade: migrate once, then start the new instances with `--no-migrate`).
struct MigrateDatabaseCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "migrate",
        abstract: "Apply the server's migrations the database lacks, and say which.",
        discussion: """
            The database: --database (postgres://user@host:port/db or a SQLite path), else --db, \
            else JUMP_DATABASE_URL, else server.database in jump.yaml, else the SQLite file serve \
            uses for jump.yaml's client. The migrations run in one transaction under a lock that \
            serve takes too (PostgreSQL: an advisory lock), so that instances starting meanwhile \
            apply none twice. A database whose schema is newer than this version is refused, \
            untouched, naming both versions. Exit status 1 when the database cannot be reached \
            or is newer; 2 for usage errors.
            """
    )

    @OptionGroup var project: ProjectOptions

    @OptionGroup var store: DatabaseOptions
    var database: String? { store.path }
    var databaseURL: String? { store.url }

    @Option(help: "Output format: text or json.")
    var format: DataFormat = .text

    func run() async throws {
        let console = Console()
        let environment = Environment.current
        let location = try self.location(environment: environment, console: console)
        let logger = LocalServer.quietLogger(label: "jump-forms.db", environment: environment, console: console)
        let applied: [String]
        do {
            applied = try await ServerSchema.migrate(location, logger: logger)
        } catch {
            console.err(escaping: "\(error)\n")
            throw ExitCode(1)
        }
        switch format {
        case .text:
            for identifier in applied { console.out(escaping: "applied \(identifier)\n") }
            let state = applied.isEmpty ? "is up to date" : "is migrated"
            console.out(escaping: "the database \(location) \(state) (schema version \(ServerSchema.version))\n")
        case .json:
            let report: JSONValue = [
                "database": .string(location.description), "applied": .array(applied.map(JSONValue.string)),
                "version": .integer(ServerSchema.version)
            ]
            console.out(report.serialized(pretty: true) + "\n")
        }
    }

    /// `--database`, else `--db`, else `JUMP_DATABASE_URL` (none of these needs jump.yaml),
    /// else what `serve` uses for jump.yaml.
    func location(environment: [String: String], console: Console) throws -> DatabaseLocation {
        let named = environment["JUMP_DATABASE_URL"].flatMap { $0.isEmpty ? nil : $0 }
        if let text = databaseURL ?? (database == nil ? named : nil) {
            do {
                return Self.resolved(try DatabaseLocation(parsing: text, environment: environment))
            } catch {
                throw ValidationError("cannot use the database \(error)")
            }
        }
        if let database { return .sqlite(path: WorkingDirectory.path(database)) }
        let workspace = try project.load(console: console)
        guard let config = workspace.project.config else { throw ValidationError("db migrate needs --database, --db or jump.yaml") }
        let found = try LocalServer.serverDatabase(config, database: nil, db: nil, environment: environment)
        return found.location ?? .sqlite(path: found.path)
    }

    /// A SQLite path relative to the working folder.
    static func resolved(_ location: DatabaseLocation) -> DatabaseLocation {
        if case .sqlite(let path) = location { return .sqlite(path: WorkingDirectory.path(path)) }
        return location
    }
}
