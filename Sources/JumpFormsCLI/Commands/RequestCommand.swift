import ArgumentParser
import JumpCapture
import JumpForms
import JumpFormsLoader
import JumpSchema

/// `jump-forms request OPERATION`: prints exactly what would be sent, and sends nothing. Each
/// operation is a subcommand with the options it uses.
struct RequestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "request",
        abstract: "Print the exact Capture or Engage request an operation sends (nothing is sent).",
        // The operations in the usage line, so that a mistyped one is answered with the list.
        usage: "jump-forms request <operation> [<options>]\n  operations: \(CaptureOperation.allCases.map(\.rawValue).joined(separator: ", "))",
        discussion: """
            Form operations check the values with the form's rules first and print the localized \
            messages instead of a request when they fail (exit 1). Passwords, tokens, refresh \
            secrets and signatures are masked unless --show-secrets. \
            Against a remote Capture (captureDomain a URL, or --capture-url), the calls that send \
            flow_version send the version of the flow document they download first, as the SDKs \
            do (docs/client.md); --flow-version sends a given one and downloads nothing. \
            `jump-forms request OPERATION --help` lists an operation's options.
            """,
        subcommands: [
            SignIn.self, SocialSignIn.self, Register.self, SocialRegister.self, ForgotPassword.self, ResendVerification.self,
            UpdateProfile.self, ChangePassword.self, Refresh.self, Link.self, Unlink.self, ReadRecord.self, EntityUpdate.self,
            EntityReplace.self, EntityDelete.self, EngageConfig.self, EngageToken.self, TokenURL.self, Revoke.self, Share.self
        ]
    )

    /// The configuration of an operation's subcommand: its name and summary.
    static func configuration(_ operation: CaptureOperation, discussion: String = "") -> CommandConfiguration {
        let summary = operation.summary
        return CommandConfiguration(
            commandName: operation.rawValue,
            abstract: summary.prefix(1).uppercased() + summary.dropFirst() + ".", discussion: discussion)
    }
}

/// How every `request` operation prints, and where it sends: the project, the format, secrets
/// shown or not, and the Capture URL.
struct RequestOptions: ParsableArguments {
    @OptionGroup var project: ProjectOptions

    @Option(help: "Output format: http, curl or json.")
    var format: RequestPreview.Format = .http

    @Flag(help: "Print secrets in clear text.")
    var showSecrets = false

    @Option(help: ArgumentHelp("Send to this Capture URL instead of jump.yaml's captureDomain.", valueName: "url"))
    var captureURL: String?

    func validate() throws {
        if let captureURL, ServerURL(captureURL) == nil { throw ValidationError("--capture-url must be an http(s) URL, got '\(captureURL)'") }
    }
}

/// The options of the operations that send a form's values: the values, and the day the rules
/// count from.
struct FormValueOptions: ParsableArguments {
    @OptionGroup var input: ValueOptions

    @Option(help: ArgumentHelp("The date rules count from (default: today).", valueName: "yyyy-MM-dd"))
    var today: String?

    func validate() throws {
        if let today, CivilDate(iso: today) == nil { throw ValidationError("--today takes yyyy-MM-dd, got '\(today)'") }
    }
}

/// `--flow-version`, for the operations whose request carries `flow_version`.
struct FlowVersionOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The flow_version to send, instead of the version of the flow document downloaded from a remote Capture's flow domain.",
            valueName: "version"))
    var flowVersion: String?

    func validate() throws {
        if let flowVersion, flowVersion.isEmpty { throw ValidationError("--flow-version takes a version, got an empty one") }
    }
}

/// `--refresh-secret`.
struct RefreshSecretOption: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The refresh secret to sign with or send (40 hexadecimal characters; default: the session's for refresh, a new one otherwise).",
            valueName: "hex"))
    var refreshSecret: String?

    func validate() throws {
        if let refreshSecret, RefreshSecret(refreshSecret) == nil {
            // Never echo the value: it is a secret, even when malformed.
            throw ValidationError("--refresh-secret takes 40 hexadecimal characters (got \(refreshSecret.count) characters)")
        }
    }
}

