import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1

/// Hummingbird's HTTP/1 channel with the sandbox's bounds added to each connection's pipeline:
/// a cap on open connections, a deadline for each request's bytes (the idle timeout is
/// Hummingbird's own) and the HTTP/1 edges (`HTTP1EdgeHandler`).
struct SandboxHTTPChannel: ServerChildChannel {
    typealias Value = HTTP1Channel.Value

    let http1: HTTP1Channel
    let gate: ConnectionGate
    let requestReadTimeout: TimeAmount
    let connectRefusal: ByteBuffer

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        http1.setup(channel: channel, logger: logger).flatMapThrowing { [gate, requestReadTimeout, connectRefusal] value in
            let pipeline = channel.pipeline.syncOperations
            let decoder = try pipeline.handler(type: ByteToMessageHandler<HTTPRequestDecoder>.self)
            let readDeadline = RequestReadDeadline(timeout: requestReadTimeout)
            try pipeline.addHandler(HTTP1EdgeHandler(connectRefusal: connectRefusal, readDeadline: readDeadline), position: .after(decoder))
            try pipeline.addHandler(readDeadline, position: .first)
            try pipeline.addHandler(ConnectionCap(gate: gate), position: .first)
            return value
        }
    }

    func handle(value: Value, logger: Logger) async {
        await http1.handle(value: value, logger: logger)
    }
}

extension TimeAmount {
    /// Seconds as the flags give them; the limits' ranges keep this far from overflowing.
    static func fractionalSeconds(_ seconds: Double) -> TimeAmount {
        .nanoseconds(Int64((seconds * 1_000_000_000).rounded()))
    }
}
