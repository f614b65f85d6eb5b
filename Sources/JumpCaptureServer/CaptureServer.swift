import HTTPTypes
import Hummingbird
import JumpCapture
import JumpForms
import Logging
import NIOCore
import ServiceLifecycle
import Synchronization

/// A Capture-compatible server (with an Engage double) on Hummingbird 2, enforcing the flow
/// with the same rule engine the client runs.
///
/// Every answer is Capture-style JSON, errors included: unknown paths (404), wrong methods
/// (405, with `Allow`), a query string and body over `maximumRequestSize` (413, default 64 KiB),
/// requests the HTTP parser refuses (400, or 431 for a request line or headers over 80 KiB),
/// malformed bodies, unknown or repeated parameters, and any internal failure (500, without
/// internals; the cause is logged).
public final class CaptureServer: Sendable {
    let service: CaptureService
    let logger: Logger

    public init(setup: CaptureServerSetup, logger: Logger = Logger(label: "jump-forms.server")) throws {
        self.logger = logger
        self.service = try CaptureService(setup: setup, logger: logger)
    }

    /// The Hummingbird application listening on `host:port` (0 picks a free port).
    /// `onStart` receives the bound URL.
    public func application(host: String, port: Int, onStart: @escaping @Sendable (String) async -> Void = { _ in })
        -> some ApplicationProtocol {
        let router = Router(context: BasicRequestContext.self)
        router.add(middleware: CaptureDispatcher(service: service, logger: logger))
        let service = service
        return Application(
            router: router,
            server: .http1(configuration: .init(additionalChannelHandlers: [MalformedRequestHandler()],
                                                httpDecoderConfiguration: MalformedRequestHandler.decoderLimits)),
            configuration: .init(address: .hostname(host, port: port), serverName: "jump-forms"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                let shownHost = host.contains(":") ? "[\(host)]" : host
                let url = "http://\(shownHost):\(bound)"
                service.baseURL.withLock { $0 = url }
                await onStart(url)
            },
            logger: logger
        )
    }

    /// The messages of the outbox, oldest first.
    public func outbox() async throws -> [OutboxMessage] {
        try await service.store.outbox()
    }

    /// How many accounts the database holds.
    public func accountCount() async throws -> Int {
        try await service.store.userCount()
    }
}

/// Reads the outbox of a server's database without starting the server.
public enum Outbox {
    public static func messages(databasePath: String) async throws -> [OutboxMessage] {
        try await CaptureStore(path: databasePath).outbox()
    }
}

/// A server started in-process on an ephemeral loopback port, for the CLI's
/// `captureDomain: embedded` and for tests. `stop()` shuts it down gracefully.
public final class EmbeddedCaptureServer: Sendable {
    public let url: String
    public let server: CaptureServer
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    private init(url: String, server: CaptureServer, group: ServiceGroup, task: Task<Void, any Error>) {
        self.url = url
        self.server = server
        self.group = group
        self.task = task
    }

    /// Starts the server and returns once it accepts connections.
    public static func start(_ setup: CaptureServerSetup, host: String = "127.0.0.1", logger: Logger = Logger(label: "jump-forms.embedded")) async throws -> EmbeddedCaptureServer {
        let server = try CaptureServer(setup: setup, logger: logger)
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let application = server.application(host: host, port: 0) { url in
            continuation.yield(url)
            continuation.finish()
        }
        let group = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger))
        let task = Task { try await group.run() }
        var iterator = stream.makeAsyncIterator()
        guard let url = await iterator.next() else {
            task.cancel()
            _ = try await task.value
            throw CancellationError()
        }
        return EmbeddedCaptureServer(url: url, server: server, group: group, task: task)
    }

    /// Stops accepting connections, finishes the ones in flight, and returns.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}

/// Routes every request itself: the operations are data (`CaptureOperation.path`), so one
/// table serves Capture, the Engage double, the email links and the health route.
struct CaptureDispatcher: RouterMiddleware {
    typealias Context = BasicRequestContext
    let service: CaptureService
    let logger: Logger

    enum Route {
        case capture(CaptureOperation)
        case engageConfiguration, engageStart, engageToken, authInfo, signInComplete, verifyEmail, resetPassword, health
    }