/// `--access-token`, for the operations of a signed-in user.
struct AccessTokenOption: ParsableArguments {
    @Option(help: ArgumentHelp("The access token (default: the signed-in session's).", valueName: "token"))
    var accessToken: String?
}

/// `--edited`, `--record`, `--schema` or `--value`: what entity-update and entity-replace send.
struct RecordEditOptions: ParsableArguments {
    @Option(help: ArgumentHelp("The new value as JSON.", valueName: "json"))
    var value: String?

    @Option(help: ArgumentHelp("The record after local edits, a JSON file: print every call the change needs.", valueName: "file"))
    var edited: String?

    @Option(help: ArgumentHelp("The stored record the edits start from, a JSON file (default: the signed-in session's record).", valueName: "file"))
    var record: String?

    @Option(
        help: ArgumentHelp(
            "The Capture entity-type schema (JSON), with --edited: decides which attributes are objects, plurals, json values and read-only.",
            valueName: "file"))
    var schema: String?

    func validate() throws {
        if edited != nil, value != nil { throw ValidationError("give --value or --edited, not both") }
        if edited == nil, record != nil || schema != nil { throw ValidationError("--record and --schema go with --edited") }
    }
}

extension RequestCommand {
    static let recordEditDiscussion = """
        Sends --value as given, or, with --edited, every call that turns the stored record \
        (--record, default the session's) into the edited one: objects updated, plurals replaced, \
        what the server sets never sent, the schema (--schema) deciding what each attribute is \
        (docs/schema.md).
        """

