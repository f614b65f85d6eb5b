import ArgumentParser
import JumpCapture
import JumpCaptureNIO
import JumpCaptureServer
import JumpForms
import JumpFormsLoader
import Logging

/// The options every account command takes.
struct AccountOptions: ParsableArguments {
    @OptionGroup var project: ProjectOptions
    @OptionGroup var input: ValueOptions

    @Flag(help: "Never prompt: take values from --answers, --set and JUMP_FIELD_<NAME>; fail listing every missing field.")
    var nonInteractive = false

    @Flag(help: "Print the request (secrets masked) instead of sending it.")
    var dryRun = false

    @Flag(help: "With --dry-run: print secrets in clear text.")
    var showSecrets = false

    @Flag(help: "No colour, even on a terminal (passwords are still typed without echo).")
    var plain = false

    @Option(name: .customLong("db"), help: ArgumentHelp("The embedded server's SQLite file (captureDomain: embedded).", valueName: "path"))
    var database: String?

    @Option(help: ArgumentHelp("The date rules count from (default: today).", valueName: "yyyy-MM-dd"))
    var today: String?

    func validate() throws {
        if let today, CivilDate(iso: today) == nil { throw ValidationError("--today takes yyyy-MM-dd, got '\(today)'") }
    }
}

/// Everything an account command works with: the loaded files, where Capture is (starting the
/// embedded server when `captureDomain: embedded`), the Capture client, and the prompts.
final class AccountContext {
    let options: AccountOptions
    let console: Console
    let environment: [String: String]
    let workspace: Workspace
    let config: ClientConfig
    let terminal: Terminal
    let today: CivilDate
    let transport = AsyncHTTPTransport()
    let sessionStore: FileSessionStore
    private(set) var embedded: EmbeddedCaptureServer?
    private var connected = false
    private var flowVersionResolved = false
    private(set) var setup: CaptureSetup
    /// Test identities of the local server (embedded or on loopback), for the Engage walk.
    private(set) var identities: [TestIdentity] = []
    /// Why the last request was not sent (a dry run printed it; the embedded server did not
    /// start; the flow document could not be had): `AccountTransport` sets it.
    fileprivate var stopped: (any Error)?

    /// The account's calls and its session. Its requests go through `AccountTransport`, which
    /// points them at the running server (and prints them on a dry run).
    private(set) lazy var client = CaptureClient(
        setup: setup, transport: AccountTransport(context: self),
        sessionStore: ReportingSessionStore(store: sessionStore, console: console), sessionDomain: sessionDomain,
        clock: ClientClock(now: { RefreshSignature.now }, today: { [today] in today }), logger: Self.quietLogger)

    var builder: RequestBuilder { setup.builder }
    var locale: LocaleTag { workspace.locale }
    var localizer: Localizer { workspace.localizer }
    var interactive: Bool { !options.nonInteractive }

    init(options: AccountOptions) throws {
        self.options = options
        let console = Console(plain: options.plain)
        self.console = console
        environment = Environment.current
        workspace = try options.project.load(console: console)
        guard let config = workspace.project.config else {
            throw ValidationError("this command needs jump.yaml (the client configuration): pass --config FILE")
        }
        self.config = config
        terminal = Terminal(console: console)
        today = options.today.flatMap(CivilDate.init(iso:)) ?? .today
        setup = try CaptureSetup(workspace: workspace, captureURL: nil)
        sessionStore = FileSessionStore(config: config, environment: environment)
    }

    /// The client's logger: what the CLI says, it prints itself.
    static var quietLogger: Logger {
        var logger = Logger(label: "jump-forms.client")
        logger.logLevel = .error
        return logger
    }

    /// Starts the embedded server when the configuration asks for it (not for dry runs) and
    /// points the builders at it. Called on the first request, so a run that fails before
    /// sending anything (a missing value, no session) starts nothing and creates no database.
    func connect() async throws {
        guard !options.dryRun, !connected else { return }
        connected = true
        switch config.captureDomain.value {
        case .embedded:
            let serverSetup = try LocalServer.setup(workspace, databaseOverride: options.database, environment: environment, console: console)
            identities = serverSetup.identities
            var logger = Logger(label: "jump-forms.embedded")
            logger.logLevel = .error
            let server = try await EmbeddedCaptureServer.start(serverSetup, logger: logger)
            embedded = server
            console.err(words("jumpForms.cli.localServer", ["path": .string(serverSetup.databasePath)]) + "\n")
            guard let url = ServerURL(server.url) else { throw ValidationError("not a server URL: \(server.url)") }
            setup = setup.with(capture: url)
        case .url(let url):
            if let server = ServerURL(url), server.isLoopback {
                identities = (try? LocalServer.setup(workspace, databaseOverride: nil, environment: environment, console: console).identities) ?? []
            }
        }
    }

