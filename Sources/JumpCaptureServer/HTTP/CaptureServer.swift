import HTTPTypes
import Hummingbird
import HummingbirdCore
import HummingbirdTLS
import JumpCapture
import Logging
import NIOCore
import NIOSSL
import ServiceLifecycle
import Synchronization
import UnixSignals
#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A Capture-compatible server (with an Engage double) on Hummingbird 2, enforcing the flow
/// with the same rule engine the client runs: a plain Hummingbird app, one route per
/// operation (`CaptureServer.router`).
///
/// Every answer is Capture-style JSON, errors included (`CaptureErrors`): unknown paths (404), wrong methods
/// (405, with `Allow`), a query string and body over `maximumRequestSize` (413, default 64 KiB),
/// requests the HTTP parser refuses (400, or 431 for a request line or headers over 80 KiB),
/// an HTTP/1.1 request without one `Host` (400), a `Content-Encoding` other than `identity` (415),
/// malformed bodies, unknown or repeated parameters, and any internal failure (500, without
/// internals; the cause is logged).
public final class CaptureServer: Sendable {
    let service: CaptureService
    let logger: Logger
    /// The open connections, within `maximumConnections`.
    let connections: ConnectionLimit
    /// Set once a graceful shutdown has begun: `/ready` answers 503.
    private let shuttingDown = Atomic<Bool>(false)

    public init(setup: CaptureServerSetup, logger: Logger = Logger(label: "jump-forms.server")) throws {
        self.logger = logger
        self.service = try CaptureService(setup: setup, logger: logger)
        connections = ConnectionLimit(maximum: setup.settings.maximumConnections)
    }

    /// Whether a graceful shutdown has begun (`/ready` then answers 503).
    public var isShuttingDown: Bool { shuttingDown.load(ordering: .relaxed) }

    /// Marks the server as shutting down: `/ready` answers 503 from now on.
    func beginShutdown() {
        shuttingDown.store(true, ordering: .relaxed)
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

    /// How long a graceful shutdown (SIGINT, SIGTERM, `EmbeddedCaptureServer.stop()`) waits by
    /// default for the requests in flight, once it stops accepting connections (after the
    /// drain delay of `run`); then the connections still open are closed.
    public static let shutdownGracePeriod: Duration = .seconds(5)

    /// The Hummingbird application listening on `host:port` (0 picks a free port), over HTTPS
    /// when `tls` is given. `onStart` receives the bound URL. `hostNames`: names the server
    /// answers to besides its address, IP addresses, `localhost` and `server.publicURL`'s host
    /// (`serve --tls-host`; `HostCheck`).
    public func application(
        host: String, port: Int, idleTimeout: Duration = CaptureServer.defaultIdleTimeout,
        requestTimeout: Duration = CaptureServer.defaultRequestTimeout, tls: TLSConfiguration? = nil, hostNames: [String] = [],
        onStart: @escaping @Sendable (String) async -> Void = { _ in }
    )
        -> some ApplicationProtocol
    {
        let service = service
        let limit = service.setup.settings.maximumRequestSize
        let connections = connections
        let tlsConfiguration = tls
        return Application(
            router: router(boundHost: host, hostNames: hostNames),
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
                // Behind a load balancer the links the server writes (emails, Engage's
                // `baseurl`, short URLs) name the URL clients reach, not this instance's address.
                let base = service.setup.settings.publicURL.map { $0.value.hasSuffix("/") ? String($0.value.dropLast()) : $0.value } ?? url
                service.baseURL.withLock { $0 = base }
                await onStart(url)
            },
            logger: logger
        )
    }

