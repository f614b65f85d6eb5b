import ArgumentParser
import JumpCapture
import JumpForms

/// Runs an account command's body with its context, stopping the embedded server afterwards
/// (the context starts it on the first request).
func withAccount(_ options: AccountOptions, _ body: (AccountContext) async throws -> Void) async throws {
    let context = try AccountContext(options: options)
    do {
        try await body(context)
        await context.close()
    } catch {
        await context.close()
        throw error
    }
}

extension AccountContext {
    /// Sends a form through `send`, re-asking the fields the server refuses (390) when there
    /// is a terminal.
    func submit<Value>(
        _ values: FormValues, _ session: FormSession?,
        _ send: (FormValues) async throws(CaptureClientError) -> Value
    ) async throws -> Result<Value, CaptureError>? {
        var values = values
        var session = session
        while true {
            let sending = values
            let result = try await call { () async throws(CaptureClientError) -> Value in try await send(sending) }
            if case .failure(.invalidFields(let invalid))? = result, interactive, var current = session {
                // The server's messages show in the prompts: escaped (`TerminalText`).
                current.reject(invalid.fields.map(\.escapedForTerminal), formMessages: invalid.formMessages.map { TerminalText.escaped($0) })
                values = try prompt(&current)
                session = current
                continue
            }
            return result
        }
    }

    /// The email of a record, for messages.
    func email(of record: JSONValue) -> String {
        record["email"]?.stringValue ?? record["displayName"]?.stringValue ?? "?"
    }
}

struct RegisterCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "register", abstract: "Create an account with the registration form.")
    @OptionGroup var options: AccountOptions

    func run() async throws {
        try await withAccount(options) { context in
            let (values, session) = try context.fill(.register)
            let client = context.client
            let result = try await context.submit(values, session) { values async throws(CaptureClientError) in try await client.register(values) }
            switch result {
            case nil: return
            case .success(let signedIn)?:
                context.say("jumpForms.cli.registered", ["email": .string(context.email(of: signedIn.record))])
            case .failure(let error)?: try context.fail(error)
            }
        }
    }
}