    /// Against a remote Capture, downloads the flow document once, for the `flow_version` the
    /// SDKs send (`CaptureSetup.withDownloadedFlowVersion`). Called by the first request that
    /// carries one, so that commands that send none (`whoami`) download nothing.
    func resolveFlowVersion() async throws {
        guard !flowVersionResolved else { return }
        flowVersionResolved = true
        setup = try await setup.withDownloadedFlowVersion(console: console)
    }

    func close() async {
        await embedded?.stop()
    }

    /// Whether Capture (and its Engage double) runs on this machine.
    var isLocal: Bool {
        if case .embedded = config.captureDomain.value { return true }
        return setup.capture.isLoopback
    }

    // MARK: words

    func words(_ key: String, _ arguments: [String: MessageArgument] = [:]) -> String {
        localizer.text(key, for: locale, arguments)
    }

    /// A status message, on standard error (standard output carries only data).
    func say(_ key: String, _ arguments: [String: MessageArgument] = [:]) {
        console.err(words(key, arguments.escapedForTerminal) + "\n")
    }

    /// `field: message`, punctuated by the locale.
    func fieldMessage(_ field: String, _ message: String) -> String {
        words("jumpForms.cli.fieldMessage", ["field": .string(field), "message": .string(message)])
    }

    // MARK: forms

    /// The values of an operation's form: prompted (prefilled from the options and `extra`;
    /// `defaults` asked with their value offered), or, with --non-interactive, checked and
    /// refused listing every missing field.
    func fill(
        _ operation: CaptureOperation, prefilled extra: FormValues = FormValues(),
        defaults: FormValues = FormValues()
    ) throws -> (FormValues, FormSession?) {
        let form = try formModel(operation)
        var prefilled = extra
        for (name, value) in try options.input.values(for: form, localizer: localizer, environment: environment, console: console).values {
            prefilled[name] = value
        }
        if !interactive || options.dryRun && !options.input.isEmpty {
            var given = defaults
            for (name, value) in prefilled.values { given[name] = value }
            prefilled = given
            let report = RuleEngine(form: form, today: today).validate(prefilled)
            if !report.isValid {
                let missing = form.fields.filter { field in
                    report.violations.contains { $0.field == field.name && $0.rule == .required }
                }
                var out = ""
                if !missing.isEmpty {
                    out +=
                        words(
                            "jumpForms.cli.missingFields",
                            ["count": .int(missing.count), "fields": .string(missing.map(\.name).joined(separator: ", "))]) + "\n"
                }
                for entry in localizer.messages(for: report.violations, in: form) {
                    for message in entry.messages { out += fieldMessage(entry.field, message) + "\n" }
                }
                console.err(out)
                throw ExitCode(1)
            }
            return (prefilled, nil)
        }
        var session = FormSession(form: form, localizer: localizer, today: today, prefilled: prefilled, defaults: defaults)
        return (try prompt(&session), session)
    }

    func formModel(_ operation: CaptureOperation) throws -> FormModel {
        do {
            return try builder.form(for: operation)
        } catch {
            throw workspace.refusal(error, console: console)
        }
    }

    /// Runs the prompts; Ctrl-C meanwhile exits 130 having sent nothing.
    func prompt(_ session: inout FormSession) throws -> FormValues {
        InterruptGuard.arm(message: words("jumpForms.cli.interrupted"))
        defer { InterruptGuard.disarm() }
        let runner = PromptRunner(terminal: terminal, localizer: localizer, locale: locale, color: console.colorErr)
        do {
            return try runner.run(&session)
        } catch is PromptRunner.EndOfInput {
            console.err("\n" + words("jumpForms.cli.interrupted") + "\n")
            throw ExitCode(1)
        }
    }

    var runner: PromptRunner {
        PromptRunner(terminal: terminal, localizer: localizer, locale: locale, color: console.colorErr)
    }

