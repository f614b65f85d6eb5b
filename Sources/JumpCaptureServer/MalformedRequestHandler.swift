import HTTPTypes
import HummingbirdCore
import NIOCore
import NIOHTTP1
import NIOHTTPTypes

/// Answers the requests NIO's HTTP parser refuses before any route runs (a garbage request
/// line, a request line or headers over the decoder's limits, a bad `Content-Length`) with
/// Capture-style JSON, then closes the connection. Without it Hummingbird answers a bare 400
/// with an empty body.
///
/// It sits after the HTTP codec, in Hummingbird's `additionalChannelHandlers`, and answers
/// only when no response is under way on the connection (a parse error in the middle of a
/// request whose answer is being written goes on to Hummingbird, which closes the connection).
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

    /// Request heads read and responses finished on this connection.
    private var requests = 0
    private var responses = 0
    private var answered = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .head = unwrapInboundIn(data) { requests += 1 }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if case .end = unwrapOutboundIn(data) { responses += 1 }
        context.write(data, promise: promise)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // Once answered, the rest of the request (which the decoder refuses to read) is dropped.
        if answered { return }
        guard let parserError = error as? HTTPParserError, requests == responses else {
            context.fireErrorCaught(error)
            return
        }
        answered = true
        let reply = Self.reply(to: parserError)
        let body = ByteBuffer(string: reply.body)
        let head = HTTPResponse(status: reply.status, headerFields: [
            .contentType: reply.contentType, .contentLength: String(body.readableBytes), .connection: "close", .cacheControl: "no-store",
        ])
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(body)), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in
            // Half-close, so the client reads the answer: closing with request bytes unread
            // would reset the connection, and a reset can lose the answer on its way. The
            // connection ends when the client closes its side, or after five seconds.
            channel.close(mode: .output).whenFailure { _ in channel.close(promise: nil) }
            channel.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
        }
    }

    /// 431 for a request line or headers over the limits, 400 for anything else the parser refuses.
    static func reply(to error: HTTPParserError) -> ServerReply {
        switch error {
        case .headerOverflow:
            return .error(431, "request_headers_too_large", "the request line or the headers are larger than 80 KiB (or more than 1000 header fields)",
                          status: .init(code: 431))
        case .invalidContentLength, .unexpectedContentLength:
            return .error(400, "bad_request", "the Content-Length header is not valid", status: .badRequest)
        default:
            return .error(400, "bad_request", "the HTTP request is malformed", status: .badRequest)
        }
    }
}
