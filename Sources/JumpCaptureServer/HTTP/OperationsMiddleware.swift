import HTTPTypes
import Hummingbird
import JumpCapture
import JumpForms
import Logging
import NIOCore

/// The operator's side of every request, in front of `CaptureDispatcher`: `GET /ready` (the
/// database reachable and its migrations current: 200, else 503), `GET /metrics` (Prometheus
/// text, to the addresses `server.metricsAllow` lists), and for every request its count and
/// duration (`ServerMetrics`, labelled with the route's name, never the raw path, so that the
/// labels stay few) and one log line at info: request id, method, route, status and duration.
/// Never the path's variable parts, the query or the body, which carry tokens and passwords.
struct OperationsMiddleware: RouterMiddleware {
    typealias Context = CaptureRequestContext
    let service: CaptureService
    let logger: Logger

    var metrics: ServerMetrics { service.setup.metrics }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let path = request.uri.path
        let route: String
        let response: Response
        switch path {
        case "/ready":
            route = "ready"
            if let refused = Self.methodNotAllowed(request) { response = refused } else { response = await ready(request) }
        case "/metrics":
            route = "metrics"
            response = Self.methodNotAllowed(request) ?? scrape(request, client: context.remoteAddress?.ipAddress)
        default:
            route = CaptureDispatcher.route(path)?.0.label ?? "unknown"
            do {
                response = try await next(request, context)
            } catch {
                finish(request, context: context, route: route, status: 500, since: started)
                throw error
            }
        }
        finish(request, context: context, route: route, status: response.status.code, since: started)
        return response
    }

    private func finish(_ request: Request, context: Context, route: String, status: Int, since started: ContinuousClock.Instant) {
        let duration = ContinuousClock.now - started
        metrics.recordRequest(route: route, status: status, duration: duration)
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

    /// 200 `{"stat":"ok"}` when the store can serve, else 503 saying what is wrong.
    func ready(_ request: Request) async -> Response {
        let readiness = await service.store.readiness()
        metrics.databaseReady.record(readiness.isReady ? 1 : 0)
        guard readiness.isReady else {
            let problem = readiness.reachable ? "the database's migrations are not current" : "the database cannot be reached"
            logger.warning("not ready: \(problem)")
            var reply = ServerReply.error(503, "not_ready", problem, status: .serviceUnavailable)
            reply.headers[.retryAfter] = "5"
            return Self.response(reply, to: request)
        }
        return Self.response(.ok, to: request)
    }

    /// The metrics in the Prometheus text format, or 403 for a client outside `metricsAllow`.
    func scrape(_ request: Request, client: String?) -> Response {
        let allowed = service.setup.settings.metricsAllow
        if !allowed.isEmpty, !allowed.contains(where: { range in client.map(range.contains) ?? false }) {
            return Self.response(.error(403, "forbidden", "/metrics is not served to this address", status: .forbidden), to: request)
        }
        let load = service.passwordWork.load
        metrics.passwordHashQueueDepth.record(load.waiting)
        metrics.passwordHashRunning.record(load.active)
        var reply = ServerReply(status: .ok, contentType: "text/plain; version=0.0.4; charset=utf-8", body: "")
        reply.bytes = metrics.text()
        return Self.response(reply, to: request)
    }

    /// 405 with `Allow` for a method other than GET and HEAD.
    static func methodNotAllowed(_ request: Request) -> Response? {
        guard request.method != .get, request.method != .head else { return nil }
        var reply = ServerReply.error(405, "method_not_allowed", "\(request.uri.path) takes GET, HEAD", status: .methodNotAllowed)
        reply.headers[.allow] = "GET, HEAD"
        return response(reply, to: request)
    }

    static func response(_ reply: ServerReply, to request: Request) -> Response {
        var headers = reply.headers
        headers[.contentType] = reply.contentType
        headers[.cacheControl] = "no-store"
        let body = reply.bytes.map { ByteBuffer(bytes: $0) } ?? ByteBuffer(string: reply.body)
        guard request.method != .head else {
            headers[.contentLength] = String(body.readableBytes)
            return Response(status: reply.status, headers: headers, body: .init())
        }
        return Response(status: reply.status, headers: headers, body: .init(byteBuffer: body))
    }
}

extension CaptureDispatcher.Route {
    /// The route's name in metrics and logs: one of a fixed set (`capture.signIn`, `health`,
    /// `hostedForm`...), whatever the path.
    var label: String {
        switch self {
        case .capture(let operation): "capture.\(operation.rawValue)"
        case .engageConfiguration: "engageConfiguration"
        case .engageStart: "engageStart"
        case .engageToken: "engageToken"
        case .authInfo: "authInfo"
        case .signInComplete: "signInComplete"
        case .verifyEmail: "verifyEmail"
        case .resetPassword: "resetPassword"
        case .health: "health"
        case .signInDevice: "signInDevice"
        case .oauthToken: "oauthToken"
        case .shareActivity: "shareActivity"
        case .setStatus: "setStatus"
        case .shortenURLs: "shortenURLs"
        case .shortURL: "shortURL"
        case .recordActivity: "recordActivity"
        case .flowDocument: "flowDocument"
        case .hostedForm: "hostedForm"
        case .stylesheet: "stylesheet"
        case .previewGallery: "previewGallery"
        case .previewGeneration: "previewGeneration"
        }
    }
}
