import ArgumentParser
import JumpCapture
import JumpForms

struct SignOutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "signout",
        abstract: "End the session at the server (POST /oauth/revoke), then forget it (access token, refresh secret, record).",
        discussion: """
            The server ends the session at once: its access token and refresh secret stop working. \
            When the server cannot be reached or does not end it (or the session belongs to another \
            server), the session is forgotten here all the same, a warning says why, and the exit \
            status is still 0: the access token then stays valid at the server until it expires. \
            With --dry-run, the revocation request is printed and the session kept.
            """
    )
    @OptionGroup var options: AccountOptions

    func run() async throws {
        try await withAccount(options) { context in
            // A dry run prints the revocation request and keeps the session.
            if context.options.dryRun, let session = try? context.sessionStore.load(), session.captureDomain == context.sessionDomain {
                context.console.out(RequestPrinter.http(context.builder.revokeToken(session.accessToken), showSecrets: context.options.showSecrets))
                return
            }
            let outcome: SignOutOutcome
            do { outcome = try await context.client.signOut() } catch {
                context.console.err(escaping: "\(error)\n")
                throw ExitCode(2)
            }
            if case .forgottenLocally(let problem) = outcome { SessionEnd.report(problem, context) }
            context.say("jumpForms.cli.signedOut")
        }
    }
}

/// Sessions the CLI ends at the server, and the new sign-in a privileged change asks for.
enum SessionEnd {
    /// Says why the server did not end the session (it is forgotten here all the same): an
    /// unreadable session file is an error printed as it is, the rest warnings.
    static func report(_ problem: SignOutProblem, _ context: AccountContext) {
        switch problem {
        case .unreadableSession(let error):
            context.console.err(escaping: "\(error)\n")
        case .transport:
            // The embedded server did not start, or no answer.
            warn(context, context.takeStopped().map { "\($0)" } ?? problem.description)
        case .otherServer, .refused:
            warn(context, problem.description)
        }
    }

    static func warn(_ context: AccountContext, _ reason: String) {
        context.say("jumpForms.cli.signedOutLocally", ["reason": .string(reason)])
    }

    /// Whether the server refused a change because the session's sign-in is not recent enough.
    static func needsRecentSignIn(_ error: CaptureError) -> Bool {
        error.serverError?.code == 403 && error.serverError?.error == "reauthentication_required"
    }

    /// Explains a refusal for want of a recent sign-in, and (on a terminal) offers to sign in
    /// again with a provider linked to the account; returns once signed in again, else exits 1.
    static func signInAgain(_ context: AccountContext, because error: CaptureError) async throws {
        context.console.err(context.words("jumpForms.cli.refused", ["message": .string(error.description)].escapedForTerminal) + "\n")
        let session = try await context.requireSession()
        let linked = session.record["profiles"]?.arrayValue?.compactMap { $0["domain"]?.stringValue } ?? []
        let provider = context.workspace.flow.providers.first { definition in
            linked.contains { $0 == definition.id.value || $0 == definition.id.value + ".com" }
        }
        let name = provider.map(context.friendlyName) ?? linked.first ?? "?"
        context.say(
            "jumpForms.cli.signInAgain",
            ["provider": .string(name), "command": .string(provider.map { "jump-forms signin --provider \($0.id.value)" } ?? "jump-forms signin")])
        guard let provider, context.confirm(context.words("jumpForms.cli.offerSignInAgain", ["provider": .string(name)].escapedForTerminal)) else {
            throw ExitCode(1)
        }
        let grant = try await EngageTokenFetcher(context: context).token(for: provider, identity: nil)
        let client = context.client
        switch try await context.call({ () async throws(CaptureClientError) in try await client.signIn(engageToken: grant.token) }) {
        case .success(let signedIn)?:
            context.say("jumpForms.cli.signedIn", ["email": .string(context.email(of: signedIn.record))])
        case .failure(let error)?: try context.fail(error)
        case nil: throw ExitCode(1)
        }
    }
}
