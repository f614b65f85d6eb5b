import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import JumpCapture
import JumpForms
import JumpWebPages
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle
import Synchronization
import UnixSignals
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Capture-compatible server (with an Engage double) on Hummingbird 2, enforcing the flow
/// with the same rule engine the client runs.
///
/// Every answer is Capture-style JSON, errors included: unknown paths (404), wrong methods
/// (405, with `Allow`), a query string and body over `maximumRequestSize` (413, default 64 KiB),
/// requests the HTTP parser refuses (400, or 431 for a request line or headers over 80 KiB),
/// an HTTP/1.1 request without one `Host` (400), a `Content-Encoding` other than `identity` (415),
/// malformed bodies, unknown or repeated parameters, and any internal failure (500, without
/// internals; the cause is logged).
public final class CaptureServer: Sendable {
    let service: CaptureService
    let logger: Logger

    public init(setup: CaptureServerSetup, logger: Logger = Logger(label: "jump-forms.server")) throws {
        self.logger = logger
        self.service = try CaptureService(setup: setup, logger: logger)
    }

    /// How long a connection may send nothing while the server is not answering it before the
    /// server closes it: quietly between requests, with a 408 in the middle of one
    /// (`RequestDeadlineHandler`, which counts bytes, not HTTP parts).
    public static let defaultIdleTimeout: Duration = .seconds(30)

    /// How long one request may take to arrive, from its first byte to its end (request line,
    /// headers and body), however steadily its bytes come; then it is answered 408 (unless an
    /// answer is under way) and the connection closes. Idle time between requests counts
    /// against `defaultIdleTimeout` only.
    public static let defaultRequestTimeout: Duration = .seconds(60)

    /// How long a graceful shutdown (SIGINT, SIGTERM, `EmbeddedCaptureServer.stop()`) waits
    /// for the requests in flight; then the connections still open are closed.
    public static let shutdownGracePeriod: Duration = .seconds(5)

    /// The Hummingbird application listening on `host:port` (0 picks a free port), over HTTPS
    /// when `tls` is given. `onStart` receives the bound URL. `hostNames`: names the server
    /// answers to besides its address, IP addresses, `localhost` and `server.publicURL`'s host
    /// (`serve --tls-host`; `HostCheck`).
    public func application(
        host: String, port: Int, idleTimeout: Duration = CaptureServer.defaultIdleTimeout,
        requestTimeout: Duration = CaptureServer.defaultRequestTimeout, tls: ServerTLS? = nil, hostNames: [String] = [],
        onStart: @escaping @Sendable (String) async -> Void = { _ in }
    )
        -> some ApplicationProtocol
    {
        let router = Router(context: CaptureRequestContext.self)
        router.add(middleware: OperationsMiddleware(service: service, logger: logger))
        router.add(middleware: SecurityHeaders(isPreview: service.setup.isPreview))
        router.add(middleware: HostCheck(boundHost: host, publicURL: service.setup.settings.publicURL?.value, names: hostNames))
        router.add(middleware: CaptureDispatcher(service: service, logger: logger))
        let service = service
        let limit = service.setup.settings.maximumRequestSize
        let connections = ConnectionLimit(maximum: service.setup.settings.maximumConnections)
        let tlsConfiguration = tls?.configuration
        return Application(
            router: router,
            server: HTTPServerBuilder { responder in
                let http = CaptureHTTP1Channel(
                    http1: HTTP1Channel(
                        responder: responder,
                        configuration: .init(
                            additionalChannelHandlers: [MalformedRequestHandler(maximumRequestSize: limit)], idleTimeout: nil,
                            httpDecoderConfiguration: MalformedRequestHandler.decoderLimits)), idleTimeout: TimeAmount(idleTimeout),
                    requestTimeout: TimeAmount(requestTimeout), connections: connections)
                // HTTPS: Hummingbird's TLS channel (swift-nio-ssl) in front of the same HTTP/1 channel.
                guard let tlsConfiguration else { return http }
                return try TLSChannel(http, tlsConfiguration: tlsConfiguration)
            },
            configuration: .init(address: .hostname(host, port: port), serverName: "jump-forms"),
            onServerRunning: { channel in
                let bound = channel.localAddress?.port ?? port
                let url = "\(tls == nil ? "http" : "https")://\(Self.shown(host)):\(bound)"
                service.baseURL.withLock { $0 = url }
                await onStart(url)
            },
            logger: logger
        )
    }

