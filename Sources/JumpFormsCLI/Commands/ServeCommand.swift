import ArgumentParser
import JumpCapture
import JumpCaptureServer
import JumpServerTLS
import JumpFiles
import JumpForms
import Logging

/// `jump-forms serve`: the local Capture-compatible server and Engage double.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Run a local Capture-compatible server (and Engage double) that enforces the flow.",
        discussion: """
            Binds 127.0.0.1 unless --host says otherwise; --port 0 picks a free port. Prints the \
            URL it listens on, and stops cleanly on Ctrl-C (SIGINT) or SIGTERM: GET /ready answers 503 at once, \
            the server goes on serving for --drain-delay seconds (default 0; time for a load balancer to \
            notice), then stops accepting connections and gives the requests in flight --grace-period \
            seconds (default 5) to finish, and exits 0. Exit status 2 when it cannot listen, open the database or \
            serve HTTPS; 1 when the database cannot be reached or its schema is newer than this server. Data lives \
            in a SQLite file (--db, or server.database in jump.yaml, or the XDG data folder) or in PostgreSQL \
            (--database postgres://user@host:port/db, JUMP_DATABASE_URL, or a URL as server.database), \
            which many instances can share; the database is migrated on start unless --no-migrate. Log lines go to \
            standard error at the level LOG_LEVEL names (trace ... critical; default warning). \
            --tls serves HTTPS with a certificate for localhost, 127.0.0.1 and ::1 signed by a local CA \
            that it makes once in the data folder (tls/ca.pem: trust it in the simulator or emulator, \
            see docs/local-server.md); the CA signs no other DNS name but those --tls-host gives when it \
            is made. --tls-cert and --tls-key serve your own PEM files instead. \
            GET /health answers while the process runs, GET /ready while the database is reachable and \
            its migrations current (else 503), GET /metrics the Prometheus metrics (docs/deploying.md). \
            Every option also comes from an environment variable (JUMP_HOST, JUMP_PORT, JUMP_TLS, \
            JUMP_TLS_CERT, JUMP_TLS_KEY, JUMP_LOG_FORMAT, JUMP_DRAIN_DELAY, JUMP_GRACE_PERIOD; JUMP_DATABASE and JUMP_SCHEMA for --db and \
            --schema, as every server: key of jump.yaml): an option wins over its variable, a variable \
            over jump.yaml.
            """
    )

    @OptionGroup var project: ProjectOptions

    @Option(help: "The address to bind (default 127.0.0.1; env JUMP_HOST).")
    var host: String?

    // `.unconditional`: a negative number is the option's value (refused by `validate`), not an option.
    @Option(parsing: .unconditional, help: "The port, 0 picks a free one (default 8080; env JUMP_PORT).")
    var port: Int?

    @Option(
        name: .customLong("log-format"),
        help: ArgumentHelp("Log lines as text or json, one object a line (default text; env JUMP_LOG_FORMAT).", valueName: "format"))
    var logFormat: StandardErrorLogHandler.Format?

    @OptionGroup var store: DatabaseOptions
    var database: String? { store.path }
    var databaseURL: String? { store.url }

    @Option(
        name: .customLong("drain-delay"), parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds to go on serving after SIGTERM, /ready answering 503, before stopping (default 0; env JUMP_DRAIN_DELAY).",
            valueName: "seconds"))
    var drainDelay: Int?

    @Option(
        name: .customLong("grace-period"), parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds the requests in flight get to finish once the server stops accepting connections (default 5; env JUMP_GRACE_PERIOD).",
            valueName: "seconds"))
    var gracePeriod: Int?

    @Flag(
        name: .customLong("no-migrate"),
        help: "Do not apply the database's missing migrations on start (one serve without it does); refuse a schema that is not current.")
    var noMigrate = false

    @OptionGroup var tls: TLSOptions

    @Option(help: ArgumentHelp("The Capture entity-type schema (JSON) records follow (default: server.schema in jump.yaml).", valueName: "file"))
    var schema: String?

    func validate() throws {
        if let port, !(0...65535).contains(port) { throw ValidationError("--port must be 0...65535, got \(port)") }
        if let drainDelay, !Self.shutdownSeconds.contains(drainDelay) {
            throw ValidationError("--drain-delay must be 0...\(Self.shutdownSeconds.upperBound) seconds, got \(drainDelay)")
        }
        if let gracePeriod, !Self.shutdownSeconds.contains(gracePeriod) {
            throw ValidationError("--grace-period must be 0...\(Self.shutdownSeconds.upperBound) seconds, got \(gracePeriod)")
        }
    }

    /// The drain delays and grace periods `serve` takes, in seconds.
    static let shutdownSeconds = 0...3600

    /// What `serve` runs with: each option, else its environment variable, else its default.
    struct Resolved: Equatable {
        var host: String
        var port: Int
        var logFormat: StandardErrorLogHandler.Format
        /// Seconds to go on serving after SIGTERM, `/ready` answering 503.
        var drainDelay = 0
        /// Seconds the requests in flight get once the server stops accepting connections.
        var gracePeriod = 5
    }

    func resolved(_ environment: [String: String]) throws -> Resolved {
        func named(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        var port = self.port ?? 8080
        if self.port == nil, let text = named("JUMP_PORT") {
            guard let value = Int(text), (0...65535).contains(value) else { throw ValidationError("JUMP_PORT must be 0...65535, got \(text)") }
            port = value
        }
        var logFormat = self.logFormat ?? .text
        if self.logFormat == nil, let text = named("JUMP_LOG_FORMAT") {
            guard let value = StandardErrorLogHandler.Format(rawValue: text) else {
                throw ValidationError("JUMP_LOG_FORMAT must be text or json, got \(text)")
            }
            logFormat = value
        }
        func seconds(_ option: Int?, _ variable: String, default value: Int) throws -> Int {
            if let option { return option }
            guard let text = named(variable) else { return value }
            guard let given = Int(text), Self.shutdownSeconds.contains(given) else {
                throw ValidationError("\(variable) must be 0...\(Self.shutdownSeconds.upperBound) seconds, got \(text)")
            }
            return given
        }
        return Resolved(
            host: host ?? named("JUMP_HOST") ?? "127.0.0.1", port: port, logFormat: logFormat,
            drainDelay: try seconds(drainDelay, "JUMP_DRAIN_DELAY", default: 0),
            gracePeriod: try seconds(gracePeriod, "JUMP_GRACE_PERIOD", default: Int(CaptureServer.shutdownGracePeriod.components.seconds)))
    }

    func run() async throws {
        let console = Console()
        let environment = Environment.current
        let settings = try resolved(environment)
        let workspace = try project.load(console: console)
        var configured = try LocalServer.setup(
            workspace, databaseOverride: database, databaseURL: databaseURL, schemaOverride: schema, environment: environment, console: console)
        configured.migrate = !noMigrate
        let setup = configured
        let shownDatabase = setup.database?.description ?? setup.databasePath
        let logger = LocalServer.logger(label: "jump-forms.serve", format: settings.logFormat, environment: environment, console: console)
        let served = try tls.prepare(dataDirectory: LocalServer.dataDirectory(environment), environment: environment, console: console)
        let server: CaptureServer
        do {
            server = try CaptureServer(setup: setup, logger: logger)
        } catch {
            console.err(escaping: "cannot open the database \(shownDatabase): \(error)\n")
            throw ExitCode(2)
        }
        do {
            try await server.prepare()
        } catch {
            // One line: an unreachable PostgreSQL server is named by host and port.
            console.err(escaping: "\(error)\n")
            throw ExitCode(1)
        }
        do {
            try await server.run(
                host: settings.host, port: settings.port, tls: served?.tls.configuration, hostNames: tls.hosts,
                drainDelay: .seconds(settings.drainDelay), gracePeriod: .seconds(settings.gracePeriod)
            ) { url in
                console.out(escaping: "jump-forms serving flow \(setup.flow.name.value) at \(url)\n")
                console.out(escaping: "database: \(shownDatabase)\n")
                if let authority = served.flatMap({ $0.authority }) { console.out(TLSOptions.trustHint(authority)) }
            }
        } catch let error as CaptureServerError {
            console.err(escaping: "\(error)\n")
            throw ExitCode(2)
        } catch {
            console.err(escaping: "the server stopped: \(error)\n")
            throw ExitCode(2)
        }
    }
}

