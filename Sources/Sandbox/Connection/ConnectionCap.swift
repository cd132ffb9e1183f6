import NIOCore

/// Holds a connection's place under the cap from the moment it is up until it goes down; one
/// over the cap is closed at once, which frees its file descriptor and leaves the open ones
/// alone. It acts on channelActive, after registration: a channel closed before the server
/// has received it would be dropped unfinished, which NIO traps on.
final class ConnectionCap: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let gate: ConnectionGate
    private var holdsPlace = false

    init(gate: ConnectionGate) {
        self.gate = gate
    }

    func channelActive(context: ChannelHandlerContext) {
        holdsPlace = true
        guard gate.admit() else { return context.close(promise: nil) }
        context.fireChannelActive()
    }

    func channelInactive(context: ChannelHandlerContext) {
        // Given back as soon as the socket is closed, not a loop tick later with closeFuture.
        if holdsPlace { gate.release() }
        holdsPlace = false
        context.fireChannelInactive()
    }
}
