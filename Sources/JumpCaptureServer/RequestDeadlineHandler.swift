import NIOCore

/// Bounds the time one request may take to arrive, from its first byte to its end (request
/// line, headers and body). The idle timeout starts again with every byte read, so without it
/// a client sending a byte now and then (slowloris) would keep its connection, and the memory
/// it holds, forever.
///
/// It sits first in the pipeline, before the HTTP decoder, where a request's bytes arrive: the
/// first bytes read while no request is being read start the clock, and the decoded end of the
/// request stops it (`MalformedRequestHandler` sends `RequestRead`, an outbound event). When
/// the time is up it sends `Expired` down the pipeline: `MalformedRequestHandler` answers 408
/// when no request is in the server's hands, else passes `Expired` on as an error, which the
/// dispatcher reading the body answers with the same 408 (and Hummingbird, between requests,
/// with closing the connection). The connection closes after the answer, or five seconds
/// after the time was up.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The outbound event that says the end of a request was read.
    struct RequestRead {}

    /// The inbound event that says a request did not arrive in time, and the error a reader of
    /// its body gets.
    struct Expired: Error {}

    let timeout: TimeAmount
    /// When the first byte of the request being read arrived; nil between requests.
    private var requestStart: NIODeadline?
    /// The one check scheduled on the connection. It is not cancelled at each request's end:
    /// when it runs it looks at the request read then (none: it stops; a later one: it moves
    /// to that one's deadline), so a keep-alive connection schedules about one check per
    /// `timeout` instead of one timer per request (which cost ~5 µs of every request).
    private var check: Scheduled<Void>?
    private var expired = false

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if requestStart == nil, !expired {
            let now = NIODeadline.now()
            requestStart = now
            if check == nil { scheduleCheck(context: context, at: now + timeout) }
        }
        context.fireChannelRead(data)
    }

    private func scheduleCheck(context: ChannelHandlerContext, at deadline: NIODeadline) {
        check = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            check = nil
            guard let start = requestStart else { return }
            let due = start + timeout
            if due > .now() {
                scheduleCheck(context: context, at: due)
                return
            }
            requestStart = nil
            expired = true
            context.fireUserInboundEventTriggered(Expired())
            let channel = context.channel
            channel.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
        }
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is RequestRead else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        requestStart = nil
        promise?.succeed()
    }

    func channelInactive(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        check?.cancel()
        check = nil
    }
}