    /// Runs the server on `host:port` (HTTPS with `tls`) until SIGINT or SIGTERM, then stops gracefully: the
    /// requests in flight finish (for at most `shutdownGracePeriod`). Throws
    /// `CaptureServerError.cannotListen` when it cannot bind.
    public func run(
        host: String, port: Int, tls: ServerTLS? = nil, hostNames: [String] = [], onStart: @escaping @Sendable (String) async -> Void
    ) async throws {
        let started = Mutex(false)
        let application = application(host: host, port: port, tls: tls, hostNames: hostNames) { url in
            started.withLock { $0 = true }
            await onStart(url)
        }
        do {
            try await Self.serviceGroup(application, signals: [.sigterm, .sigint], logger: logger).run()
        } catch  where !started.withLock({ $0 }) {
            throw CaptureServerError.cannotListen(address: "\(Self.shown(host)):\(port)", reason: Self.reason(error))
        }
    }

    /// A service group running `application`, whose graceful shutdown lasts at most
    /// `shutdownGracePeriod` (then the connections still open are cancelled and closed).
    static func serviceGroup(_ application: some Service, signals: [UnixSignal], logger: Logger) -> ServiceGroup {
        var configuration = ServiceGroupConfiguration(services: [application], gracefulShutdownSignals: signals, logger: logger)
        configuration.maximumGracefulShutdownDuration = shutdownGracePeriod
        return ServiceGroup(configuration: configuration)
    }

    /// A host as a URL shows it (an IPv6 address in brackets).
    static func shown(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }

    /// Why a bind failed, in words: the system's message for an errno (`address already in
    /// use`), else the error's description.
    static func reason(_ error: any Error) -> String {
        guard let error = error as? IOError else { return "\(error)" }
        let text = String(cString: strerror(error.errnoCode))
        return text.prefix(1).lowercased() + text.dropFirst()
    }

    /// Readies the database (migrations, unless `CaptureServerSetup.migrate` is false): what
    /// `serve` does before it listens, so that a database it cannot use stops it at once.
    public func prepare() async throws {
        try await service.store.prepareForServing()
    }

    /// The messages of the outbox, oldest first.
    public func outbox() async throws -> [OutboxMessage] {
        try await service.store.outbox()
    }

    /// How long a device token of the Engage double lasts (seconds).
    public static let deviceTokenLifetime = CaptureService.deviceTokenLifetime

    /// What the Engage double received to share, oldest first.
    public func feed() async throws -> [FeedEntry] {
        try await service.store.feed()
    }

    /// How many accounts the database holds.
    public func accountCount() async throws -> Int {
        try await service.store.userCount()
    }
}

/// Why the server could not run.
public enum CaptureServerError: Error, CustomStringConvertible {
    /// It could not listen on the address (the port is taken, the address is not this
    /// machine's, ...).
    case cannotListen(address: String, reason: String)

    public var description: String {
        switch self {
        case let .cannotListen(address, reason): "cannot listen on \(address): \(reason)"
        }
    }
}

/// Reads the outbox of a server's database without starting the server.
public enum Outbox {
    public static func messages(databasePath: String, database: DatabaseLocation? = nil) async throws -> [OutboxMessage] {
        try await CaptureStore.reader(databasePath: databasePath, database: database).outbox()
    }
}

/// Reads the Engage double's feed of a server's database without starting the server.
public enum Feed {
    public static func entries(databasePath: String, database: DatabaseLocation? = nil) async throws -> [FeedEntry] {
        try await CaptureStore.reader(databasePath: databasePath, database: database).feed()
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

    /// Starts the server (HTTPS with `tls`) on `port` (0: a free one) and returns once it accepts connections.
    /// `idleTimeout`: how long a connection may send nothing before it is closed;
    /// `requestTimeout`: how long one request may take to arrive (`CaptureServer.defaultRequestTimeout`).
    public static func start(
        _ setup: CaptureServerSetup, host: String = "127.0.0.1", port: Int = 0, idleTimeout: Duration = CaptureServer.defaultIdleTimeout,
        requestTimeout: Duration = CaptureServer.defaultRequestTimeout, tls: ServerTLS? = nil,
        logger: Logger = Logger(label: "jump-forms.embedded")
    ) async throws -> EmbeddedCaptureServer {
        let server = try CaptureServer(setup: setup, logger: logger)
        try await server.prepare()
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let application = server.application(host: host, port: port, idleTimeout: idleTimeout, requestTimeout: requestTimeout, tls: tls) { url in
            continuation.yield(url)
            continuation.finish()
        }
        let group = CaptureServer.serviceGroup(application, signals: [], logger: logger)
        let task = Task { try await group.run() }
        var iterator = stream.makeAsyncIterator()
        guard let url = await iterator.next() else {
            task.cancel()
            _ = try await task.value
            throw CancellationError()
        }
        return EmbeddedCaptureServer(url: url, server: server, group: group, task: task)
    }

    /// Stops accepting connections, finishes the requests in flight (for at most
    /// `CaptureServer.shutdownGracePeriod`), and returns.
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}

/// Routes every request itself: the operations are data (`CaptureOperation.path`), so one
/// table serves Capture, the Engage double, the email links and the health route.
struct CaptureDispatcher: RouterMiddleware {
    typealias Context = CaptureRequestContext
    let service: CaptureService
    let logger: Logger

