import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypesHTTP1

/// Keeps what Hummingbird's version-free HTTP types lose: an HTTP/1.0 request is answered as
/// HTTP/1.0, and a request that does not ask to keep the connection alive (HTTP/1.0 without
/// `Connection: keep-alive`, or `Connection: close`) gets `Connection: close` and the
/// connection closes after its answer; so does the connection of an answer that says
/// `Connection: close`.
///
/// It refuses (RFC 9112, section 3.2) an HTTP/1.1 request without a `Host` header, and any
/// request with more than one: it passes `BadHost` on as an error, which
/// `MalformedRequestHandler` answers with a 400, and drops the rest of the connection's input.
///
/// It sits between NIO's HTTP/1 codec and Hummingbird's conversion to HTTP types
/// (`CaptureHTTP1Channel` puts it there), where the version is still known.
final class HTTPVersionHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// A request without the one `Host` header HTTP/1.1 requires, or with several.
    struct BadHost: Error {}

    /// The requests whose answers are not written yet, oldest first.
    private var pending: [(version: HTTPVersion, keepAlive: Bool)] = []
    /// Whether a request was refused: the rest of the input is dropped.
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if refused { return }
        guard case .head(var head) = unwrapInboundIn(data) else {
            context.fireChannelRead(data)
            return
        }
        let hosts = head.headers["host"].count
        if hosts > 1 || (hosts == 0 && head.version.major == 1 && head.version.minor >= 1) {
            refused = true
            context.fireErrorCaught(BadHost())
            return
        }
        pending.append((head.version, head.isKeepAlive))
        if !head.isKeepAlive {
            // Hummingbird ends the connection after answering a request that says `close`.
            head.headers.replaceOrAdd(name: "connection", value: "close")
        }
        context.fireChannelRead(wrapInboundOut(.head(head)))
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            // An answer that says `Connection: close` (a body the server would not read) ends
            // the connection like a request that did not ask to keep it.
            if !pending.isEmpty, head.headers[canonicalForm: "connection"].contains(where: { $0.lowercased() == "close" }) {
                pending[0].keepAlive = false
            }
            if let request = pending.first {
                if request.version.major == 1, request.version.minor == 0 {
                    head.version = .http1_0
                    if request.keepAlive { head.headers.replaceOrAdd(name: "connection", value: "keep-alive") }
                }
                if !request.keepAlive { head.headers.replaceOrAdd(name: "connection", value: "close") }
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            let request = pending.isEmpty ? nil : pending.removeFirst()
            guard let request, !request.keepAlive else {
                context.write(data, promise: promise)
                return
            }
            let channel = context.channel
            context.writeAndFlush(data).whenComplete { result in
                promise?.completeWith(result)
                ConnectionClosing.afterAnswer(channel)
            }
        }
    }
}

/// How the server ends a connection once its last answer is written.
enum ConnectionClosing {
    /// Half-closes the connection, so that the client reads the answer (closing with request
    /// bytes unread would reset the connection, and a reset can lose the answer on its way),
    /// and closes it for good when the client closes its side or after five seconds.
    static func afterAnswer(_ channel: any Channel) {
        channel.close(mode: .output).whenFailure { _ in channel.close(promise: nil) }
        channel.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
    }
}

/// Hummingbird's HTTP/1 channel with `HTTPVersionHandler` placed before its conversion to
/// HTTP types, and `RequestDeadlineHandler` (the idle and request timeouts) before the HTTP
/// decoder; each connection is first admitted by the `ConnectionLimit` (or closed at once).
struct CaptureHTTP1Channel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value
    /// Hummingbird's channel, its own idle timeout off (`RequestDeadlineHandler` keeps it).
    let http1: HTTP1Channel
    /// How long a connection may send nothing while the server is not answering it.
    let idleTimeout: TimeAmount
    /// How long one request may take to arrive.
    let requestTimeout: TimeAmount
    let connections: ConnectionLimit?

    /// The connection was refused: it is over the connection cap and none is idle.
    struct Refused: Error {}

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        var slot: ConnectionLimit.Slot?
        if let connections {
            guard let admitted = connections.admit(channel) else {
                logger.info(
                    "connection from \(channel.remoteAddress?.description ?? "?") closed at once: \(connections.maximum) connections are open and busy"
                )
                channel.close(promise: nil)
                return channel.eventLoop.makeFailedFuture(Refused())
            }
            slot = admitted
            channel.closeFuture.whenComplete { _ in connections.remove(admitted) }
        }
        return http1.setup(channel: channel, logger: logger).flatMapThrowing { [slot] value in
            let operations = channel.pipeline.syncOperations
            let conversion = try operations.context(handlerType: HTTP1ToHTTPServerCodec.self)
            try operations.addHandler(HTTPVersionHandler(), position: .before(conversion.handler))
            try operations.addHandler(RequestDeadlineHandler(idleTimeout: idleTimeout, requestTimeout: requestTimeout, slot: slot), position: .first)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}