    static let captureRoutes: [String: CaptureOperation] = Dictionary(
        CaptureOperation.allCases.filter { !$0.isEngage }.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })

    static func route(_ path: String) -> (Route, [HTTPRequest.Method])? {
        if let operation = captureRoutes[path] {
            return (.capture(operation == .changePassword ? .updateProfile : operation), operation == .readRecord ? [.post, .get] : [.post])
        }
        switch path {
        case "/openid/mobile_config_and_baseurl": return (.engageConfiguration, [.get])
        case "/signin/oauth_token": return (.engageToken, [.post])
        // POST only: the API key is a secret, which a GET would put in URLs (and their logs).
        case "/api/v2/auth_info": return (.authInfo, [.post])
        case "/signin/complete": return (.signInComplete, [.get])
        case "/email/verify": return (.verifyEmail, [.get])
        case "/password/reset": return (.resetPassword, [.get, .post])
        case "/health": return (.health, [.get])
        case "/openid/start", "/saml2/sso/start": return (.engageStart, [.get])
        default:
            let parts = path.split(separator: "/")
            if parts.count == 2, parts[1] == "start" { return (.engageStart, [.get]) }
            return nil
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let reply = await answer(request)
        var headers = reply.headers
        headers[.contentType] = reply.contentType
        headers[.cacheControl] = "no-store"
        // HEAD: the headers of the GET, without its body.
        let body = request.method == .head ? ByteBuffer() : ByteBuffer(string: reply.body)
        return Response(status: reply.status, headers: headers, body: .init(byteBuffer: body))
    }

    func answer(_ request: Request) async -> ServerReply {
        let path = request.uri.path
        guard let (route, routeMethods) = Self.route(path) else {
            return .error(404, "not_found", "no such endpoint: \(path)", status: .notFound)
        }
        // Every route that takes GET takes HEAD too.
        let methods = routeMethods.contains(.get) ? routeMethods + [.head] : routeMethods
        guard methods.contains(request.method) else {
            let names = methods.map(\.rawValue)
            var reply = ServerReply.error(405, "method_not_allowed", "\(path) takes \(names.joined(separator: ", "))", status: .methodNotAllowed)
            reply.headers[.allow] = names.joined(separator: ", ")
            return reply
        }
        var request = request
        // The query string and the body together stay within the limit.
        let limit = service.setup.settings.maximumRequestSize
        var pairs: [(name: String, value: String)] = []
        let query = request.uri.query ?? ""
        if query.utf8.count > limit {
            return .error(413, "request_too_large", "the query string is larger than \(limit) bytes", status: .contentTooLarge)
        }
        if !query.isEmpty {
            guard let decoded = FormEncoding.decode(pairs: query) else { return .invalid("query", "malformed query string") }
            pairs += decoded
        }
        if request.method == .post {
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: limit - query.utf8.count)
            } catch {
                let what = query.isEmpty ? "the request body is" : "the query string and the body together are"
                return .error(413, "request_too_large", "\(what) larger than \(limit) bytes", status: .contentTooLarge)
            }
            let text = String(buffer: body)
            if !text.isEmpty {
                if let type = request.headers[.contentType], !type.lowercased().hasPrefix("application/x-www-form-urlencoded") {
                    return .invalid("Content-Type", "expected application/x-www-form-urlencoded, got \(type)")
                }
                guard let decoded = FormEncoding.decode(pairs: text) else {
                    return .invalid("body", "malformed application/x-www-form-urlencoded body")
                }
                pairs += decoded
            }
        }
        let parameters = RequestParameters(pairs: pairs)
        do {
            switch route {
            case .capture(let operation): return try await service.handle(operation, parameters)
            case .engageConfiguration: return service.mobileConfiguration()
            case .engageStart: return try await service.engageStart(path: path, target: request.uri.description, parameters)
            case .engageToken: return try await service.exchangeNativeToken(parameters)
            case .authInfo: return try await service.authInfo(parameters)
            case .signInComplete: return service.signInComplete(parameters)
            case .verifyEmail: return try await service.verifyEmail(parameters)
            case .resetPassword: return try await service.resetPassword(parameters, isPost: request.method == .post)
            case .health: return .ok
            }
        } catch {
            logger.error("\(request.method.rawValue) \(path) failed: \(error)")
            return .error(500, "internal_error", "the server could not complete the request", status: .internalServerError)
        }
    }
}
