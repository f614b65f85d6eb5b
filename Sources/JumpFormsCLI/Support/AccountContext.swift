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
/// embedded server when `captureDomain: embedded`), the builders, the transport, the session
/// store, and the prompts.
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

    var builder: RequestBuilder { setup.builder }
    var decoder: ResponseDecoder { setup.decoder }
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
        setup = try CaptureSetup(workspace: workspace, environment: environment, captureURL: nil, console: console)
        sessionStore = setup.sessionStore
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

    /// Sends a request (or prints it on a dry run: nil) and decodes the answer.
    func send(_ request: CaptureRequest, engageToken: String? = nil) async throws -> Result<CaptureSuccess, CaptureError>? {
        try await connect()
        if request.parameter("flow_version") != nil { try await resolveFlowVersion() }
        // Built before the embedded server had its address, or before the flow document's
        // version was known.
        let request = request.resolved(server: builder.capture, flowVersion: builder.flowVersion)
        if options.dryRun {
            console.out(RequestPrinter.http(request, showSecrets: options.showSecrets))
            return nil
        }
        let answer: HTTPAnswer
        do {
            answer = try await transport.send(request)
        } catch {
            console.err(escaping: "\(error)\n")
            throw ExitCode(2)
        }
        return decoder.decode(request.operation, status: answer.status, body: answer.body, engageToken: engageToken)
    }

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

    func saveSession(_ result: SignInResult, secret: RefreshSecret) throws {
        let session = Session(
            captureDomain: sessionDomain, clientId: config.captureClientId.value, accessToken: result.accessToken,
            refreshSecret: secret, expiresAt: result.expiresIn.map { RefreshSignature.now + $0 }, record: result.record)
        do { try sessionStore.save(session) } catch { console.err("\(error)\n") }
    }

    /// What a session is bound to: the Capture URL, or the embedded server's database.
    var sessionDomain: String {
        switch config.captureDomain.value {
        case .embedded:
            "embedded:" + LocalServer.databasePath(config, override: options.database, environment: environment)
        case .url(let url): url
        }
    }

    /// The signed-in session of this Capture server, or a message and exit 1.
    func requireSession() throws -> Session {
        let session: Session?
        do { session = try sessionStore.load() } catch {
            console.err("\(error)\n")
            throw ExitCode(1)
        }
        guard let session, session.captureDomain == sessionDomain else {
            say("jumpForms.cli.notSignedIn")
            throw ExitCode(1)
        }
        return session
    }

    /// Sends a request made with the session's access token; when the token has expired,
    /// refreshes it once and retries.
    func sendAuthorized(_ make: (String) -> CaptureRequest) async throws -> Result<CaptureSuccess, CaptureError>? {
        try await submit(FormValues(), nil, authorized: true) { _, accessToken in make(accessToken) }
    }

    /// Refreshes the session's token; nil (after printing why) when the server refuses.
    func refresh(_ session: inout Session) async throws -> Session? {
        let request = builder.refreshAccessToken(accessToken: session.accessToken, refreshSecret: session.refreshSecret)
        switch try await send(request) {
        case .success(.refreshed(let token, let expiresIn))?:
            session.accessToken = token
            session.expiresAt = expiresIn.map { RefreshSignature.now + $0 }
            do { try sessionStore.save(session) } catch { console.err("\(error)\n") }
            return session
        case .failure(let error)?:
            try fail(error)
        default:
            return nil
        }
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

extension Console {
    /// No colour with --plain.
    init(plain: Bool) {
        self.init()
        if plain { self = Console(colorOut: false, colorErr: false) }
    }
}