/// `serve`'s HTTPS options: `--tls` (the local CA's certificate), or `--tls-cert` and
/// `--tls-key` (your own PEM files).
struct TLSOptions: ParsableArguments {
    @Flag(help: "Serve HTTPS with a certificate for localhost, 127.0.0.1 and ::1 signed by a local CA (made once in the data folder).")
    var tls = false

    @Option(
        name: .customLong("tls-cert"),
        help: ArgumentHelp("A PEM certificate (chain) to serve over HTTPS instead of the local CA's.", valueName: "path"))
    var certificate: String?

    @Option(
        name: .customLong("tls-key"),
        help: ArgumentHelp("The PEM private key of --tls-cert (mode 0600: a key others may read is refused).", valueName: "path"))
    var key: String?

    @Option(
        name: .customLong("tls-host"),
        help: ArgumentHelp(
            "A DNS name the local CA's certificate names besides localhost, and the server answers to (repeatable; the CA permits it when it is made).",
            valueName: "name"))
    var hosts: [String] = []

    func validate() throws {
        if (certificate == nil) != (key == nil) { throw ValidationError("--tls-cert and --tls-key go together") }
        if !hosts.isEmpty, !tls { throw ValidationError("--tls-host names a host of the local CA's certificate: it goes with --tls") }
        for host in hosts where !Self.isDNSName(host) {
            throw ValidationError("--tls-host takes a DNS name in lower case (letters, digits, '-', dots; not an IP address), got '\(host)'")
        }
    }

