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
            let session: Session?
            do { session = try context.sessionStore.load() } catch {
                // An unreadable session file is forgotten all the same.
                context.console.err(escaping: "\(error)\n")
                session = nil
            }
            if let session {
                guard try await SessionEnd.revoke(session, context) else { return }
            }
            do { try context.sessionStore.clear() } catch {
                context.console.err(escaping: "\(error)\n")
                throw ExitCode(2)
            }
            context.say("jumpForms.cli.signedOut")
        }
    }
}

/// Sessions the CLI ends at the server, and the new sign-in a privileged change asks for.
enum SessionEnd {
    /// Asks the server to revoke the session's access token (and with it its refresh secret).
    /// False on a dry run (the request is printed; the session is kept). When the server cannot
    /// be reached, refuses, or is not the session's, says so: the caller forgets the session
    /// all the same.
    static func revoke(_ session: Session, _ context: AccountContext) async throws -> Bool {
        guard session.captureDomain == context.sessionDomain else {
            warn(context, "the session belongs to another server (\(session.captureDomain))")
            return true
        }
        if context.options.dryRun {
            _ = try await context.send(context.builder.revokeToken(session.accessToken))
            return false
        }
        do {
            try await context.connect()
        } catch {
            warn(context, "\(error)")
            return true
        }
        var request = context.builder.revokeToken(session.accessToken)
        request.server = context.builder.capture
        let answer: HTTPAnswer
        do {
            answer = try await context.transport.send(request)
        } catch {
            warn(context, error.description)
            return true
        }
        if case .failure(let error) = context.decoder.decode(.revokeToken, status: answer.status, body: answer.body) {
            warn(context, error.description)
        }
        return true
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
        let session = try context.requireSession()
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
        let secret = RefreshSecret.generate()
        switch try await context.send(context.builder.socialSignIn(token: grant.token, refreshSecret: secret), engageToken: grant.token) {
        case .success(.signedIn(let signedIn))?:
            try context.saveSession(signedIn, secret: secret)
            context.say("jumpForms.cli.signedIn", ["email": .string(context.email(of: signedIn.record))])
        case .failure(let error)?: try context.fail(error)
        default: throw ExitCode(1)
        }
    }
}
