import Foundation
import Hummingbird
import Logging
import Sandbox

/// The checkout's local webhook receiver (127.0.0.1, a free port by default): one HTTP server
/// that hands every POST to a provider's handler. Adyen's webhooks and Antom's notifyPayment
/// both arrive here.
///
/// It is never cancelled: cancelling it while a delivery is being accepted traps in NIO
/// ("Deinited NIOAsyncWriter without calling finish()", swift-nio#2813), and a late delivery is
/// likely just then. It ends with the process.
public actor LocalWebhookServer {
    /// What arrived: the path, the headers (names in lower case) and the raw body.
    public struct Delivery: Sendable {
        public let path: String
        public let headers: [String: String]
        public let body: Data
    }

    /// The answer to a delivery.
    public struct Answer: Sendable {
        public let status: HTTPResponse.Status
        public let body: String
        public let contentType: String

        public init(status: HTTPResponse.Status, body: String, contentType: String = "text/plain; charset=utf-8") {
            self.status = status
            self.body = body
            self.contentType = contentType
        }
    }

    public typealias Handler = @Sendable (Delivery) async -> Answer

    private let host: String
    private let port: Int
    private let name: String
    private var server: Task<Void, Never>?
    public private(set) var url: String?

    public init(name: String, host: String = "127.0.0.1", port: Int = 0) {
        self.name = name
        self.host = host
        self.port = port
    }

    /// Starts serving `handler` (once); returns the server's base URL, `http://127.0.0.1:PORT/`.
    public func start(_ handler: @escaping Handler) async throws -> String {
        if let url { return url }
        let bound = AsyncThrowingStream<Int, any Error>.makeStream()
        let router = Router()
        let serve: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            let data = try await request.body.collect(upTo: 1 << 20)
            var headers: [String: String] = [:]
            for field in request.headers { headers[field.name.canonicalName] = field.value }
            let answer = await handler(Delivery(path: request.uri.path, headers: headers, body: Data(buffer: data)))
            var response = Response(status: answer.status, body: ResponseBody(byteBuffer: ByteBuffer(string: answer.body)))
            response.headers[.contentType] = answer.contentType
            return response
        }
        // Adyen posts to the root; Antom to the path in its paymentNotifyUrl.
        router.post("/", use: serve)
        router.post("**", use: serve)
        var quiet = Logger(label: name)
        quiet.logLevel = .critical
        let app = try LocalHTTPService(
            responder: router.buildResponder(), address: .hostname(host, port: port), serverName: "TerminalCheckout-Webhooks",
            logger: quiet, onServerRunning: { channel in bound.continuation.yield(channel.localAddress?.port ?? 0) })
        server = Task {
            do {
                try await app.run()
                bound.continuation.finish()
            } catch {
                bound.continuation.finish(throwing: error)
            }
        }
        for try await port in bound.stream {
            let url = "http://\(host):\(port)/"
            self.url = url
            return url
        }
        throw CancellationError()
    }

    /// Serves until the process ends (`checkout listen`).
    public func wait() async {
        await server?.value
    }
}