struct SignInCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signin",
        abstract: "Sign in with the sign-in form, or with a provider (--provider).",
        discussion:
            """
            With --provider, against the local server the CLI walks the Engage double (choosing a test identity); against a remote server it prints \
            the provider's start URL and waits for the token on a loopback redirect.
            """
    )
    @OptionGroup var options: AccountOptions

    @Option(help: ArgumentHelp("Sign in with this provider (google, corp_openid ...).", valueName: "name"))
    var provider: String?

    @Option(help: ArgumentHelp("The local test identity to sign in as (identifier or email).", valueName: "identity"))
    var identity: String?

    func run() async throws {
        try await withAccount(options) { context in
            if let provider {
                try await socialSignIn(context, try context.provider(named: provider))
            } else {
                try await traditional(context, mergeToken: nil, newProvider: nil)
            }
        }
    }

    /// The sign-in form; on 210, offers to send a password-reset email. `email` (known from a
    /// merge) is offered as the answer to the form's email field.
    func traditional(_ context: AccountContext, mergeToken: String?, newProvider: String?, email: String? = nil) async throws {
        var known = FormValues()
        if let email, let field = try context.formModel(.signIn).fields.first(where: { $0.type == .email }) { known[field.name] = email }
        let (values, session) = try context.fill(.signIn, defaults: known)
        let client = context.client
        let result = try await context.submit(values, session) { values async throws(CaptureClientError) in
            try await client.signIn(values, mergeToken: mergeToken)
        }
        switch result {
        case nil: return
        case .success(let signedIn)?:
            if let newProvider { context.say("jumpForms.cli.merged", ["newProvider": .string(newProvider)]) }
            context.say("jumpForms.cli.signedIn", ["email": .string(context.email(of: signedIn.record))])
        case .failure(.badCredentials(let error))?:
            context.console.err(escaping: error.description + "\n")
            let form = try context.formModel(.signIn)
            if let field = form.fields.first(where: { $0.type == .email }), let email = values[field.name],
                context.confirm(context.words("jumpForms.cli.offerReset", ["email": .string(email)]))
            {
                try await ForgotPasswordCommand.send(context, email: email)
            }
            throw ExitCode(1)
        case .failure(let error)?: try context.fail(error)
        }
    }

    func socialSignIn(_ context: AccountContext, _ provider: ProviderDefinition, mergeToken: String? = nil, newProvider: String? = nil) async throws {
        let grant =
            options.dryRun
            ? EngageTokenFetcher.Grant(token: "ENGAGE_TOKEN", email: nil)
            : try await EngageTokenFetcher(context: context).token(for: provider, identity: identity)
        let token = grant.token
        let name = context.friendlyName(provider)
        let client = context.client
        switch try await context.call({ () async throws(CaptureClientError) in try await client.signIn(engageToken: token, mergeToken: mergeToken) })
        {
        case nil: return
        case .success(let signedIn)?:
            if let newProvider { context.say("jumpForms.cli.merged", ["newProvider": .string(newProvider)]) }
            if signedIn.isNew { context.say("jumpForms.cli.thinRegistration", ["provider": .string(name)]) }
            context.say("jumpForms.cli.signedIn", ["email": .string(context.email(of: signedIn.record))])
        case .failure(.registrationNeeded(let twoStep))?:
            // Two-step registration: the social registration form, prefilled, sent with the token.
            context.say("jumpForms.cli.twoStep")
            let (values, session) = try context.fill(.socialRegister, prefilled: twoStep.prefill)
            let registrationToken = twoStep.token ?? token
            let result = try await context.submit(values, session) { values async throws(CaptureClientError) in
                try await client.register(values, socialToken: registrationToken)
            }
            switch result {
            case .success(let signedIn)?:
                context.say("jumpForms.cli.registered", ["email": .string(context.email(of: signedIn.record))])
            case .failure(let error)?: try context.fail(error)
            case nil: throw ExitCode(1)
            }
        case .failure(.mergeRequired(let merge))?:
            // The email belongs to an account of another provider: sign in there, with the merge token.
            let mergeToken = merge.mergeToken ?? token
            if merge.existingProvider == "capture" {
                context.say("jumpForms.cli.mergeWithPassword", ["newProvider": .string(name)])
                try await traditional(context, mergeToken: mergeToken, newProvider: name, email: grant.email)
            } else {
                let existing = try context.provider(named: merge.existingProvider)
                context.say("jumpForms.cli.mergeRequired", ["provider": .string(context.friendlyName(existing)), "newProvider": .string(name)])
                var next = self
                next.identity = nil
                try await next.socialSignIn(context, existing, mergeToken: mergeToken, newProvider: name)
            }
        case .failure(let error)?: try context.fail(error)
        }
    }
}

struct ForgotPasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "forgot-password", abstract: "Send a password-reset email.")
    @OptionGroup var options: AccountOptions

    func run() async throws {
        try await withAccount(options) { context in
            let (values, _) = try context.fill(.forgotPassword)
            let form = try context.formModel(.forgotPassword)
            let field = try context.builder.identifyingField(of: form)
            try await Self.send(context, values: values, email: values[field.name] ?? "")
        }
    }

    static func send(_ context: AccountContext, email: String) async throws {
        let form = try context.formModel(.forgotPassword)
        let field = try context.builder.identifyingField(of: form)
        try await send(context, values: [field.name: email], email: email)
    }

    static func send(_ context: AccountContext, values: FormValues, email: String) async throws {
        let client = context.client
        switch try await context.call(reporting: .usage, { () async throws(CaptureClientError) in try await client.forgotPassword(values) }) {
        case .success?: context.say("jumpForms.cli.resetSent", ["email": .string(email)])
        case .failure(let error)?: try context.fail(error)
        case nil: return
        }
    }
}

