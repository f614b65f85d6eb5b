#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ArgumentParser
import JumpCapture
import JumpCaptureServer
import JumpFiles
import JumpForms

/// `jump-forms reset [--config F] [--db PATH | --database URL] [--yes]`: the local demo afresh.
/// Deletes the local server's database (and its WAL, shared-memory and key files; on
/// PostgreSQL, drops the server's tables) and forgets the stored session, which would otherwise
/// name a token the new database never issued.
struct ResetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Start the local demo afresh: delete the local server's database and forget the stored session.",
        discussion: """
            Deletes the database `serve` and `captureDomain: embedded` use for jump.yaml's client \
            (`--db`, else server.database, else the data folder's <client id>.sqlite) and the \
            session kept for that client. With a PostgreSQL database (--database URL, \
            JUMP_DATABASE_URL or a URL as server.database) it drops the server's tables in it \
            instead (and keeps the key file, which the other instances share). Stop every \
            `jump-forms serve` on it first. Asks on a terminal; elsewhere it needs --yes.
            """
    )

    @OptionGroup var project: ProjectOptions

    @OptionGroup var store: DatabaseOptions
    var database: String? { store.path }
    var databaseURL: String? { store.url }

    @Flag(help: "Delete without asking.")
    var yes = false

    func run() async throws {
        let console = Console()
        let environment = Environment.current
        let workspace = try project.load(console: console)
        guard let config = workspace.project.config else {
            throw ValidationError("reset needs jump.yaml (the client configuration): pass --config FILE")
        }
        let found = try LocalServer.serverDatabase(config, database: databaseURL, db: database, environment: environment)
        let path = found.path
        let postgres = found.location
        let files = postgres != nil ? [] : [path, path + "-wal", path + "-shm", path + ".key"].filter(WorkingDirectory.isFile)
        let store = FileSessionStore(config: config, environment: environment)
        let hasSession = (try? store.load()) != nil
        guard !files.isEmpty || hasSession || postgres != nil else {
            console.err("Nothing to reset: no database at \(path) and no stored session.\n")
            return
        }
        let what =
            (postgres.map { ["drop the server's tables in \($0)"] } ?? [])
            + (files.isEmpty ? [] : ["delete " + files.joined(separator: ", ")]) + (hasSession ? ["forget the stored session"] : [])
        if !yes {
            guard isatty(0) == 1 else {
                throw ValidationError("reset would \(what.joined(separator: " and ")): pass --yes to do it without a terminal")
            }
            let terminal = Terminal(console: console)
            terminal.show("Reset will \(what.joined(separator: " and ")). Go on? [y/N] ")
            guard let answer = terminal.readLine(), ["y", "yes"].contains(answer.lowercased()) else {
                console.err("Nothing changed.\n")
                throw ExitCode(1)
            }
        }
        if let postgres {
            do {
                _ = try await ServerSchema.erase(
                    postgres, logger: LocalServer.quietLogger(label: "jump-forms.reset", environment: environment, console: console))
            } catch {
                console.err(escaping: "\(error)\n")
                throw ExitCode(1)
            }
            console.out(escaping: "dropped the server's tables in \(postgres)\n")
        }
        for file in files where unlink(WorkingDirectory.path(file)) != 0 && errno != ENOENT {
            throw ValidationError("cannot delete \(file): \(String(cString: strerror(errno)))")
        }
        do {
            try store.clear()
        } catch {
            throw ValidationError("\(error)")
        }
        for file in files { console.out(escaping: "deleted \(file)\n") }
        if hasSession { console.out("forgot the stored session\n") }
    }
}