    enum Route {
        case capture(CaptureOperation)
        case engageConfiguration, engageStart, engageToken, authInfo, signInComplete, verifyEmail, resetPassword, health
        case signInDevice, oauthToken
        /// Engage sharing (CaptureService+Sharing.swift): `/api/v2/activity`, `/api/v2/set_status`,
        /// `/openid/get_urls` and the short URLs it hands out (`/s/<code>`).
        case shareActivity, setStatus, shortenURLs, shortURL
        /// `/social/record_activity`: a share by email or SMS (CaptureService+RecordActivity.swift).
        case recordActivity
        /// `/widget_data/flows/<app>/<flow>/<version>/<locale>.json` (FlowDocumentRoute.swift).
        case flowDocument
        /// `/forms/<formName>`: the hosted forms (CaptureService+HostedForms.swift), and the
        /// stylesheet of every page.
        case hostedForm, stylesheet
        /// `jump-forms preview`'s gallery and its generation (`PreviewGallery`), in preview mode only.
        case previewGallery, previewGeneration

        /// Whether its GET only reads, so that HEAD can answer like it. A provider dialog
        /// issues a token, an email link is used up, `auth_info` uses its token up: no HEAD.
        var takesHEAD: Bool {
            switch self {
            case .engageStart, .verifyEmail, .authInfo, .oauthToken, .shortenURLs, .signInDevice, .hostedForm, .previewGeneration: false
            default: true
            }
        }

        var isPreview: Bool {
            switch self {
            case .previewGallery, .previewGeneration: true
            default: false
            }
        }
    }

    /// The gallery page (`locale` parameters narrow its locales), or the generation once it
    /// differs from `after` (long poll).
    static func preview(_ route: Route, _ parameters: RequestParameters, gallery: PreviewGallery?) async -> ServerReply {
        guard let gallery else { return .error(404, "not_found", "no such endpoint", status: .notFound) }
        if case .previewGallery = route {
            let only = parameters.pairs.filter { $0.name == "locale" }.map(\.value)
            var reply = ServerReply(status: .ok, contentType: "text/html; charset=utf-8", body: gallery.page(only: only))
            reply.headers[SecurityHeaders.contentSecurityPolicy] = PreviewGallery.contentSecurityPolicy
            return reply
        }
        let seen = parameters["after"].flatMap { Int($0) } ?? 0
        return ServerReply(status: .ok, contentType: "text/plain; charset=utf-8", body: "\(await gallery.generation(after: seen))\n")
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
        case "/signin/device": return (.signInDevice, [.get])
        // POST only: the client secret, and the code or refresh token, stay out of URLs.
        case "/oauth/token": return (.oauthToken, [.post])
        case "/api/v2/activity": return (.shareActivity, [.post])
        case "/api/v2/set_status": return (.setStatus, [.post])
        case "/openid/get_urls": return (.shortenURLs, [.get, .post])
        case "/social/record_activity": return (.recordActivity, [.post])
        case Stylesheet.path: return (.stylesheet, [.get])
        case "/preview": return (.previewGallery, [.get])
        case "/preview/generation": return (.previewGeneration, [.get])
        default:
            if CaptureService.isShortURLPath(path) { return (.shortURL, [.get]) }
            // `/<provider>/start`, `/openid/start[/<id>]`, `/saml2/sso/start[/<id>]`.
            if CaptureService.isEngageStartPath(path) { return (.engageStart, [.get]) }
            if FlowDocumentRoute.matches(path) { return (.flowDocument, [.get]) }
            if CaptureService.isHostedFormPath(path) { return (.hostedForm, [.get, .post]) }
            return nil
        }
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        Self.response(await answer(request, client: context.remoteAddress), method: request.method)
    }

