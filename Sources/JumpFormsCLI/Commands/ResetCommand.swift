#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif
import ArgumentParser
import JumpCapture
import JumpFiles
import JumpForms

/// `jump-forms reset [--config F] [--db PATH] [--yes]`: the local demo afresh. Deletes the
/// local server's database (and its WAL, shared-memory and key files) and forgets the stored
/// session, which would otherwise name a token the new database never issued.
struct ResetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "reset",
        abstract: "Start the local demo afresh: delete the local server's database and forget the stored session.",
        discussion: """
            Deletes the database `serve` and `captureDomain: embedded` use for jump.yaml's client \
            (`--db`, else server.database, else the data folder's <client id>.sqlite) and the \
            session kept for that client. Stop a running `jump-forms serve` first. Asks on a \
            terminal; elsewhere it needs --yes.
            """
    )

    @OptionGroup var project: ProjectOptions

    @Option(name: .customLong("db"), help: ArgumentHelp("The local server's SQLite file to delete.", valueName: "path"))
    var database: String?

    @Flag(help: "Delete without asking.")
    var yes = false

    func run() throws {
        let console = Console()
        let environment = Environment.current
        let workspace = try project.load(console: console)
        guard let config = workspace.project.config else {
            throw ValidationError("reset needs jump.yaml (the client configuration): pass --config FILE")
        }
        let path = try LocalServer.checkedDatabasePath(config, override: database, environment: environment)
        let files = [path, path + "-wal", path + "-shm", path + ".key"].filter(WorkingDirectory.isFile)
        let store = FileSessionStore(config: config, environment: environment)
        let hasSession = (try? store.load()) != nil
        guard !files.isEmpty || hasSession else {
            console.err("Nothing to reset: no database at \(path) and no stored session.\n")
            return
        }
        let what = (files.isEmpty ? [] : ["delete " + files.joined(separator: ", ")]) + (hasSession ? ["forget the stored session"] : [])
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
