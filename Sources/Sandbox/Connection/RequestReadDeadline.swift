import NIOCore

/// Told (as an outbound user event) by `HTTP1EdgeHandler` when a request's last part is in.
struct RequestFullyReceived {}

/// Asks the front of the pipeline to send these bytes as they are, then close. Used for an
/// answer the HTTP encoder would spoil (it strips the body and length from any CONNECT answer).
struct SendRawAndClose {
    let bytes: ByteBuffer
}

/// Gives a client `timeout` from a request's first byte to its last, so a slow or stalled sender
/// (a half-sent header, a trickled body) is disconnected instead of holding the connection.
/// It sits first in the pipeline, on raw bytes, so it sees a request start before any parsing.
final class RequestReadDeadline: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private let timeout: TimeAmount
    private var deadline: Scheduled<Void>?

    init(timeout: TimeAmount) {
        self.timeout = timeout
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if deadline == nil, unwrapInboundIn(data).readableBytes > 0 {
            deadline = context.eventLoop.assumeIsolated().scheduleTask(in: timeout) {
                context.close(promise: nil)
            }
        }
        context.fireChannelRead(data)
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        switch event {
        case is RequestFullyReceived:
            stop()
            promise?.succeed(())
        case let raw as SendRawAndClose:
            stop()
            context.writeAndFlush(wrapOutboundOut(.byteBuffer(raw.bytes)), promise: nil)
            context.close(promise: promise)
        default:
            context.triggerUserOutboundEvent(event, promise: promise)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        stop()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stop()
    }

    private func stop() {
        deadline?.cancel()
        deadline = nil
    }
}