struct ResendVerificationCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "resend-verification", abstract: "Send the email verification again.")
    @OptionGroup var options: AccountOptions

    func run() async throws {
        try await withAccount(options) { context in
            let (values, _) = try context.fill(.resendVerification)
            let field = try context.builder.identifyingField(of: try context.formModel(.resendVerification))
            let client = context.client
            switch try await context.call(reporting: .usage, { () async throws(CaptureClientError) in try await client.resendVerification(values) }) {
            case .success?: context.say("jumpForms.cli.verificationSent", ["email": .string(values[field.name] ?? "")])
            case .failure(let error)?: try context.fail(error)
            case nil: return
            }
        }
    }
}

struct EditProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "edit-profile", abstract: "Edit your profile with the edit-profile form.")
    @OptionGroup var options: AccountOptions

    func run() async throws {
        try await withAccount(options) { context in
            let session = try await context.requireSession()
            let form = try context.formModel(.updateProfile)
            // Every field is asked, its stored value offered: Enter keeps it, the clear word empties it.
            let (values, formSession) = try context.fill(.updateProfile, defaults: FormValues(record: session.record, form: form))
            let client = context.client
            let result = try await context.submit(values, formSession) { values async throws(CaptureClientError) in
                try await client.updateProfile(values)
            }
            switch result {
            case .success?:
                context.say("jumpForms.cli.profileSaved")
                try await WhoAmICommand.reload(context)
            case .failure(let error)?: try context.fail(error)
            case nil: return
            }
        }
    }
}

struct ChangePasswordCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "change-password", abstract: "Change your password with the change-password form.")
    @OptionGroup var options: AccountOptions

    func run() async throws {
        try await withAccount(options) { context in
            _ = try await context.requireSession()
            let (values, formSession) = try context.fill(.changePassword)
            let client = context.client
            var signedInAgain = false
            while true {
                let result = try await context.submit(values, formSession) { values async throws(CaptureClientError) in
                    try await client.changePassword(values)
                }
                switch result {
                case .success?: context.say("jumpForms.cli.passwordChanged")
                // A first password on a social-only account needs a recent sign-in (SignOutCommand.swift).
                case .failure(let error)? where !signedInAgain && SessionEnd.needsRecentSignIn(error):
                    try await SessionEnd.signInAgain(context, because: error)
                    signedInAgain = true
                    continue
                case .failure(let error)?: try context.fail(error)
                case nil: return
                }
                return
            }
        }
    }
}

struct RefreshCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "refresh", abstract: "Renew the access token with the refresh signature.")
    @OptionGroup var options: AccountOptions

    func run() async throws {
        try await withAccount(options) { context in
            _ = try await context.requireSession()
            let client = context.client
            switch try await context.call({ () async throws(CaptureClientError) in try await client.refresh() }) {
            case .success?: context.say("jumpForms.cli.refreshed")
            case .failure(let error)?: try context.fail(error)
            case nil: return
            }
        }
    }
}

struct LinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "link", abstract: "Link a provider's sign-in to your account.")
    @OptionGroup var options: AccountOptions

    @Option(help: ArgumentHelp("The provider to link.", valueName: "name"))
    var provider: String

    @Option(help: ArgumentHelp("The local test identity (identifier or email).", valueName: "identity"))
    var identity: String?

    func run() async throws {
        try await withAccount(options) { context in
            _ = try await context.requireSession()
            let definition = try context.provider(named: provider)
            let token =
                options.dryRun ? "ENGAGE_TOKEN" : try await EngageTokenFetcher(context: context).token(for: definition, identity: identity).token
            let client = context.client
            switch try await context.call({ () async throws(CaptureClientError) in try await client.link(engageToken: token) }) {
            case .success?:
                context.say("jumpForms.cli.linked", ["provider": .string(context.friendlyName(definition))])
                try await WhoAmICommand.reload(context)
            case .failure(let error)?: try context.fail(error)
            case nil: return
            }
        }
    }
}