    /// A yes/no question (false with --non-interactive).
    func confirm(_ question: String) -> Bool {
        guard interactive else { return false }
        let runner = self.runner
        terminal.show(runner.question(runner.withBrackets(question, words(PromptWords.yesNoHint))))
        guard let answer = terminal.readLine()?.trimmingSpaces().lowercased() else { return false }
        let yes = words(PromptWords.yes).lowercased()
        return ["y", "yes", yes, String(yes.prefix(1))].contains(answer) && !answer.isEmpty
    }

    /// One of several choices, by number. With --non-interactive, a usage error that says how
    /// to choose (`how`, e.g. "pass --identity ID").
    func choose(_ title: String, _ choices: [String], nonInteractive how: String) throws -> Int {
        guard choices.count > 1 else { return 0 }
        guard interactive else { throw ValidationError("several choices (\(choices.joined(separator: ", "))): \(how)") }
        while true {
            var out = words(PromptWords.heading, ["text": .string(title), "instruction": .string(words(PromptWords.chooseOne))]) + "\n"
            for (index, choice) in choices.enumerated() {
                out +=
                    "   " + words(PromptWords.option, ["number": .string(String(index + 1)), "label": .string(TerminalText.escaped(choice))]) + "\n"
            }
            terminal.show(out + "> ")
            guard let line = terminal.readLine() else { throw ExitCode(1) }
            if let number = Int(line.trimmingSpaces()), (1...choices.count).contains(number) { return number - 1 }
            console.err(words(PromptWords.invalidChoice, ["count": .int(choices.count)]) + "\n")
        }
    }

    // MARK: sending

    /// Makes a request ready to go: starts the embedded server on the first one, downloads
    /// the flow document's version for the first one that sends `flow_version`, and points
    /// it at them (it was built before either was known).
    func prepare(_ request: CaptureRequest) async throws -> CaptureRequest {
        try await connect()
        if request.parameter("flow_version") != nil { try await resolveFlowVersion() }
        return request.resolved(server: builder.capture, flowVersion: builder.flowVersion)
    }

    /// How `call` reports values that cannot be sent: field by field (exit 1), or as a usage
    /// error.
    enum RequestErrorReport { case fields, usage }

    /// Runs a call of the client: its result, or the server's refusal; nil when a dry run
    /// printed the request instead. Everything else is reported here: a request that cannot
    /// be built, no answer (exit 2), no session (exit 1).
    func call<Value>(
        reporting report: RequestErrorReport = .fields, _ body: () async throws(CaptureClientError) -> Value
    ) async throws -> Result<Value, CaptureError>? {
        stopped = nil
        do {
            return .success(try await body())
        } catch {
            switch error {
            case .refused(let refusal):
                return .failure(refusal)
            case .transport(let failure):
                if let reason = stopped {
                    stopped = nil
                    if reason is DryRun { return nil }
                    throw reason
                }
                console.err(escaping: "\(failure)\n")
                throw ExitCode(2)
            case .request(let failure):
                if report == .fields, case .invalidValues(let invalid) = failure { try refuse(invalid.messages) }
                throw ValidationError(failure.description)
            case .notSignedIn:
                say("jumpForms.cli.notSignedIn")
                throw ExitCode(1)
            case .sessionStore(let failure):
                console.err("\(failure)\n")
                throw ExitCode(1)
            case .unexpectedAnswer(_, let success):
                try unexpected(success)
            case .noDeviceToken:
                console.err(escaping: "\(error)\n")
                throw ExitCode(1)
            }
        }
    }

    /// Why `stopped` may say a request was not sent: a dry run printed it.
    struct DryRun: Error {}

    /// Prints a refusal the command does not handle itself and exits 1.
    func fail(_ error: CaptureError) throws -> Never {
        if case .invalidFields(let invalid) = error {
            try refuse(invalid.fields.map(\.escapedForTerminal), formMessages: invalid.formMessages.map { TerminalText.escaped($0) })
        }
        if let seconds = error.serverError?.retryAfter {
            // 510: too many attempts (or the server is busy); the wait, in the user's words.
            console.err(
                (seconds >= 120
                    ? words("jumpForms.cli.retryAfterMinutes", ["minutes": .int((seconds + 59) / 60)])
                    : words("jumpForms.cli.retryAfter", ["seconds": .int(seconds)])) + "\n")
            throw ExitCode(1)
        }
        console.err(words("jumpForms.cli.refused", ["message": .string(TerminalText.escaped(error.description))]) + "\n")
        throw ExitCode(1)
    }

