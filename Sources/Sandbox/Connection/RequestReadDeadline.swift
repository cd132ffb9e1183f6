import NIOCore

/// Asks the front of the pipeline to send these bytes as they are, then close. Used for an
/// answer the HTTP encoder would spoil (it strips the body and length from any CONNECT answer).
struct SendRawAndClose {
    let bytes: ByteBuffer
}

/// Gives a client `timeout` from a request's first byte to its last, so a slow or stalled sender
/// (a half-sent header, a trickled body) is disconnected instead of holding the connection.
/// It sits first in the pipeline, on raw bytes, so it sees a request start before any parsing;
/// `HTTP1EdgeHandler` tells it (`requestFullyReceived`) when the request's last part is in.
///
/// A request only notes when it started. One timer per connection checks that note when it is
/// due and sets itself again for a request still coming in, so a busy keep-alive connection
/// schedules (and cancels) nothing per request.
final class RequestReadDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let timeout: TimeAmount
    /// When the request now coming in sent its first byte; nil between requests.
    private var requestStarted: NIODeadline?
    private var check: Scheduled<Void>?
    private var context: ChannelHandlerContext?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if requestStarted == nil, unwrapInboundIn(data).readableBytes > 0 {
            let now = NIODeadline.now()
            requestStarted = now
            if check == nil { scheduleCheck(at: now + timeout) }
        }
        context.fireChannelRead(data)
    }

    /// The request's last part is in: its deadline no longer applies.
    func requestFullyReceived() {
        requestStarted = nil
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        if let raw = event as? SendRawAndClose {
            stop()
            context.writeAndFlush(wrapOutboundOut(.byteBuffer(raw.bytes)), promise: nil)
            context.close(promise: promise)
        } else {
            context.triggerUserOutboundEvent(event, promise: promise)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
        self.context = nil
    }

    private func scheduleCheck(at due: NIODeadline) {
        guard let context else { return }
        check = context.eventLoop.assumeIsolated().scheduleTask(deadline: due) { [self] in
            check = nil
            guard let started = requestStarted else { return }
            let due = started + timeout
            if NIODeadline.now() >= due {
                requestStarted = nil
                self.context?.close(promise: nil)
            } else {
                scheduleCheck(at: due)
            }
        }
    }

    private func stop() {
        check?.cancel()
        check = nil
        requestStarted = nil
    }
}
