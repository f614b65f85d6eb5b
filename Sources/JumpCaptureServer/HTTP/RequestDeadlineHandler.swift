import NIOCore

/// The connection's two clocks, on its bytes rather than on decoded HTTP parts:
///
/// - idle timeout: a connection that sends nothing for `idleTimeout` while the server is not
///   working on one of its requests is closed: between requests (or before the first) quietly;
///   in the middle of a request (request line, headers or body) with a 408;
/// - request timeout: one request has `requestTimeout` to arrive whole, from its first byte
///   to its end, however steadily its bytes come (a client sending a byte now and then,
///   slowloris, would otherwise keep its connection and the memory it holds forever); then it
///   is answered 408.
///
/// Hummingbird's own idle timeout is off: it counts decoded HTTP parts, so a request head
/// arriving a byte at a time looked idle and was closed at the idle timeout without an answer.
///
/// It sits first in the pipeline, before the HTTP decoder, where a request's bytes arrive: the
/// first bytes read while no request is being read start the request clock, and the decoded
/// end of the request stops it (`MalformedRequestHandler` sends `RequestRead`, an outbound
/// event; and `ResponseWritten` when an answer's end is written, which starts the idle clock
/// again). When a request's time is up it sends `Expired` down the pipeline:
/// `MalformedRequestHandler` answers 408 when no request is in the server's hands, else passes
/// `Expired` on as an error, which the route reading the body (`RouteRequest`) answers with the same 408
/// (and Hummingbird, between requests, with closing the connection). The connection closes
/// after the answer, or five seconds after the time was up.
///
/// It also tells the connection's `ConnectionLimit.Slot` whether the connection is idle, so
/// that at the connection cap the longest-idle one makes room for a new client.
final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer

    /// The outbound event that says the end of a request was read.
    struct RequestRead {}

    /// The outbound event that says the end of an answer was written.
    struct ResponseWritten {}

    /// The inbound event that says a request did not arrive in time, and the error a reader of
    /// its body gets.
    struct Expired: Error {}

    let idleTimeout: TimeAmount
    let requestTimeout: TimeAmount
    let slot: ConnectionLimit.Slot?
    /// When the first byte of the request being read arrived; nil between requests.
    private var requestStart: NIODeadline?
    /// When the last byte was read, or the last answer written.
    private var lastActivity = NIODeadline.now()
    /// Requests read whose answers are not written yet.
    private var inHands = 0
    /// The one check scheduled on the connection, and when it runs. It is not cancelled as
    /// requests come and go: when it runs it looks at the connection then and moves to the next
    /// deadline, so a keep-alive connection schedules about one check per `idleTimeout`
    /// instead of one timer per request (which cost ~5 µs of every request).
    private var check: Scheduled<Void>?
    private var checkAt: NIODeadline?
    private var started = false
    private var expired = false

    init(idleTimeout: TimeAmount, requestTimeout: TimeAmount, slot: ConnectionLimit.Slot? = nil) {
        self.idleTimeout = idleTimeout
        self.requestTimeout = requestTimeout
        self.slot = slot
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        start(context: context)
        context.fireChannelActive()
    }

    private func start(context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        lastActivity = .now()
        schedule(context: context)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !expired {
            let now = NIODeadline.now()
            lastActivity = now
            if requestStart == nil {
                requestStart = now
                slot?.setBusy()
                // A check due later than this request's deadline comes too late.
                if let checkAt, checkAt > now + requestTimeout {
                    check?.cancel()
                    check = nil
                }
                schedule(context: context)
            }
        }
        context.fireChannelRead(data)
    }

    /// The next moment a deadline may pass: the idle one unless the server is working on a
    /// request (and none is arriving), and the request one while a request arrives.
    private var nextDeadline: NIODeadline? {
        var deadline: NIODeadline?
        if inHands == 0 || requestStart != nil { deadline = lastActivity + idleTimeout }
        if let requestStart { deadline = min(deadline ?? .distantFuture, requestStart + requestTimeout) }
        return deadline
    }

    private func schedule(context: ChannelHandlerContext) {
        guard check == nil, !expired, let deadline = nextDeadline else { return }
        checkAt = deadline
        check = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            check = nil
            checkAt = nil
            guard !expired, let due = nextDeadline else { return }
            if due > .now() {
                schedule(context: context)
                return
            }
            if requestStart != nil {
                // Too slow, or silent in the middle of a request: 408.
                requestStart = nil
                expired = true
                context.fireUserInboundEventTriggered(Expired())
                let channel = context.channel
                channel.eventLoop.scheduleTask(in: .seconds(5)) { channel.close(promise: nil) }
            } else {
                // Idle between requests.
                context.close(promise: nil)
            }
        }
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        switch event {
        case is RequestRead:
            requestStart = nil
            inHands += 1
        case is ResponseWritten:
            inHands = max(0, inHands - 1)
            lastActivity = .now()
            if inHands == 0, requestStart == nil { slot?.setIdle(lastActivity) }
            schedule(context: context)
        default:
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
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
