import ArgumentParser
import AsyncHTTPClient
import Hummingbird
import JumpCapture
import JumpForms
import Logging
import NIOCore
import ServiceLifecycle

/// Gets an Engage token for a provider the way an app does: open the provider's start URL,
/// and catch the token on a loopback redirect. Against the local server the CLI walks the
/// Engage double itself (choosing a test identity); against a remote one it prints the start
/// URL for a browser and waits.
struct EngageTokenFetcher {
    let context: AccountContext

    /// The token of a sign-in, and the email of the identity when the CLI chose it (local).
    struct Grant {
        var token: String
        var email: String?
    }

    func token(for provider: ProviderDefinition, identity: String?) async throws -> Grant {
        try await context.connect()
        let listener = try await TokenListener.start()
        do {
            let grant = try await walk(provider, identity: identity, listener: listener)
            await listener.stop()
            return grant
        } catch {
            await listener.stop()
            throw error
        }
    }

    func walk(_ provider: ProviderDefinition, identity: String?, listener: TokenListener) async throws -> Grant {
        let engage: ServerURL
        if context.isLocal {
            engage = context.builder.capture
        } else {
            guard let url = ServerURL(context.config.engageDomain.value) else { throw ExitCode(2) }
            engage = url
        }
        let builder = EngageRequestBuilder(config: context.config, engage: engage)
        var start = try builder.startURL(
            for: provider, returnTo: .tokenURL(listener.url),
            installationID: Installation.identifier(context.environment)
        ).url
        var email: String?
        if context.isLocal {
            let chosen = try chooseIdentity(provider, wanted: identity)
            email = context.identities.first { $0.provider == provider.id.value && ($0.identifier == chosen || $0.email == chosen) }?.email
            start += "&identity=" + FormEncoding.encodeComponent(chosen)
            var request = HTTPClientRequest(url: start)
            request.method = .GET
            _ = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        } else {
            context.say("jumpForms.cli.openURL", ["provider": .string(context.friendlyName(provider))])
            context.console.out(start + "\n")
            context.say("jumpForms.cli.waiting")
        }
        guard let token = await listener.token(timeoutSeconds: context.isLocal ? 30 : 300) else {
            context.console.err(escaping: "no token arrived from \(context.friendlyName(provider))\n")
            throw ExitCode(1)
        }
        return Grant(token: token, email: email)
    }

    /// The test identity to sign in as: `--identity`, the provider's only one, or a choice.
    func chooseIdentity(_ provider: ProviderDefinition, wanted: String?) throws -> String {
        let candidates = context.identities.filter { $0.provider == provider.id.value }
        if let wanted { return wanted }
        guard !candidates.isEmpty else {
            context.console.err(escaping: "identities.yaml has no test identity for \(provider.id.value)\n")
            throw ExitCode(2)
        }
        let names = candidates.map { [$0.displayName, $0.email].compactMap { $0 }.joined(separator: " — ") }
        let index = try context.choose(
            context.words("jumpForms.cli.chooseIdentity", ["provider": .string(context.friendlyName(provider))]), names,
            nonInteractive: "pass --identity with one of their identifiers or emails")
        return candidates[index].identifier
    }
}

/// A one-route HTTP server on 127.0.0.1 that receives `?token=` from an Engage redirect.
final class TokenListener: Sendable {
    let url: String
    private let group: ServiceGroup
    private let task: Task<Void, any Error>
    private let tokens: AsyncStream<String>

    private init(url: String, group: ServiceGroup, task: Task<Void, any Error>, tokens: AsyncStream<String>) {
        self.url = url
        self.group = group
        self.task = task
        self.tokens = tokens
    }

    static func start() async throws -> TokenListener {
        let (tokens, tokenSink) = AsyncStream<String>.makeStream()
        let (ready, readySink) = AsyncStream<String>.makeStream()
        let router = Router()
        router.get("/") { request, _ -> Response in
            guard let token = request.uri.queryParameters.get("token") else {
                return Response(status: .badRequest, body: .init(byteBuffer: ByteBuffer(string: "No token in this address.\n")))
            }
            tokenSink.yield(token)
            var headers = HTTPFields()
            headers[.contentType] = "text/html; charset=utf-8"
            return Response(
                status: .ok, headers: headers,
                body: .init(
                    byteBuffer: ByteBuffer(
                        string:
                            """
                            <!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>jump-forms</title></head><body><p>Signed in. You can close \
                            this window and return to the terminal.</p></body></html>
                            """
                    )))
        }
        var logger = Logger(label: "jump-forms.token-listener")
        logger.logLevel = .error
        let application = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in
                readySink.yield("http://127.0.0.1:\(channel.localAddress?.port ?? 0)/")
                readySink.finish()
            }, logger: logger)
        let group = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger))
        let task = Task { try await group.run() }
        var iterator = ready.makeAsyncIterator()
        guard let url = await iterator.next() else { throw CancellationError() }
        return TokenListener(url: url, group: group, task: task, tokens: tokens)
    }

    /// The first token received, or nil after the timeout.
    func token(timeoutSeconds: Int) async -> String? {
        let tokens = self.tokens
        return await withTaskGroup(of: String?.self) { group in
            group.addTask {
                var iterator = tokens.makeAsyncIterator()
                return await iterator.next()
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(timeoutSeconds))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}