    struct SignIn: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.signIn)
        @OptionGroup var options: RequestOptions
        @OptionGroup var form: FormValueOptions
        @OptionGroup var flow: FlowVersionOption
        @OptionGroup var secret: RefreshSecretOption
        @Option(help: ArgumentHelp("The merge token of a merge flow.", valueName: "token"))
        var mergeToken: String?

        func run() async throws {
            try await RequestPreview(
                operation: .signIn, options: options, form: form, flowVersion: flow.flowVersion,
                refreshSecret: secret.refreshSecret, mergeToken: mergeToken
            ).printRequest()
        }
    }

    struct SocialSignIn: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.socialSignIn)
        @OptionGroup var options: RequestOptions
        @OptionGroup var flow: FlowVersionOption
        @OptionGroup var secret: RefreshSecretOption
        @Option(help: ArgumentHelp("The Engage token.", valueName: "token"))
        var token: String?
        @Option(help: ArgumentHelp("The merge token of a merge flow.", valueName: "token"))
        var mergeToken: String?

        func run() async throws {
            try await RequestPreview(
                operation: .socialSignIn, options: options, flowVersion: flow.flowVersion,
                refreshSecret: secret.refreshSecret, token: token, mergeToken: mergeToken
            ).printRequest()
        }
    }

    struct Register: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.register)
        @OptionGroup var options: RequestOptions
        @OptionGroup var form: FormValueOptions
        @OptionGroup var flow: FlowVersionOption
        @OptionGroup var secret: RefreshSecretOption

        func run() async throws {
            try await RequestPreview(
                operation: .register, options: options, form: form, flowVersion: flow.flowVersion,
                refreshSecret: secret.refreshSecret
            ).printRequest()
        }
    }

    struct SocialRegister: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.socialRegister)
        @OptionGroup var options: RequestOptions
        @OptionGroup var form: FormValueOptions
        @OptionGroup var flow: FlowVersionOption
        @OptionGroup var secret: RefreshSecretOption
        @Option(help: ArgumentHelp("The Engage token.", valueName: "token"))
        var token: String?

        func run() async throws {
            try await RequestPreview(
                operation: .socialRegister, options: options, form: form, flowVersion: flow.flowVersion,
                refreshSecret: secret.refreshSecret, token: token
            ).printRequest()
        }
    }

    struct ForgotPassword: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.forgotPassword)
        @OptionGroup var options: RequestOptions
        @OptionGroup var form: FormValueOptions
        @OptionGroup var flow: FlowVersionOption

        func run() async throws {
            try await RequestPreview(operation: .forgotPassword, options: options, form: form, flowVersion: flow.flowVersion).printRequest()
        }
    }

    struct ResendVerification: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.resendVerification)
        @OptionGroup var options: RequestOptions
        @OptionGroup var form: FormValueOptions
        @OptionGroup var flow: FlowVersionOption

        func run() async throws {
            try await RequestPreview(operation: .resendVerification, options: options, form: form, flowVersion: flow.flowVersion).printRequest()
        }
    }

    struct UpdateProfile: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.updateProfile)
        @OptionGroup var options: RequestOptions
        @OptionGroup var form: FormValueOptions
        @OptionGroup var flow: FlowVersionOption
        @OptionGroup var access: AccessTokenOption

        func run() async throws {
            try await RequestPreview(
                operation: .updateProfile, options: options, form: form, flowVersion: flow.flowVersion,
                accessToken: access.accessToken
            ).printRequest()
        }
    }

    struct ChangePassword: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.changePassword)
        @OptionGroup var options: RequestOptions
        @OptionGroup var form: FormValueOptions
        @OptionGroup var flow: FlowVersionOption
        @OptionGroup var access: AccessTokenOption

        func run() async throws {
            try await RequestPreview(
                operation: .changePassword, options: options, form: form, flowVersion: flow.flowVersion,
                accessToken: access.accessToken
            ).printRequest()
        }
    }

    struct Refresh: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.refreshAccessToken)
        @OptionGroup var options: RequestOptions
        @OptionGroup var flow: FlowVersionOption
        @OptionGroup var access: AccessTokenOption
        @OptionGroup var secret: RefreshSecretOption

        func run() async throws {
            try await RequestPreview(
                operation: .refreshAccessToken, options: options, flowVersion: flow.flowVersion,
                refreshSecret: secret.refreshSecret, accessToken: access.accessToken
            ).printRequest()
        }
    }

    struct Link: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.linkAccount)
        @OptionGroup var options: RequestOptions
        @OptionGroup var flow: FlowVersionOption
        @OptionGroup var access: AccessTokenOption
        @Option(help: ArgumentHelp("The Engage token of the identity to add.", valueName: "token"))
        var token: String?

        func run() async throws {
            try await RequestPreview(
                operation: .linkAccount, options: options, flowVersion: flow.flowVersion,
                accessToken: access.accessToken, token: token
            ).printRequest()
        }
    }

    struct Unlink: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.unlinkAccount)
        @OptionGroup var options: RequestOptions
        @OptionGroup var flow: FlowVersionOption
        @OptionGroup var access: AccessTokenOption
        @Option(help: ArgumentHelp("The identity to remove.", valueName: "identifier"))
        var identifier: String?

        func run() async throws {
            try await RequestPreview(
                operation: .unlinkAccount, options: options, flowVersion: flow.flowVersion,
                accessToken: access.accessToken, identifier: identifier
            ).printRequest()
        }
    }

    struct ReadRecord: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.readRecord)
        @OptionGroup var options: RequestOptions
        @OptionGroup var access: AccessTokenOption
        @Option(help: ArgumentHelp("The record attribute to read, e.g. /primaryAddress (default: the whole record).", valueName: "path"))
        var attribute: String?

        func run() async throws {
            try await RequestPreview(operation: .readRecord, options: options, accessToken: access.accessToken, attribute: attribute).printRequest()
        }
    }

    struct EntityUpdate: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.updateObject, discussion: RequestCommand.recordEditDiscussion)
        @OptionGroup var options: RequestOptions
        @OptionGroup var access: AccessTokenOption
        @Option(help: ArgumentHelp("The record attribute, e.g. /primaryAddress (default: the record).", valueName: "path"))
        var attribute: String?
        @OptionGroup var edit: RecordEditOptions

        func run() async throws {
            try await RequestPreview(
                operation: .updateObject, options: options, accessToken: access.accessToken, attribute: attribute,
                edit: edit
            ).printRequest()
        }
    }

    struct EntityReplace: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.replacePlural, discussion: RequestCommand.recordEditDiscussion)
        @OptionGroup var options: RequestOptions
        @OptionGroup var access: AccessTokenOption
        @Option(help: ArgumentHelp("The plural to replace, e.g. /photos.", valueName: "path"))
        var attribute: String?
        @OptionGroup var edit: RecordEditOptions

        func run() async throws {
            try await RequestPreview(
                operation: .replacePlural, options: options, accessToken: access.accessToken, attribute: attribute,
                edit: edit
            ).printRequest()
        }
    }

    struct EntityDelete: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.deleteAttribute)
        @OptionGroup var options: RequestOptions
        @OptionGroup var access: AccessTokenOption
        @Option(help: ArgumentHelp("The plural element or attribute to delete, e.g. /photos#3.", valueName: "path"))
        var attribute: String?

        func run() async throws {
            try await RequestPreview(operation: .deleteAttribute, options: options, accessToken: access.accessToken, attribute: attribute)
                .printRequest()
        }
    }

    struct EngageConfig: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.engageMobileConfig)
        @OptionGroup var options: RequestOptions

        func run() async throws {
            try await RequestPreview(operation: .engageMobileConfig, options: options).printRequest()
        }
    }

    struct EngageToken: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.engageTokenExchange)
        @OptionGroup var options: RequestOptions
        @Option(help: ArgumentHelp("The provider.", valueName: "name"))
        var provider: String?
        @Option(help: ArgumentHelp("The provider's token.", valueName: "token"))
        var token: String?
        @Option(help: ArgumentHelp("Twitter's token secret.", valueName: "secret"))
        var tokenSecret: String?

        func run() async throws {
            try await RequestPreview(
                operation: .engageTokenExchange, options: options, token: token, provider: provider,
                tokenSecret: tokenSecret
            ).printRequest()
        }
    }

    struct Share: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(
            .shareActivity,
            discussion: """
                Renders the flow's activity in the locale (--locale) with its arguments and the person's words \
                (--set name=value, --set userContent=...), checks the provider's limit, and prints the request: \
                /api/v2/activity, or /api/v2/set_status for a provider that takes an activity without a URL as a status. \
                The device token is --device-token, else the session's for the provider.
                """)
        @OptionGroup var options: RequestOptions
        @Argument(help: ArgumentHelp("The activity (a name under the flow's `activities`).", valueName: "activity"))
        var activity: String
        @Option(help: ArgumentHelp("The provider to post to (one of the flow's `sharing`).", valueName: "name"))
        var provider: String
        @Option(
            name: .customLong("set"),
            help: ArgumentHelp("An argument of the activity, or userContent (repeatable).", valueName: "name=value"))
        var assignments: [String] = []
        @Option(help: ArgumentHelp("The provider's device token (default: the session's).", valueName: "token"))
        var deviceToken: String?

        func run() async throws {
            try await RequestPreview(
                operation: .shareActivity, options: options, token: deviceToken, provider: provider,
                activity: ActivityChoice(name: activity, assignments: assignments)
            ).printRequest()
        }
    }

    struct TokenURL: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.tokenURLPost)
        @OptionGroup var options: RequestOptions
        @Option(help: ArgumentHelp("The app's token URL.", valueName: "url"))
        var tokenURL: String?
        @Option(help: ArgumentHelp("The Engage token to post.", valueName: "token"))
        var token: String?
        @Option(
            name: .customLong("token-in"),
            help: ArgumentHelp(
                """
                Where the token goes: body (token=... as the form body, as Android sends it; the default) or query (appended to the URL with an \
                empty body, as iOS sends it).
                """,
                valueName: "body|query"))
        var tokenPlacement: TokenPlacement = .body

        func validate() throws {
            if let tokenURL, ServerURL(tokenURL) == nil { throw ValidationError("--token-url must be an http(s) URL, got '\(tokenURL)'") }
        }

        func run() async throws {
            try await RequestPreview(
                operation: .tokenURLPost, options: options, token: token, tokenURL: tokenURL,
                tokenPlacement: tokenPlacement
            ).printRequest()
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = RequestCommand.configuration(.revokeToken)
        @OptionGroup var options: RequestOptions
        @OptionGroup var access: AccessTokenOption
        @Option(help: ArgumentHelp("The token to revoke, any token, sent without a hint (default: the access token).", valueName: "token"))
        var token: String?

        func run() async throws {
            try await RequestPreview(operation: .revokeToken, options: options, accessToken: access.accessToken, token: token).printRequest()
        }
    }
}

