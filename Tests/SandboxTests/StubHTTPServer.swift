import Hummingbird
import Logging

/// A test's own HTTP server on 127.0.0.1 port 0 (a stand-in provider or merchant endpoint).
/// `stop` only stops it being used: the server is left serving until the test process ends,
/// as the app's webhook receiver is, because shutting a Hummingbird server down while a late
/// connection (a retried webhook) is being accepted traps in NIO ("Deinited NIOAsyncWriter
/// without calling finish()", swift-nio#2813).
enum StubHTTPServer {
    static func start(_ router: Router<BasicRequestContext>, label: String) async -> (url: String, stop: @Sendable () async -> Void) {
        let port = AsyncStream<Int>.makeStream()
        var quiet = Logger(label: label)
        quiet.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { port.continuation.yield($0.localAddress?.port ?? 0) }, logger: quiet)
        Task {
            try? await app.run()
            port.continuation.finish()
        }
        var bound = 0
        for await value in port.stream {
            bound = value
            break
        }
        return ("http://127.0.0.1:\(bound)", {})
    }
}
