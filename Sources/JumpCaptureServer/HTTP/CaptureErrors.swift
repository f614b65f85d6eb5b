import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Synchronization

/// The one place errors become answers, all Capture-shaped JSON: a path no route has (404
/// `not_found`), a method its route does not take (405 `method_not_allowed`, with `Allow`),
/// a request refused before its handler (`RefusedRequest`: 413 and the others), a password
/// check the server has no room for (`PasswordWork.Busy`: 510 with `retry_after`), a database
/// that cannot be reached (`StoreUnavailable`: 503 with `Retry-After`), and any
/// other failure (500 `internal_error`, without internals; the cause is logged).
///
/// Hummingbird's router answers a known path with an unknown method as it answers an unknown
/// path (`HTTPError(.notFound)`); `routes` tells the two apart.
struct CaptureErrors: RouterMiddleware {
    typealias Context = CaptureRequestContext
    let routes: RouteTable
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let path = request.uri.path
            // A method the route takes cannot be what the router missed: a path of another
            // route's shape (`/preview/start` is not `/{provider}/start`).
            guard let (template, methods) = routes.methods(for: path), !methods.contains(request.method) else {
                return ServerReply.error(404, "not_found", "no such endpoint: \(path)", status: .notFound).response
            }
            // The route's template labels the answer in metrics and logs, as a match would.
            context.coreContext.endpointPath.value = template.description
            let names = methods.map(\.rawValue).joined(separator: ", ")
            var reply = ServerReply.error(405, "method_not_allowed", "\(path) takes \(names)", status: .methodNotAllowed)
            reply.headers[.allow] = names
            return reply.response
        } catch let refused as RefusedRequest {
            return refused.reply.response
        } catch is PasswordWork.Busy {
            return CaptureService.passwordWorkBusy.response
        } catch let error as StoreUnavailable {
            logger.warning("\(request.method.rawValue) \(request.uri.path): \(error)")
            return CaptureService.storeUnavailable.response
        } catch {
            logger.error("\(request.method.rawValue) \(request.uri.path) failed: \(error)")
            return ServerReply.error(500, "internal_error", "the server could not complete the request", status: .internalServerError).response
        }
    }
}

/// Every route's template and the methods it takes (in the order `Allow` names them), as the
/// routes are added: what `CaptureErrors` answers a 405 with.
final class RouteTable: Sendable {
    private let routes = Mutex<[(template: RouterPath, methods: [HTTPRequest.Method])]>([])

    func add(_ template: RouterPath, _ methods: [HTTPRequest.Method]) {
        routes.withLock { $0.append((template, methods)) }
    }

    /// The template `path` matches and its methods, or nil when no route has the path.
    func methods(for path: String) -> (RouterPath, [HTTPRequest.Method])? {
        let segments = path.split(separator: "/")
        return routes.withLock { routes in
            routes.first { Self.matches($0.template, segments) }.map { ($0.template, $0.methods) }
        }
    }

    /// Whether the segments of a path (empty ones left out, as the router does) match a template.
    static func matches(_ template: RouterPath, _ segments: [Substring]) -> Bool {
        var index = 0
        for element in template.components {
            if element == .recursiveWildcard { return index < segments.count }
            guard index < segments.count, element ~= segments[index] else { return false }
            index += 1
        }
        return index == segments.count
    }
}

/// HEAD as Hummingbird answers it (`Response.createHeadResponse()`): the headers of the GET,
/// its `Content-Length` included, without its body; for every answer, errors included.
struct HeadWithoutBody: RouterMiddleware {
    typealias Context = CaptureRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let response = try await next(request, context)
        return request.method == .head ? response.createHeadResponse() : response
    }
}

extension ServerReply {
    /// The reply as Hummingbird's response: its content type, `Cache-Control: no-store` unless
    /// it says otherwise, and its `Content-Length`.
    var response: Response {
        var headers = headers
        headers[.contentType] = contentType
        if headers[.cacheControl] == nil { headers[.cacheControl] = "no-store" }
        let body = bytes.map { ByteBuffer(bytes: $0) } ?? ByteBuffer(string: body)
        headers[.contentLength] = String(body.readableBytes)
        return Response(status: status, headers: headers, body: .init(byteBuffer: body))
    }
}