/// One `request` operation with what its subcommand was given (nil for what it does not take),
/// and the request, or requests, it prints.
struct RequestPreview {
    enum Format: String, ExpressibleByArgument, CaseIterable { case http, curl, json }

    var operation: CaptureOperation
    var options: RequestOptions
    var form: FormValueOptions?
    var flowVersion: String?
    var refreshSecret: String?
    var accessToken: String?
    var token: String?
    var mergeToken: String?
    var identifier: String?
    var attribute: String?
    var edit: RecordEditOptions?
    var provider: String?
    var tokenSecret: String?
    var tokenURL: String?
    var tokenPlacement: TokenPlacement = .body
    var activity: ActivityChoice?

    var project: ProjectOptions { options.project }
    var format: Format { options.format }
    var showSecrets: Bool { options.showSecrets }
    var captureURL: String? { options.captureURL }
    var today: String? { form?.today }
    var value: String? { edit?.value }
    var edited: String? { edit?.edited }
    var record: String? { edit?.record }
    var schema: String? { edit?.schema }

    /// The operations whose request carries `flow_version`.
    static let sendsFlowVersion: Set<CaptureOperation> = [
        .signIn, .socialSignIn, .register, .socialRegister, .forgotPassword, .resendVerification, .updateProfile, .changePassword,
        .refreshAccessToken, .linkAccount, .unlinkAccount
    ]

