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
    private var expiry: Scheduled<Void>?
    private var expired = false

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if expiry == nil, !expired {
            expiry = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) { [self] in
                expiry = nil
                expired = true
                context.fireUserInboundEventTriggered(Expired())
                let channel = context.channel
                channel.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
            }
        }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard event is RequestRead else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        expiry?.cancel()
        expiry = nil
        promise?.succeed()
    }

    func channelInactive(context: ChannelHandlerContext) {
        expiry?.cancel()
        expiry = nil
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        expiry?.cancel()
        expiry = nil
    }
}
