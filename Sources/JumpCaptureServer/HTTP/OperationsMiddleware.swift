import HTTPTypes
import Hummingbird
import JumpCapture
import JumpForms
import Logging
import NIOCore

/// The operator's side of every request, outermost: its count, duration and database
/// statements (`ServerMetrics`, `StatementTally`; labelled with its route's template,
/// `/forms/{name}`, never the raw path, so that the labels stay few; `unknown` when no route
/// matched), the requests in flight, and one log line at
/// info: request id, method, route, status and duration. Never the path's variable parts, the
/// query or the body, which carry tokens and passwords. Also the handlers of `GET /ready` and
/// `GET /metrics` (`CaptureServer.router`).
struct OperationsMiddleware: RouterMiddleware {
    typealias Context = CaptureRequestContext
    let service: CaptureService
    let logger: Logger

    var metrics: ServerMetrics { service.setup.metrics }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        metrics.requestStarted()
        defer { metrics.requestEnded() }
        let statements = StatementTally()
        let response: Response
        do {
            response = try await StatementTally.$current.withValue(statements) { try await next(request, context) }
        } catch {
            finish(request, context: context, status: 500, since: started, statements: statements.count)
            throw error
        }
        finish(request, context: context, status: response.status.code, since: started, statements: statements.count)
        return response
    }

    /// The route's template, or `unknown` when no route matched (Hummingbird's `NotFound`).
    static func route(_ context: Context) -> String {
        guard let path = context.endpointPath, path != "NotFound" else { return "unknown" }
        return path
    }

    private func finish(_ request: Request, context: Context, status: Int, since started: ContinuousClock.Instant, statements: Int) {
        let duration = ContinuousClock.now - started
        let route = Self.route(context)
        metrics.recordRequest(route: route, status: status, duration: duration, statements: statements)
        guard logger.logLevel <= .info else { return }
        let (seconds, attoseconds) = duration.components
        let milliseconds = Double(seconds) * 1000 + Double(attoseconds / 1_000_000_000_000) / 1000
        logger.info(
            "request",
            metadata: [
                "request_id": .string(context.id), "method": .string(request.method.rawValue), "route": .string(route),
                "status": .stringConvertible(status), "duration_ms": .stringConvertible(milliseconds)
            ])
    }

    /// 200 `{"stat":"ok"}` when the store can serve, else 503 saying what is wrong; 503 as
    /// well once the server is shutting down (`shuttingDown`), so that a load balancer sends
    /// its requests elsewhere while those in flight finish.
    func ready(shuttingDown: Bool) async -> ServerReply {
        let problem: String?
        if shuttingDown {
            problem = "the server is shutting down"
        } else {
            let readiness = await service.store.readiness()
            metrics.databaseReady.record(readiness.isReady ? 1 : 0)
            problem =
                readiness.isReady
                ? nil : readiness.reachable ? "the database's migrations are not current" : "the database cannot be reached"
        }
        guard let problem else { return .ok }
        logger.warning("not ready: \(problem)")
        var reply = ServerReply.error(503, "not_ready", problem, status: .serviceUnavailable)
        reply.headers[.retryAfter] = "5"
        return reply
    }

    /// The metrics in the Prometheus text format, or 403 for a client outside `metricsAllow`.
    func scrape(client: String?) -> ServerReply {
        let allowed = service.setup.settings.metricsAllow
        if !allowed.isEmpty, !allowed.contains(where: { range in client.map(range.contains) ?? false }) {
            return .error(403, "forbidden", "/metrics is not served to this address", status: .forbidden)
        }
        let load = service.passwordWork.load
        metrics.passwordHashQueueDepth.record(load.waiting)
        metrics.passwordHashRunning.record(load.active)
        metrics.requestsInFlightGauge.record(metrics.requestsInFlight)
        var reply = ServerReply(status: .ok, contentType: "text/plain; version=0.0.4; charset=utf-8", body: "")
        reply.bytes = metrics.text()
        return reply
    }
}
