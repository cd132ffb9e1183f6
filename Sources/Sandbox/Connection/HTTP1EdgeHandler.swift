import NIOCore
import NIOHTTP1

/// The HTTP/1 framing the layers above cannot see, between the decoder and Hummingbird:
/// - a request that did not ask to keep the connection (HTTP/1.0 without keep-alive, or
///   `Connection: close` in any spelling) is answered with `Connection: close`, then closed;
/// - an answer saying `Connection: close` (a refused, unread body) closes the connection too;
/// - CONNECT, which this server never tunnels, gets 405 with a length and a body, then a close;
/// - a request's end tells `RequestReadDeadline` the whole request is in.
final class HTTP1EdgeHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The raw 405 answer to CONNECT.
    private let connectRefusal: ByteBuffer
    /// The Connection header each request awaiting its answer asked for, oldest first.
    private var pending: [String?] = []
    private var closeAfterAnswer = false
    private var refusedConnect = false

    init(connectRefusal: ByteBuffer) {
        self.connectRefusal = connectRefusal
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refusedConnect else { return }
        switch unwrapInboundIn(data) {
        case .head(var head):
            if head.method == .CONNECT {
                refusedConnect = true
                context.triggerUserOutboundEvent(SendRawAndClose(bytes: connectRefusal), promise: nil)
                return
            }
            if !head.isKeepAlive {
                // Hummingbird stops after a request whose Connection header is exactly "close".
                head.headers.replaceOrAdd(name: "connection", value: "close")
                pending.append("close")
            } else {
                pending.append(head.version == .http1_0 ? "keep-alive" : nil)
            }
            context.fireChannelRead(wrapInboundOut(.head(head)))
        case .body:
            context.fireChannelRead(data)
        case .end:
            context.triggerUserOutboundEvent(RequestFullyReceived(), promise: nil)
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            let asked = pending.isEmpty ? nil : pending.removeFirst()
            let answerCloses = head.headers[canonicalForm: "connection"].contains { $0.lowercased() == "close" }
            closeAfterAnswer = asked == "close" || answerCloses
            if closeAfterAnswer {
                head.headers.replaceOrAdd(name: "connection", value: "close")
            } else if let asked {
                head.headers.replaceOrAdd(name: "connection", value: asked)
            }
            context.write(wrapOutboundOut(.head(head)), promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            guard closeAfterAnswer else { return context.write(data, promise: promise) }
            context.writeAndFlush(data, promise: promise)
            context.close(promise: nil)
        }
    }
}
