import CoreMetrics
import Prometheus
import Synchronization

/// What the server counts and measures, in a Prometheus registry of its own, which
/// `GET /metrics` serves in the Prometheus text format. Nothing is bootstrapped globally
/// (swift-metrics' `MetricsSystem` is process-wide and set once): the metrics are made through
/// a `MetricsFactory` for this registry, so two servers in one process (tests) count apart.
///
/// The names (docs/deploying.md, "Metrics"):
/// - `jump_http_requests_total{route, status}`: requests answered, by route (the matched
///   route's template, `/forms/{name}`, never the raw path; `unknown` when none matched) and
///   HTTP status;
/// - `jump_http_request_duration_seconds{route}`: a histogram of the time from the request's
///   head to its answer;
/// - `jump_signin_failures_total`: password checks that failed (sign-in, profile and password
///   changes);
/// - `jump_signin_throttled_total`: password checks refused unchecked because the account or
///   the client address was locked by the sign-in throttle;
/// - `jump_password_hash_queue_depth` and `jump_password_hash_running`: password hashes
///   waiting for a thread and running, at the time of the scrape;
/// - `jump_http_requests_in_flight`: requests begun and not yet answered at the time of the
///   scrape, the scrape included;
/// - `jump_database_ready`: 1 when the last `/ready` found the database reachable and its
///   migrations current, else 0;
/// - `jump_database_pool_wait_seconds`: a histogram of the time from asking the store's
///   connection pool for a connection to having one (`StoreDatabase.withConnection`);
/// - `jump_database_pool_waits_total`: the leases that found every connection of the pool in
///   use, and so waited for one to be given back;
/// - `jump_database_queries_total{route}`: the statements (round trips) the store sent while
///   answering the route's requests (`StatementTally`); divided by the route's requests, the
///   round trips per request.
public final class ServerMetrics: Sendable {
    /// The registry `/metrics` renders.
    public let registry: PrometheusCollectorRegistry
    /// Makes the metrics, in `registry`.
    let factory: any MetricsFactory
    let signInFailures: CoreMetrics.Counter
    let signInThrottled: CoreMetrics.Counter
    /// Records moved from the legacy Capture at a sign-in, and the sign-ins that could not ask it.
    let legacyMoves: CoreMetrics.Counter
    let legacyUnavailable: CoreMetrics.Counter
    let passwordHashQueueDepth: CoreMetrics.Gauge
    let passwordHashRunning: CoreMetrics.Gauge
    let databaseReady: CoreMetrics.Gauge
    let requestsInFlightGauge: CoreMetrics.Gauge
    let databasePoolWait: CoreMetrics.Timer
    let databasePoolWaits: CoreMetrics.Counter
    /// Requests begun and not yet answered (`OperationsMiddleware`).
    private let inFlight = Atomic<Int>(0)
    /// The request counters by route and status, and the latency timers by route, made once
    /// (making one looks it up in the registry under its lock, and allocates).
    private let requestMetrics = Mutex<
        (counters: [RequestKey: CoreMetrics.Counter], timers: [String: CoreMetrics.Timer], statements: [String: CoreMetrics.Counter])
    >(([:], [:], [:]))

    private struct RequestKey: Hashable {
        var route: String
        var status: Int
    }

    /// Latency buckets, in seconds: 1 ms to 10 s (bcrypt at cost 10 takes about 50 ms).
    static let durationBuckets: [Duration] = [
        .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100),
        .milliseconds(250), .milliseconds(500), .seconds(1), .milliseconds(2500), .seconds(5), .seconds(10)
    ]

    /// Pool-wait buckets, in seconds: 100 µs to 60 s (the PostgreSQL pool's request timeout).
    static let poolWaitBuckets: [Duration] = [
        .microseconds(100), .microseconds(500), .milliseconds(1), .milliseconds(5), .milliseconds(10), .milliseconds(50),
        .milliseconds(100), .milliseconds(500), .seconds(1), .seconds(5), .seconds(30), .seconds(60)
    ]

    /// Metrics in `registry` (by default a new one, which only this server fills).
    public init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.defaultDurationHistogramBuckets = Self.durationBuckets
        factory.durationHistogramBuckets = ["jump_database_pool_wait_seconds": Self.poolWaitBuckets]
        self.factory = factory
        signInFailures = CoreMetrics.Counter(label: "jump_signin_failures_total", factory: factory)
        signInThrottled = CoreMetrics.Counter(label: "jump_signin_throttled_total", factory: factory)
        legacyMoves = CoreMetrics.Counter(label: "jump_legacy_moves_total", factory: factory)
        legacyUnavailable = CoreMetrics.Counter(label: "jump_legacy_unavailable_total", factory: factory)
        passwordHashQueueDepth = CoreMetrics.Gauge(label: "jump_password_hash_queue_depth", factory: factory)
        passwordHashRunning = CoreMetrics.Gauge(label: "jump_password_hash_running", factory: factory)
        databaseReady = CoreMetrics.Gauge(label: "jump_database_ready", factory: factory)
        requestsInFlightGauge = CoreMetrics.Gauge(label: "jump_http_requests_in_flight", factory: factory)
        databasePoolWait = CoreMetrics.Timer(label: "jump_database_pool_wait_seconds", factory: factory)
        databasePoolWaits = CoreMetrics.Counter(label: "jump_database_pool_waits_total", factory: factory)
    }

    /// Requests begun and not yet answered.
    var requestsInFlight: Int { inFlight.load(ordering: .relaxed) }

    func requestStarted() { inFlight.add(1, ordering: .relaxed) }

    func requestEnded() { inFlight.subtract(1, ordering: .relaxed) }

    /// Counts one answered request, its duration and the statements it sent to the database.
    func recordRequest(route: String, status: Int, duration: Duration, statements: Int) {
        let factory = factory
        let (counter, timer, statementCounter) = requestMetrics.withLock { made in
            let key = RequestKey(route: route, status: status)
            let counter =
                made.counters[key]
                ?? CoreMetrics.Counter(
                    label: "jump_http_requests_total", dimensions: [("route", route), ("status", String(status))], factory: factory)
            let timer =
                made.timers[route]
                ?? CoreMetrics.Timer(label: "jump_http_request_duration_seconds", dimensions: [("route", route)], factory: factory)
            let statementCounter =
                made.statements[route]
                ?? CoreMetrics.Counter(label: "jump_database_queries_total", dimensions: [("route", route)], factory: factory)
            made.counters[key] = counter
            made.timers[route] = timer
            made.statements[route] = statementCounter
            return (counter, timer, statementCounter)
        }
        counter.increment()
        timer.recordNanoseconds(Self.nanoseconds(duration))
        statementCounter.increment(by: statements)
    }

    /// One wait for a connection of the store's pool.
    func recordPoolWait(_ duration: Duration) {
        databasePoolWait.recordNanoseconds(Self.nanoseconds(duration))
    }

    private static func nanoseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }

    /// The registry in the Prometheus text format.
    func text() -> [UInt8] {
        registry.emitToBuffer()
    }
}