    /// `reply` as Hummingbird's response (for HEAD without its body).
    static func response(_ reply: ServerReply, method: HTTPRequest.Method) -> Response {
        var headers = reply.headers
        headers[.contentType] = reply.contentType
        if headers[.cacheControl] == nil { headers[.cacheControl] = "no-store" }
        let body = reply.bytes.map { ByteBuffer(bytes: $0) } ?? ByteBuffer(string: reply.body)
        guard method != .head else {
            // HEAD: the headers of the GET, its Content-Length included, without its body.
            headers[.contentLength] = String(body.readableBytes)
            return Response(status: reply.status, headers: headers, body: .init())
        }
        return Response(status: reply.status, headers: headers, body: .init(byteBuffer: body))
    }

    /// 400 for a body that could not be read whole (the parser's error, if it was one), 408 for
    /// one that did not arrive in time (`RequestDeadlineHandler`), with `Connection: close`:
    /// the rest of the connection's input cannot be trusted.
    static func unreadableBody(_ error: (any Error)?) -> ServerReply {
        if error is RequestDeadlineHandler.Expired { return closing(.requestTimeout) }
        return closing(
            (error as? HTTPParserError).map(MalformedRequestHandler.reply(to:))
                ?? .error(400, "bad_request", "the request body could not be read whole", status: .badRequest))
    }

    /// `reply` with `Connection: close` (`HTTPVersionHandler` closes the connection after it).
    static func closing(_ reply: ServerReply) -> ServerReply {
        var reply = reply
        reply.headers[.connection] = "close"
        return reply
    }