    /// Prints refused values, field by field, and exits 1.
    func refuse(_ messages: [FieldMessages], formMessages: [String] = []) throws -> Never {
        var out = formMessages.map { $0 + "\n" }.joined()
        for entry in messages {
            for message in entry.messages { out += fieldMessage(entry.field, message) + "\n" }
        }
        console.err(out)
        throw ExitCode(1)
    }

    /// An answer of a kind the operation never gives.
    func unexpected(_ success: CaptureSuccess) throws -> Never {
        console.err(escaping: "unexpected answer from the server: \(success)\n")
        throw ExitCode(2)
    }

    // MARK: session

    /// What a session is bound to: the Capture URL, or the embedded server's database.
    var sessionDomain: String {
        switch config.captureDomain.value {
        case .embedded:
            "embedded:" + LocalServer.databasePath(config, override: options.database, environment: environment)
        case .url(let url): url
        }
    }

    /// The signed-in session of this Capture server, or a message and exit 1.
    func requireSession() async throws -> Session {
        let session: Session?
        do { session = try await client.session() } catch {
            console.err("\(error)\n")
            throw ExitCode(1)
        }
        guard let session else {
            say("jumpForms.cli.notSignedIn")
            throw ExitCode(1)
        }
        return session
    }

    // MARK: providers

    func provider(named name: String) throws -> ProviderDefinition {
        guard let provider = workspace.flow.providers.first(where: { $0.id.value == name }) else {
            let names = workspace.flow.providers.map(\.id.value)
            let hint = Suggestion.hint(for: name, among: names).map { " (\($0))" } ?? " (providers: \(names.joined(separator: ", ")))"
            throw ValidationError("the flow has no provider '\(name)'\(hint)")
        }
        return provider
    }

    func friendlyName(_ provider: ProviderDefinition) -> String {
        provider.name.map { localizer.text($0.value, for: locale) } ?? provider.builtIn?.friendlyName ?? provider.id.value
    }

    func friendlyName(id: String) -> String {
        workspace.flow.providers.first { $0.id.value == id }.map(friendlyName) ?? BuiltInProvider(rawValue: id)?.friendlyName ?? id
    }
}

/// The CLI's way to Capture for `CaptureClient`: each request is made ready
/// (`AccountContext.prepare`), then printed on a dry run, else sent. A failure to make it
/// ready, and the dry run, are kept in the context (`stopped`) for `AccountContext.call` to
/// report, and end the request as not sent.
///
/// Unchecked Sendable: an account command runs one call at a time, and the client calls the
/// transport only while the command awaits it.
final class AccountTransport: HTTPTransport, @unchecked Sendable {
    unowned let context: AccountContext

    init(context: AccountContext) {
        self.context = context
    }

    func send(_ request: CaptureRequest) async throws(TransportError) -> HTTPAnswer {
        let ready: CaptureRequest
        do {
            ready = try await context.prepare(request)
        } catch {
            context.stopped = error
            throw .connectionFailed(url: request.server.description, reason: "\(error)")
        }
        if context.options.dryRun {
            context.console.out(RequestPrinter.http(ready, showSecrets: context.options.showSecrets))
            context.stopped = AccountContext.DryRun()
            throw .connectionFailed(url: ready.server.description, reason: "a dry run: printed, not sent")
        }
        return try await context.transport.send(ready)
    }
}

/// The session file, whose save failures are printed (on standard error) rather than thrown:
/// the sign-in went through, and the command goes on.
struct ReportingSessionStore: SessionStore {
    let store: FileSessionStore
    let console: Console

    func load() throws(SessionStoreError) -> Session? { try store.load() }

    func save(_ session: Session) throws(SessionStoreError) {
        do { try store.save(session) } catch { console.err("\(error)\n") }
    }

    func clear() throws(SessionStoreError) { try store.clear() }
}

extension Console {
    /// No colour with --plain.
    init(plain: Bool) {
        self.init()
        if plain { self = Console(colorOut: false, colorErr: false) }
    }
}

extension AccountContext {
    /// Why the last request was not sent, once (see `stopped`).
    func takeStopped() -> (any Error)? {
        defer { stopped = nil }
        return stopped
    }
}
