import HTTPTypes
import Hummingbird
import JumpCapture
import NIOCore
import NIOHTTP1

/// A request as a route's handler sees it: its parameters read from the query string and the
/// form body (within `maximumRequestSize`, together), and the client's address.
struct RouteRequest: Sendable {
    let request: Request
    let parameters: RequestParameters
    /// The IP address of the client's connection (the sign-in throttle counts failures by it).
    let client: String?

    var path: String { request.uri.path }
    var headers: HTTPFields { request.headers }
    var isPost: Bool { request.method == .post }

    /// Reads `request`'s parameters: the query string, and for a POST its form body. What
    /// cannot be read is thrown as a `RefusedRequest` (413 over `limit`, 400 for a transfer
    /// coding other than `chunked` or a body that does not arrive whole, 415 for a
    /// `Content-Encoding`, 408 for a body too slow); what is malformed is a Capture
    /// `invalid_argument` answer, also thrown.
    static func read(_ request: Request, context: CaptureRequestContext, limit: Int) async throws(RefusedRequest) -> RouteRequest {
        var pairs: [(name: String, value: String)] = []
        let query = request.uri.query ?? ""
        if query.utf8.count > limit {
            throw RefusedRequest(.error(413, "request_too_large", "the query string is larger than \(limit) bytes", status: .contentTooLarge))
        }
        if !query.isEmpty {
            guard let decoded = FormEncoding.decode(pairs: query) else { throw RefusedRequest(.invalid("query", "malformed query string")) }
            pairs += decoded
        }
        // `chunked` is the one transfer coding the server reads: `gzip, chunked` would hand it a
        // compressed body as if it were plain.
        if let codings = unsupportedTransferCodings(request.headers[values: .transferEncoding]) {
            throw RefusedRequest(
                closing(.error(400, "bad_request", "unsupported Transfer-Encoding '\(codings)': only chunked is read", status: .badRequest)))
        }
        // A compressed body would be read as if it were plain: 415, and the codings the server reads.
        if let coding = unsupportedContentCodings(request.headers[values: .contentEncoding]) {
            var reply = closing(
                .error(
                    415, "unsupported_content_encoding", "unsupported Content-Encoding '\(coding)': send the body unencoded",
                    status: .unsupportedMediaType))
            reply.headers[.acceptEncoding] = "identity"
            throw RefusedRequest(reply)
        }
        if request.method == .post {
            pairs += try await formBody(request, room: limit - query.utf8.count, limit: limit, withQuery: !query.isEmpty)
        }
        return RouteRequest(request: request, parameters: RequestParameters(pairs: pairs), client: context.remoteAddress?.ipAddress)
    }

    /// The pairs of a POST's form body of at most `room` bytes.
    private static func formBody(
        _ request: Request, room: Int, limit: Int, withQuery: Bool
    ) async throws(RefusedRequest) -> [(name: String, value: String)] {
        // A declared length over the limit is refused before reading (the connection's first
        // request is refused even earlier, by `MalformedRequestHandler`).
        let declared = request.headers[.contentLength].flatMap { Int($0) }
        if let declared, declared > room { throw RefusedRequest(.tooLarge(limit: limit, withQuery: withQuery)) }
        var request = request
        let body: ByteBuffer
        do {
            body = try await request.collectBody(upTo: room)
        } catch is NIOTooManyBytesError {
            throw RefusedRequest(.tooLarge(limit: limit, withQuery: withQuery))
        } catch {
            // Bad chunked encoding, an unknown transfer coding, a connection that ended or
            // timed out in the middle of the body.
            throw RefusedRequest(unreadableBody(error))
        }
        if let declared, body.readableBytes != declared { throw RefusedRequest(unreadableBody(nil)) }
        guard body.readableBytes > 0 else { return [] }
        if let type = request.headers[.contentType], let problem = formContentTypeProblem(type) {
            throw RefusedRequest(.invalid("Content-Type", problem))
        }
        guard let text = String(validating: body.readableBytesView, as: UTF8.self), let decoded = FormEncoding.decode(pairs: text) else {
            throw RefusedRequest(.invalid("body", "malformed application/x-www-form-urlencoded body"))
        }
        return decoded
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
}

/// A request refused before its route's handler runs (too large, unreadable, malformed), with
/// the Capture-shaped answer `CaptureErrors` gives.
struct RefusedRequest: Error {
    let reply: ServerReply

    init(_ reply: ServerReply) { self.reply = reply }
}

private extension Substring {
    /// Without the spaces and tabs around it (HTTP's optional white space).
    var trimmingSpaces: Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isSpace($0) }), let last = lastIndex(where: { !isSpace($0) }) else { return "" }
        return self[first...last]
    }
}