    /// Loads the project, builds the request and prints it (or the rules' messages, exit 1).
    func printRequest() async throws {
        let console = Console()
        let environment = Environment.current
        let workspace = try project.load(console: console)
        var client = try CaptureSetup(workspace: workspace, captureURL: captureURL)
        if let flowVersion {
            client = client.with(flowVersion: flowVersion)
        } else if Self.sendsFlowVersion.contains(operation) {
            client = try await client.withDownloadedFlowVersion(console: console, hint: " (or pass --flow-version VERSION)")
        }
        let day = today.flatMap(CivilDate.init(iso:)) ?? .today
        let builder = client.builder
        func required(_ value: String?, _ option: String) throws -> String {
            guard let value else { throw ValidationError("\(operation.rawValue) needs \(option)") }
            return value
        }
        let sessionStore = FileSessionStore(config: client.config, environment: environment)
        func session() -> Session? { try? sessionStore.load() }
        let givenSecret = refreshSecret.flatMap(RefreshSecret.init)
        func secret() -> RefreshSecret { givenSecret ?? .generate() }
        func accessTokenValue() throws -> String {
            if let accessToken { return accessToken }
            if let session = session() { return session.accessToken }
            throw ValidationError("\(operation.rawValue) needs an access token: sign in first, or pass --access-token")
        }
        func formValues() throws -> FormValues {
            // Only the form operations' subcommands take values.
            guard let input = form?.input else { throw ValidationError("\(operation.rawValue) takes no form values") }
            return try input.values(for: try builder.form(for: operation), localizer: workspace.localizer, environment: environment, console: console)
        }
        func jsonValue() throws -> JSONValue {
            let text = try required(value, "--value JSON")
            do { return try JSONValue.parse(text) } catch { throw ValidationError("--value is not JSON: \(error)") }
        }

        let request: CaptureRequest
        do {
            switch operation {
            case .signIn:
                request = try builder.signIn(try formValues(), refreshSecret: secret(), mergeToken: mergeToken, today: day)
            case .socialSignIn:
                request = builder.socialSignIn(token: try required(token, "--token"), refreshSecret: secret(), mergeToken: mergeToken)
            case .register:
                request = try builder.register(try formValues(), refreshSecret: secret(), today: day)
            case .socialRegister:
                request = try builder.socialRegister(try formValues(), token: try required(token, "--token"), refreshSecret: secret(), today: day)
            case .forgotPassword:
                request = try builder.forgotPassword(try formValues(), today: day)
            case .resendVerification:
                request = try builder.resendVerification(try formValues(), today: day)
            case .updateProfile:
                request = try builder.updateProfile(try formValues(), accessToken: try accessTokenValue(), today: day)
            case .changePassword:
                request = try builder.changePassword(try formValues(), accessToken: try accessTokenValue(), today: day)
            case .refreshAccessToken:
                guard let secret = givenSecret ?? session()?.refreshSecret else {
                    throw ValidationError("refresh needs a refresh secret: sign in first, or pass --refresh-secret HEX")
                }
                request = builder.refreshAccessToken(accessToken: try accessTokenValue(), refreshSecret: secret)
            case .linkAccount:
                request = builder.linkAccount(accessToken: try accessTokenValue(), token: try required(token, "--token"))
            case .unlinkAccount:
                request = builder.unlinkAccount(accessToken: try accessTokenValue(), identifier: try required(identifier, "--identifier"))
            case .readRecord:
                request = builder.readRecord(accessToken: try accessTokenValue(), attribute: attribute)
            case .updateObject where edited != nil, .replacePlural where edited != nil:
                let requests = try recordChangeRequests(builder: builder, accessToken: try accessTokenValue(), session: session, console: console)
                show(requests, console: console)
                return
            case .updateObject:
                request = builder.updateObject(accessToken: try accessTokenValue(), attribute: attribute, value: try jsonValue())
            case .replacePlural:
                request = builder.replacePlural(
                    accessToken: try accessTokenValue(), attribute: try required(attribute, "--attribute"), value: try jsonValue())
            case .deleteAttribute:
                request = builder.deleteAttribute(accessToken: try accessTokenValue(), attribute: try required(attribute, "--attribute"))
            case .engageMobileConfig:
                request = client.engageBuilder.mobileConfiguration()
            case .engageTokenExchange:
                request = client.engageBuilder.nativeTokenExchange(
                    provider: try required(provider, "--provider"),
                    token: try required(token, "--token"), tokenSecret: tokenSecret)
            case .tokenURLPost:
                let url = try required(tokenURL, "--token-url")
                guard let server = ServerURL(url) else { throw ValidationError("--token-url must be an http(s) URL") }
                // The URL's query stays; the token follows it (query) or goes in the body.
                let query = url.firstIndex(of: "?").map { String(url[$0...].prefix { $0 != "#" }) } ?? ""
                request = client.engageBuilder.tokenURLPost(
                    tokenURL: server, path: query, token: try required(token, "--token"),
                    placement: tokenPlacement)
            case .revokeToken:
                // --token: any token (an access token or a refresh token), sent without a hint;
                // else the access token (--access-token, or the session's).
                if let token {
                    request = builder.revokeToken(token, hint: nil)
                } else {
                    request = builder.revokeToken(try accessTokenValue())
                }
            case .shareActivity:
                guard let choice = activity else { throw ValidationError("share needs an activity") }
                let provider = try required(self.provider, "--provider")
                _ = try ShareCommand.sharingProvider(provider, of: workspace.flow)
                var arguments = try ActivityArguments(choice.assignments)
                let words = arguments.values.removeValue(forKey: ActivityArguments.userContent)
                let renderer = ActivityRenderer(flow: workspace.flow, localizer: workspace.localizer)
                let shared: SharedActivity
                do throws(ActivityRenderError) {
                    shared = try renderer.render(choice.name, locale: workspace.locale, arguments: arguments.values, userContent: words)
                    try renderer.check(shared, for: provider, locale: workspace.locale)
                } catch {
                    throw ShareCommand.refusal(error, console: console)
                }
                guard let deviceToken = token ?? session()?.deviceTokens[provider] else {
                    throw ValidationError(
                        "share needs a device token for \(provider): share once with `jump-forms share` (it signs in to \(provider)), or pass --device-token"
                    )
                }
                request = client.engageBuilder.sharing(shared, provider: provider, deviceToken: deviceToken)
            case .setStatus, .shortenURLs, .engageDeviceSignIn:
                // No subcommand reaches these: Engage sharing's requests come with `request share`,
                // which renders the flow's activity first.
                throw ValidationError("\(operation.rawValue) has no request command of its own: use `jump-forms request share`")
            }
        } catch let error as RequestError {
            if case .invalidValues(let failure) = error {
                var out = ""
                for entry in failure.messages {
                    for message in entry.messages { out += "\(entry.field): \(message)\n" }
                }
                console.err(out + "nothing to send: the values do not pass the rules of \(failure.form)\n")
                throw ExitCode(1)
            }
            throw workspace.refusal(error, console: console)
        }
        switch format {
        case .http: console.out(RequestPrinter.http(request, showSecrets: showSecrets))
        case .curl: console.out(RequestPrinter.curl(request, showSecrets: showSecrets))
        case .json: console.out(RequestPrinter.json(request, showSecrets: showSecrets).serialized(pretty: true) + "\n")
        }
    }