    /// Runs the server on `host:port` (HTTPS with `tls`) until SIGINT or SIGTERM, then stops
    /// gracefully: `/ready` answers 503 at once, the server goes on serving for `drainDelay`
    /// (time for a load balancer to see it and send its requests elsewhere), then stops
    /// accepting connections and lets the requests in flight finish (for at most
    /// `gracePeriod`). Throws `CaptureServerError.cannotListen` when it cannot bind.
    public func run(
        host: String, port: Int, tls: TLSConfiguration? = nil, hostNames: [String] = [], drainDelay: Duration = .zero,
        gracePeriod: Duration = CaptureServer.shutdownGracePeriod, onStart: @escaping @Sendable (String) async -> Void
    ) async throws {
        let started = Mutex(false)
        let application = application(host: host, port: port, tls: tls, hostNames: hostNames) { url in
            started.withLock { $0 = true }
            await onStart(url)
        }
        do {
            try await serviceGroup(application, signals: [.sigterm, .sigint], drainDelay: drainDelay, gracePeriod: gracePeriod).run()
        } catch  where !started.withLock({ $0 }) {
            throw CaptureServerError.cannotListen(address: "\(Self.shown(host)):\(port)", reason: Self.reason(error))
        }
    }

    /// A service group running `application`. Its graceful shutdown first marks the server as
    /// shutting down and waits `drainDelay` (`ShutdownNotice`), then stops the application,
    /// whose requests in flight get at most `gracePeriod` (then the connections still open
    /// are cancelled and closed).
    func serviceGroup(
        _ application: some Service, signals: [UnixSignal], drainDelay: Duration = .zero, gracePeriod: Duration = shutdownGracePeriod
    ) -> ServiceGroup {
        // Services shut down in reverse order, each once the one after it has finished.
        let services: [any Service] = [application, ShutdownNotice(server: self, drainDelay: drainDelay)]
        var configuration = ServiceGroupConfiguration(services: services, gracefulShutdownSignals: signals, logger: logger)
        configuration.maximumGracefulShutdownDuration = drainDelay + gracePeriod
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
        requestTimeout: Duration = CaptureServer.defaultRequestTimeout, tls: TLSConfiguration? = nil,
        logger: Logger = Logger(label: "jump-forms.embedded")
    ) async throws -> EmbeddedCaptureServer {
        let server = try CaptureServer(setup: setup, logger: logger)
        try await server.prepare()
        let (stream, continuation) = AsyncStream<String>.makeStream()
        let application = server.application(host: host, port: port, idleTimeout: idleTimeout, requestTimeout: requestTimeout, tls: tls) { url in
            continuation.yield(url)
            continuation.finish()
        }
        let group = server.serviceGroup(application, signals: [])
        // A server that stops before it listens (its port taken, say) ends the wait for its URL.
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        var iterator = stream.makeAsyncIterator()
        guard let url = await iterator.next() else {
            task.cancel()
            _ = try await task.value
            throw CancellationError()
        }
        return EmbeddedCaptureServer(url: url, server: server, group: group, task: task)
    }

    /// Whether `start` failed because its port is in use.
    public static func portInUse(_ error: any Error) -> Bool {
        (error as? IOError)?.errnoCode == EADDRINUSE
    }

    /// Stops accepting connections, finishes the requests in flight (for at most
    /// `CaptureServer.shutdownGracePeriod`), closes the database's connections, and returns.
    /// (The preview restarts its server on each reload: an open pool would stay behind each
    /// time, its connections and whatever lock one of them held.)
    public func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
        await server.service.store.database.shutdown()
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

/// The first step of a graceful shutdown: marks the server as shutting down (`/ready` answers
/// 503) and waits `drainDelay` while it still serves; then the service group stops the
/// application.
struct ShutdownNotice: Service {
    let server: CaptureServer
    let drainDelay: Duration

    func run() async throws {
        // Cancelled rather than shut down gracefully: nothing to wait for.
        guard (try? await gracefulShutdown()) != nil else { return }
        server.beginShutdown()
        if drainDelay > .zero {
            server.logger.info("shutting down: /ready answers 503; serving for \(drainDelay) more")
            try? await Task.sleep(for: drainDelay)
        }
    }
}