    /// The `Transfer-Encoding` field values when they say anything but one `chunked` (nil when
    /// there is none, or just `chunked`).
    static func unsupportedTransferCodings(_ values: [String]) -> String? {
        guard !values.isEmpty else { return nil }
        let codings = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces.lowercased() }
        return codings == ["chunked"] ? nil : values.joined(separator: ", ")
    }

    /// The `Content-Encoding` field values when they name any coding but `identity` (nil when
    /// there is none).
    static func unsupportedContentCodings(_ values: [String]) -> String? {
        guard !values.isEmpty else { return nil }
        let codings = values.flatMap { $0.split(separator: ",") }.map { $0.trimmingSpaces.lowercased() }
        return codings.allSatisfy { $0 == "identity" } ? nil : values.joined(separator: ", ")
    }

    /// Why a body's `Content-Type` is not one the server reads (form-encoded UTF-8), or nil.
    static func formContentTypeProblem(_ type: String) -> String? {
        // What clients send nearly always: no parameters, lower case (no splitting needed).
        if type.utf8.elementsEqual("application/x-www-form-urlencoded".utf8) { return nil }
        let parts = type.split(separator: ";")
        guard parts.first?.trimmingSpaces.lowercased() == "application/x-www-form-urlencoded" else {
            return "expected application/x-www-form-urlencoded, got \(type)"
        }
        for parameter in parts.dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingSpaces.lowercased() == "charset" else { continue }
            var charset = pair[1].trimmingSpaces.lowercased()
            if charset.count >= 2, charset.first == "\"", charset.last == "\"" { charset = String(charset.dropFirst().dropLast()) }
            if charset != "utf-8" && charset != "utf8" {
                return "the body must be UTF-8 (charset=utf-8 or none), got charset=\(charset)"
            }
        }
        return nil
    }

    /// `client`: the address of the connection (the sign-in throttle counts failures by it).
    func answer(_ request: Request, client: SocketAddress? = nil) async -> ServerReply {
        let path = request.uri.path
        guard let (route, routeMethods) = Self.route(path), !route.isPreview || service.setup.isPreview else {
            return .error(404, "not_found", "no such endpoint: \(path)", status: .notFound)
        }
        // Every route whose GET only reads takes HEAD too.
        let methods = routeMethods.contains(.get) && route.takesHEAD ? routeMethods + [.head] : routeMethods
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
        // `chunked` is the one transfer coding the server reads: `gzip, chunked` would hand it a
        // compressed body as if it were plain.
        if let codings = Self.unsupportedTransferCodings(request.headers[values: .transferEncoding]) {
            return Self.closing(.error(400, "bad_request", "unsupported Transfer-Encoding '\(codings)': only chunked is read", status: .badRequest))
        }
        // A compressed body would be read as if it were plain: 415, and the codings the server reads.
        if let coding = Self.unsupportedContentCodings(request.headers[values: .contentEncoding]) {
            var reply = Self.closing(
                .error(
                    415, "unsupported_content_encoding", "unsupported Content-Encoding '\(coding)': send the body unencoded",
                    status: .unsupportedMediaType))
            reply.headers[.acceptEncoding] = "identity"
            return reply
        }
        if request.method == .post {
            let room = limit - query.utf8.count
            // A declared length over the limit is refused before reading (the connection's
            // first request is refused even earlier, by `MalformedRequestHandler`).
            let declared = request.headers[.contentLength].flatMap { Int($0) }
            if let declared, declared > room { return .tooLarge(limit: limit, withQuery: !query.isEmpty) }
            let body: ByteBuffer
            do {
                body = try await request.collectBody(upTo: room)
            } catch is NIOTooManyBytesError {
                return .tooLarge(limit: limit, withQuery: !query.isEmpty)
            } catch {
                // Bad chunked encoding, an unknown transfer coding, a connection that ended
                // or timed out in the middle of the body.
                return Self.unreadableBody(error)
            }
            if let declared, body.readableBytes != declared { return Self.unreadableBody(nil) }
            if body.readableBytes > 0 {
                if let type = request.headers[.contentType], let problem = Self.formContentTypeProblem(type) {
                    return .invalid("Content-Type", problem)
                }
                guard let text = String(validating: body.readableBytesView, as: UTF8.self), let decoded = FormEncoding.decode(pairs: text) else {
                    return .invalid("body", "malformed application/x-www-form-urlencoded body")
                }
                pairs += decoded
            }
        }
        let parameters = RequestParameters(pairs: pairs)
        do {
            switch route {
            case .capture(let operation):
                return try await service.handle(operation, parameters, client: CaptureService.checksPasswords(operation) ? client?.ipAddress : nil)
            case .engageConfiguration: return service.mobileConfiguration(ifNoneMatch: request.headers[.ifNoneMatch])
            case .engageStart:
                return try await service.engageStart(path: path, target: request.uri.description, parameters, headers: request.headers)
            case .engageToken: return try await service.exchangeNativeToken(parameters)
            case .authInfo: return try await service.authInfo(parameters, client: client?.ipAddress)
            case .signInComplete: return service.signInComplete(parameters, headers: request.headers)
            case .verifyEmail: return try await service.verifyEmail(parameters)
            case .resetPassword: return try await service.resetPassword(parameters, isPost: request.method == .post)
            case .health: return .ok
            case .signInDevice: return try await service.signInDevice(parameters)
            case .oauthToken:
                return try await service.oauthToken(parameters, authorization: request.headers[.authorization], client: client?.ipAddress)
            case .flowDocument: return FlowDocumentRoute.answer(path: path, headers: request.headers, setup: service.setup)
            case .shareActivity: return try await service.shareActivity(parameters)
            case .setStatus: return try await service.setStatus(parameters)
            case .shortenURLs: return try await service.shortenURLs(parameters, client: client?.ipAddress)
            case .shortURL: return try await service.followShortURL(path: path)
            case .recordActivity: return service.recordActivity(parameters)
            case .hostedForm:
                return try await service.hostedForm(
                    path: path, parameters, headers: request.headers, isPost: request.method == .post, client: client?.ipAddress)
            case .stylesheet:
                var reply = ServerReply(status: .ok, contentType: Stylesheet.contentType, body: Stylesheet.text)
                reply.headers[.cacheControl] = "no-cache"
                return reply
            case .previewGallery, .previewGeneration: return await Self.preview(route, parameters, gallery: service.setup.preview)
            }
        } catch is PasswordWork.Busy {
            return CaptureService.passwordWorkBusy
        } catch let error as StoreUnavailable {
            logger.warning("\(request.method.rawValue) \(path): \(error)")
            return CaptureService.storeUnavailable
        } catch {
            logger.error("\(request.method.rawValue) \(path) failed: \(error)")
            return .error(500, "internal_error", "the server could not complete the request", status: .internalServerError)
        }
    }
}

private extension Substring {
    /// Without the spaces and tabs around it (HTTP's optional white space).
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}

/// Hummingbird's basic request context, with the address of the client's connection.
struct CaptureRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The connection's remote address (nil when unknown).
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