struct UnlinkCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "unlink", abstract: "Remove a linked sign-in from your account.")
    @OptionGroup var options: AccountOptions

    @Argument(help: "The identifier of the linked sign-in to remove (default: choose from the linked ones).")
    var identifier: String?

    func run() async throws {
        try await withAccount(options) { context in
            let session = try await context.requireSession()
            var chosen = identifier
            if chosen == nil {
                let profiles = session.record["profiles"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue } ?? []
                guard !profiles.isEmpty else { throw ValidationError("no linked sign-in to remove") }
                let how = "give the one to remove as the argument: jump-forms unlink <identifier>"
                if !context.interactive { throw ValidationError("--non-interactive: \(how) (linked: \(profiles.joined(separator: ", ")))") }
                chosen = profiles[try context.choose(context.words("jumpForms.cli.unlinkChoice"), profiles, nonInteractive: how)]
            }
            let target = chosen ?? ""
            // The last linked sign-in: the account then signs in only with its password.
            let linked = session.record["profiles"]?.arrayValue?.compactMap { $0["identifier"]?.stringValue } ?? []
            if context.interactive, linked == [target],
                !context.confirm(context.words("jumpForms.cli.unlinkLast", ["identifier": .string(TerminalText.escaped(target))]))
            {
                context.say("jumpForms.cli.unlinkKept", ["identifier": .string(TerminalText.escaped(target))])
                throw ExitCode(1)
            }
            let client = context.client
            switch try await context.call({ () async throws(CaptureClientError) in try await client.unlink(identifier: target) }) {
            case .success?:
                context.say("jumpForms.cli.unlinked", ["identifier": .string(target)])
                try await WhoAmICommand.reload(context)
            case .failure(let error)?: try context.fail(error)
            case nil: return
            }
        }
    }
}

struct WhoAmICommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "whoami", abstract: "Show the signed-in user's record, read from the server.")
    @OptionGroup var options: AccountOptions

    @Option(help: "Output format: text or json.")
    var format: DataFormat = .text

    func run() async throws {
        try await withAccount(options) { context in
            let client = context.client
            switch try await context.call({ () async throws(CaptureClientError) in try await client.readRecord() }) {
            case .success(let record)?:
                // The client keeps the record in the session.
                switch format {
                case .json: context.console.out(record.serialized(pretty: true) + "\n")
                case .text: context.console.out(Self.text(record))
                }
            case .failure(let error)?: try context.fail(error)
            case nil: return
            }
        }
    }

    /// Reads the record again into the session (after changes); a refusal leaves the stored one.
    static func reload(_ context: AccountContext) async throws {
        let client = context.client
        _ = try await context.call { () async throws(CaptureClientError) in try await client.readRecord() }
    }

    /// `path: value` lines, nested objects and plurals indented.
    static func text(_ record: JSONValue, indent: String = "") -> String {
        var out = ""
        for (name, value) in record.objectValue ?? [] {
            // A record's names and texts are the server's: shown escaped (`TerminalText`).
            let key = TerminalText.escaped(name)
            switch value {
            case .object:
                out += "\(indent)\(key):\n" + text(value, indent: indent + "  ")
            case .array(let items):
                out += "\(indent)\(key):" + (items.isEmpty ? " []\n" : "\n")
                for item in items {
                    if case .object = item {
                        let nested = text(item, indent: indent + "    ")
                        out += "\(indent)  - " + nested.dropFirst(indent.count + 4)
                    } else {
                        out += "\(indent)  - \(scalar(item, continuation: indent + "    "))\n"
                    }
                }
            default:
                out += "\(indent)\(key): \(scalar(value, continuation: indent + "  "))\n"
            }
        }
        return out
    }

    /// A value on one line; the further lines of a multi-line text start with `continuation`.
    static func scalar(_ value: JSONValue, continuation: String) -> String {
        switch value {
        case .string(let text):
            text.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.escaped(String($0)) }
                .joined(separator: "\n" + continuation)
        case .null: "—"
        default: value.serialized()
        }
    }
}