    /// Whether `name` is a lower-case DNS name of letters, digits and hyphens, with a letter
    /// somewhere (so not an IPv4 address).
    static func isDNSName(_ name: String) -> Bool {
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        guard !name.isEmpty, name.count <= 253, name.contains(where: { ("a"..."z").contains($0) }) else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.first != "-" && label.last != "-"
                && label.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
        }
    }

    /// What the server serves HTTPS with (nil: HTTP), and the local CA when it is the CA's
    /// certificate. A problem (a key others may read, a file that is not PEM) is said and
    /// ends the command with status 2.
    /// Each option, else its environment variable (`JUMP_TLS=1`, `JUMP_TLS_CERT`, `JUMP_TLS_KEY`).
    func prepare(
        dataDirectory: String?, environment: [String: String] = [:], console: Console
    ) throws -> (tls: ServerTLS, authority: LocalCertificateAuthority?)? {
        func named(_ name: String) -> String? { environment[name].flatMap { $0.isEmpty ? nil : $0 } }
        let certificate = self.certificate ?? named("JUMP_TLS_CERT")
        let key = self.key ?? named("JUMP_TLS_KEY")
        let tls = self.tls || ["1", "true", "yes"].contains(named("JUMP_TLS")?.lowercased() ?? "")
        if (certificate == nil) != (key == nil) {
            console.err("cannot serve HTTPS: a certificate and its key go together (--tls-cert and --tls-key, or JUMP_TLS_CERT and JUMP_TLS_KEY)\n")
            throw ExitCode(2)
        }
        guard tls || certificate != nil else { return nil }
        if certificate == nil, dataDirectory == nil {
            console.err("cannot serve HTTPS: no home folder to keep the local CA in (set HOME or XDG_DATA_HOME, or give --tls-cert and --tls-key)\n")
            throw ExitCode(2)
        }
        do {
            if let certificate, let key {
                return (try ServerTLS.load(certificatePath: WorkingDirectory.path(certificate), keyPath: WorkingDirectory.path(key)), nil)
            }
            let authority = LocalCertificateAuthority(folder: (dataDirectory ?? "") + "/tls", hosts: hosts)
            return (try authority.prepare().tls, authority)
        } catch {
            console.err(escaping: "cannot serve HTTPS: \(error)\n")
            throw ExitCode(2)
        }
    }

    /// The lines `serve --tls` prints about the CA.
    static func trustHint(_ authority: LocalCertificateAuthority) -> String {
        """
        CA certificate: \(authority.certificatePath)
        trust it once: iOS simulator `xcrun simctl keychain booted add-root-cert \(authority.certificatePath)`; \
        Android emulator: a network_security_config trusting it as a raw resource (docs/local-server.md, "HTTPS")

        """
    }
}

/// `jump-forms outbox`: the emails the local server wrote (password resets, verifications).
struct OutboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "outbox",
        abstract: "List the emails the local server sent (password resets, email verifications)."
    )

    @OptionGroup var project: ProjectOptions

    @OptionGroup var store: DatabaseOptions
    var database: String? { store.path }
    var databaseURL: String? { store.url }

    @Option(help: "Output format: text or json.")
    var format: DataFormat = .text

    func run() async throws {
        let console = Console()
        let found = try LocalServer.existingDatabasePath(project, override: database, database: databaseURL, command: "outbox", console: console)
        let path = LocalServer.shown(found)
        let messages = try await Outbox.messages(databasePath: found.path, database: found.location)
        switch format {
        case .text:
            if messages.isEmpty { console.out(escaping: "the outbox of \(path) is empty\n") }
            // The emails hold what users typed (names, addresses): shown escaped, each line of
            // the body indented.
            for message in messages {
                let body = message.body.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: "\n  ")
                console.out(
                    escaping:
                        """
                        #\(message.id) \(message.kind) to \(message.recipient) at \(RefreshSignature.dateString(epochSeconds: message.createdAt)) \
                        UTC\n  Subject: \(message.subject)\n  \(body)\n
                        """
                )
            }
        case .json:
            console.out(
                JSONValue.array(
                    messages.map {
                        [
                            "id": .integer(Int($0.id)), "kind": .string($0.kind), "to": .string($0.recipient), "subject": .string($0.subject),
                            "body": .string($0.body), "createdAt": .integer($0.createdAt)
                        ]
                    }
                ).serialized(pretty: true) + "\n")
        }
    }
}
