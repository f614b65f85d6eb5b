import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers the requests refused before any route runs with Capture-style JSON, then closes
/// the connection: those NIO's HTTP parser refuses (a garbage request line, a request line or
/// headers over the decoder's limits, a bad `Content-Length`), and those whose declared
/// `Content-Length` (with the query string) is over `maximumRequestSize`, answered 413 as soon
/// as the head arrives, without waiting for a body. Without it Hummingbird answers a parse
/// error with a bare 400 and an empty body, and reads a body before refusing its size.
///
/// It sits after the HTTP codec, in Hummingbird's `additionalChannelHandlers`, and answers
/// only when no response is under way on the connection (a parse error in the middle of a
/// request whose answer is being written goes on to Hummingbird, which closes the connection;
/// an oversized request pipelined behind one being answered goes on to its route, which
/// refuses it the same way).
///
/// It refuses an HTTP/1.1 request without one `Host` header (`HTTPVersionHandler.BadHost`)
/// the same way, with a 400.
///
/// It also ends `RequestDeadlineHandler`'s request clock when a request's end is read (and
/// tells it when an answer's end is written, which starts its idle clock again), and answers
/// 408 for a request that did not arrive in time while no request is in the server's hands
/// (else the error goes on to the route reading the body, which answers the same 408).
final class MalformedRequestHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPRequestPart
    typealias InboundOut = HTTPRequestPart
    typealias OutboundIn = HTTPResponsePart
    typealias OutboundOut = HTTPResponsePart

    /// The limits of the HTTP decoder (Hummingbird's defaults, set explicitly so that
    /// docs/local-server.md can name them): the request line and each header at most 80 KiB,
    /// all of them together 80 KiB, at most 1,000 header fields.
    static let decoderLimits = HTTP1Channel.Configuration.DecoderConfiguration(
        maxHeaderFieldSize: 80 * 1024, maxHeaderListSize: 80 * 1024, maxHeaderFieldCount: 1000)

    /// The largest query string and body together (`maximumRequestSize`).
    let maximumRequestSize: Int

    /// Request heads read and responses finished on this connection.
    private var requests = 0
    private var responses = 0
    private var answered = false
    /// Whether a request's head was read and its end not yet.
    private var reading = false

    init(maximumRequestSize: Int) {
        self.maximumRequestSize = maximumRequestSize
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        // Once answered, the rest of the connection's input is dropped.
        if answered { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            if requests == responses, let refused = Self.refusal(of: head, limit: maximumRequestSize) {
                answer(context: context, reply: refused)
                return
            }
            requests += 1
            reading = true
        case .body:
            break
        case .end:
            reading = false
            context.triggerUserOutboundEvent(RequestDeadlineHandler.RequestRead(), promise: nil)
        }
        context.fireChannelRead(data)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is RequestDeadlineHandler.Expired else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        if answered { return }
        if requests == responses, !reading {
            answer(context: context, reply: .requestTimeout)
        } else {
            context.fireErrorCaught(RequestDeadlineHandler.Expired())
        }
    }

    /// The 413 for a request whose declared body does not fit beside its query string.
    static func refusal(of head: HTTPRequest, limit: Int) -> ServerReply? {
        guard let declared = head.headerFields[.contentLength].flatMap({ Int($0) }) else { return nil }
        let target = head.path?.utf8 ?? "".utf8
        let query = target.firstIndex(of: UInt8(ascii: "?")).map { target[target.index(after: $0)...].count } ?? 0
        guard declared > limit - query else { return nil }
        return .tooLarge(limit: limit, withQuery: query > 0)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard case .end = unwrapOutboundIn(data) else {
            context.write(data, promise: promise)
            return
        }
        responses += 1
        context.write(data, promise: promise)
        context.triggerUserOutboundEvent(RequestDeadlineHandler.ResponseWritten(), promise: nil)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Once answered, the rest of the request (which the decoder refuses to read) is dropped.
        if answered { return }
        guard requests == responses else {
            context.fireErrorCaught(error)
            return
        }
        if let parserError = error as? HTTPParserError {
            answer(context: context, reply: Self.reply(to: parserError))
        } else if error is HTTPVersionHandler.BadHost {
            answer(context: context, reply: .error(400, "bad_request", "an HTTP/1.1 request needs one Host header", status: .badRequest))
        } else {
            context.fireErrorCaught(error)
        }
    }

    /// Writes `reply` with `Connection: close`, then closes the connection.
    private func answer(context: ChannelHandlerContext, reply: ServerReply) {
        answered = true
        let body = ByteBuffer(string: reply.body)
        let head = HTTPResponse(
            status: reply.status,
            headerFields: [
                .contentType: reply.contentType, .contentLength: String(body.readableBytes), .connection: "close", .cacheControl: "no-store"
            ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in ConnectionClosing.afterAnswer(channel) }
    }

    /// 431 for a request line or headers over the limits, 400 for anything else the parser refuses.
    static func reply(to error: HTTPParserError) -> ServerReply {
        switch error {
        case .headerOverflow:
            return .error(
                431, "request_headers_too_large", "the request line or the headers are larger than 80 KiB (or more than 1000 header fields)",
                status: .init(code: 431))
        case .invalidContentLength, .unexpectedContentLength:
            return .error(400, "bad_request", "the Content-Length header is not valid", status: .badRequest)
        default:
            return .error(400, "bad_request", "the HTTP request is malformed", status: .badRequest)
        }
    }
}
