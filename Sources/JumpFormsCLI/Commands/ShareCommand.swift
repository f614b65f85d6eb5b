import ArgumentParser
import JumpCapture
import JumpForms

/// `jump-forms share ACTIVITY --provider P`: renders one of the flow's activities in the
/// locale, with the person's own words, checks the provider's limit, signs in to the provider
/// through Engage when the session holds no device token for it, and posts it.
struct ShareCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "share",
        abstract: "Share one of the flow's activities on a provider through Engage.",
        discussion:
            """
            The activity's texts are rendered in the locale (--locale, else jump.yaml's captureLocale) with its arguments \
            (--set name=value); --set userContent=... gives the person's own words, which are asked for on a plain line when the \
            activity has `userContent: true` (not with --non-interactive). A text longer than the provider takes (Twitter: 280, \
            counted as Twitter does) is refused before anything is sent. Without a device token for the provider in the session, \
            the command signs in to it through Engage first (against the local server: a test identity, --identity). No Capture \
            sign-in is needed: as JUMP's own sharing, the Engage device sign-in alone gives the device token, which the session \
            file keeps (with or without a Capture session).
            """
    )

    @Argument(help: ArgumentHelp("The activity (a name under the flow's `activities`).", valueName: "activity"))
    var activity: String

    @Option(help: ArgumentHelp("The provider to post to (one of the flow's `sharing`).", valueName: "name"))
    var provider: String

    @Option(help: ArgumentHelp("The local test identity to sign in to the provider as (identifier or email).", valueName: "identity"))
    var identity: String?

    @OptionGroup var options: AccountOptions

    func validate() throws {
        if options.input.answers != nil { throw ValidationError("share takes its arguments as --set name=value, not --answers") }
    }

    func run() async throws {
        try await withAccount(options) { context in
            let flow = context.workspace.flow
            let sharing = try Self.sharingProvider(provider, of: flow)
            var arguments = try ActivityArguments(options.input.assignments)
            let userContent = arguments.values.removeValue(forKey: ActivityArguments.userContent)
            let renderer = ActivityRenderer(flow: flow, localizer: context.localizer)
            let name = context.friendlyName(sharing)
            var shared: SharedActivity
            do throws(ActivityRenderError) {
                // Rendered first: a wrong activity or argument stops before the question.
                shared = try renderer.render(activity, locale: context.locale, arguments: arguments.values, userContent: userContent)
                if userContent == nil, shared.userGeneratedContent != nil, context.interactive {
                    shared.userGeneratedContent = Self.askWords(context, provider: name)
                }
                try renderer.check(shared, for: provider, locale: context.locale)
            } catch {
                throw Self.refusal(error, console: context.console)
            }
            let client = context.client
            var deviceToken = try? await client.deviceToken(for: provider)
            if deviceToken == nil, !options.dryRun {
                try await signIn(context, sharing)
                deviceToken = try? await client.deviceToken(for: provider)
            }
            let token = deviceToken ?? "DEVICE_TOKEN"
            let provider = self.provider
            let result = try await context.call { () async throws(CaptureClientError) in
                try await client.share(shared, provider: provider, deviceToken: token)
            }
            switch result {
            case nil: return
            case .success?:
                context.say("jumpForms.share.posted", ["provider": .string(name)])
            case .failure(.engage(let error))?:
                if error.needsSignIn {
                    context.say("jumpForms.share.tokenExpired", ["provider": .string(name)])
                } else {
                    context.say("jumpForms.share.failed", ["provider": .string(name), "message": .string(TerminalText.escaped(error.description))])
                }
                throw ExitCode(1)
            case .failure(let error)?:
                try context.fail(error)
            }
        }
    }

    /// Signs in to the provider through Engage (its dialog, then the device sign-in that gives
    /// the device token), keeping the token in the session.
    func signIn(_ context: AccountContext, _ provider: ProviderDefinition) async throws {
        let grant = try await EngageTokenFetcher(context: context).token(for: provider, identity: identity)
        let client = context.client
        let id = provider.id.value
        let result = try await context.call { () async throws(CaptureClientError) in
            try await client.engageDeviceSignIn(engageToken: grant.token, provider: id)
        }
        switch result {
        case nil, .success?: return
        case .failure(.engage(let error))?:
            context.say(
                "jumpForms.share.failed",
                ["provider": .string(context.friendlyName(provider)), "message": .string(TerminalText.escaped(error.description))])
            throw ExitCode(1)
        case .failure(let error)?:
            try context.fail(error)
        }
    }

    /// The person's own words, on a plain line (empty: none).
    static func askWords(_ context: AccountContext, provider: String) -> String {
        let runner = context.runner
        context.terminal.show(runner.question(context.words("jumpForms.share.yourWords", ["provider": .string(provider)])))
        // No line (end of input): no words, as an empty line says.
        return context.terminal.readLine()?.trimmingSpaces() ?? ""
    }

    /// The flow's provider `name`, when `sharing` lists it.
    static func sharingProvider(_ name: String, of flow: Flow) throws -> ProviderDefinition {
        let names = flow.sharing.map(\.value)
        guard names.contains(name), let provider = flow.providers.first(where: { $0.id.value == name }) else {
            let hint = Suggestion.hint(for: name, among: names).map { " (\($0))" } ?? ""
            throw ValidationError(
                "the flow does not share with '\(name)'\(hint); its sharing providers: \(names.isEmpty ? "none" : names.joined(separator: ", "))")
        }
        return provider
    }

    /// A rendering failure: a provider's limit (its localized message, exit 1), or a usage
    /// error (an unknown activity, a missing or unknown argument, exit 2).
    static func refusal(_ error: ActivityRenderError, console: Console) -> any Error {
        if case .tooLong(_, _, _, let message) = error {
            console.err(escaping: message + "\n")
            return ExitCode(1)
        }
        return ValidationError(error.description)
    }
}

/// `--set name=value` of `share` and `request share`: the activity's arguments, and
/// `userContent`, the person's own words.
struct ActivityArguments {
    static let userContent = "userContent"

    var values: [String: String] = [:]

    init(_ assignments: [String]) throws {
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "=") else { throw ValidationError("--set takes name=value, got '\(assignment)'") }
            values[String(assignment[..<equals])] = String(assignment[assignment.index(after: equals)...])
        }
    }
}