    /// Several requests: HTTP and curl texts one after the other, JSON as a list.
    func show(_ requests: [CaptureRequest], console: Console) {
        switch format {
        case .http: console.out(requests.map { RequestPrinter.http($0, showSecrets: showSecrets) }.joined(separator: "\n"))
        case .curl: console.out(requests.map { RequestPrinter.curl($0, showSecrets: showSecrets) }.joined(separator: "\n"))
        case .json: console.out(JSONValue.array(requests.map { RequestPrinter.json($0, showSecrets: showSecrets) }).serialized(pretty: true) + "\n")
        }
    }

    /// `--edited`: the calls that turn the stored record into the edited one
    /// (`RecordChanges`, with the schema's attribute kinds when `--schema` is given).
    func recordChangeRequests(builder: RequestBuilder, accessToken: String, session: () -> Session?, console: Console) throws -> [CaptureRequest] {
        let before: JSONValue
        if let record {
            before = try Self.readJSON(record, option: "--record")
        } else if let stored = session()?.record {
            before = stored
        } else {
            throw ValidationError("--edited needs the stored record: sign in first, or pass --record FILE")
        }
        let after = try Self.readJSON(edited ?? "", option: "--edited")
        var kind: (String) -> AttributeKind? = { _ in nil }
        if let schema {
            let loaded = SchemaLoader.schema(path: schema, directory: WorkingDirectory.override)
            if !loaded.diagnostics.isEmpty {
                console.err(DiagnosticRenderer(sources: loaded.sources, useColor: console.colorErr).render(loaded.diagnostics))
            }
            guard let entity = loaded.value else {
                console.err("cannot continue: the schema above has errors\n")
                throw ExitCode(2)
            }
            kind = entity.attributeKind(path:)
        }
        let changes = RecordChanges.changes(from: before, to: after, kind: kind)
        if changes.isEmpty { console.err("no changes: the edited record holds what the stored one does\n") }
        return changes.map { change in
            switch change {
            case let .update(attribute, value): builder.updateObject(accessToken: accessToken, attribute: attribute, value: value)
            case let .replace(attribute, value): builder.replacePlural(accessToken: accessToken, attribute: attribute, value: value)
            }
        }
    }

    /// A JSON file, or a usage error naming the option and the place of a syntax error.
    static func readJSON(_ path: String, option: String) throws -> JSONValue {
        guard let bytes = LocaleFileIO.read(path) else { throw ValidationError("\(option) \(path): cannot read the file") }
        do {
            return try JSONValue.parse(bytes)
        } catch {
            throw ValidationError("\(path):\(error.line):\(error.column): \(option) is not valid JSON: \(error.message)")
        }
    }
}

extension TokenPlacement: ExpressibleByArgument {}

/// The activity `request share` renders: its name and `--set` values.
struct ActivityChoice {
    var name: String
    var assignments: [String]
}
