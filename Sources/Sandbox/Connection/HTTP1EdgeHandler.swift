import NIOCore
import NIOHTTP1

/// The HTTP/1 framing the layers above cannot see, between the decoder and Hummingbird:
/// - a request that did not ask to keep the connection (HTTP/1.0 without keep-alive, or
///   `Connection: close` in any spelling) is answered with `Connection: close`, then closed;
/// - an answer saying `Connection: close` (a refused, unread body) closes the connection too;
/// - CONNECT, which this server never tunnels, gets 405 with a length and a body, then a close;
/// - a request's end tells `RequestReadDeadline` the whole request is in.
/// A part it does not change is passed on as it came, not unwrapped and wrapped again.
final class HTTP1EdgeHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart
    typealias OutboundIn = HTTPServerResponsePart
    typealias OutboundOut = HTTPServerResponsePart

    /// The raw 405 answer to CONNECT.
    private let connectRefusal: ByteBuffer
    private let readDeadline: RequestReadDeadline
    /// The Connection header each request awaiting its answer asked for, oldest first.
    private var pending: [String?] = []
    private var closeAfterAnswer = false
    private var refusedConnect = false

    init(connectRefusal: ByteBuffer, readDeadline: RequestReadDeadline) {
        self.connectRefusal = connectRefusal
        self.readDeadline = readDeadline
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
            guard head.isKeepAlive else {
                // Hummingbird stops after a request whose Connection header is exactly "close".
                head.headers.replaceOrAdd(name: "connection", value: "close")
                pending.append("close")
                return context.fireChannelRead(wrapInboundOut(.head(head)))
            }
            pending.append(head.version == .http1_0 ? "keep-alive" : nil)
            context.fireChannelRead(data)
        case .body:
            context.fireChannelRead(data)
        case .end:
            readDeadline.requestFullyReceived()
            context.fireChannelRead(data)
        }
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(var head):
            let asked = pending.isEmpty ? nil : pending.removeFirst()
            closeAfterAnswer = asked == "close" || Self.saysClose(head.headers)
            if closeAfterAnswer {
                head.headers.replaceOrAdd(name: "connection", value: "close")
            } else if let asked {
                head.headers.replaceOrAdd(name: "connection", value: asked)
            } else {
                return context.write(data, promise: promise)
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

    /// Whether a Connection header lists `close` (any case, among other tokens): what
    /// `headers[canonicalForm:]` would say, without splitting every header to ask.
    static func saysClose(_ headers: HTTPHeaders) -> Bool {
        headers.contains { name, value in
            name.utf8.count == 10 && name.lowercased() == "connection"
                && value.lowercased().split(separator: ",").contains { $0.trimmingBlanks == "close" }
        }
    }
}

extension Substring {
    /// Without leading and trailing spaces and tabs.
    fileprivate var trimmingBlanks: Substring {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return self[first...last]
    }
}
