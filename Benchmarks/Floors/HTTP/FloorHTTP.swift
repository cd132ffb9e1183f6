// P2's and P4's floor: Hummingbird on loopback and AsyncHTTPClient, doing the least.
//   bench-floor-http calls FILE       start the server, make the calls FILE lists (bench.py
//                                     writes it from our own `checkout run --record`: same
//                                     count, methods and body sizes), stop, exit
//   bench-floor-http serve [PORT]     serve until killed (print the base URL first): GET /hello,
//                                     and any other path with a fixed JSON answer (P4's script)
import AsyncHTTPClient
import Hummingbird
import Logging
import NIOCore

@main
struct FloorHTTP {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        switch (arguments.first, arguments.count) {
        case ("calls", 2):
            let calls: [FloorCall]
            do { calls = try FloorCalls.read(arguments[1]) } catch { fail(error.message) }
            try await makeCalls(calls)
        case ("serve", 1), ("serve", 2):
            guard let port = arguments.count == 2 ? Int(arguments[1]) : 0, (0...65535).contains(port) else { fail("PORT must be 0…65535") }
            try await serve(port: port)
        default:
            fail("usage: bench-floor-http calls FILE | serve [PORT]")
        }
    }

    static func fail(_ message: String) -> Never {
        let line = "bench-floor-http: \(message)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        exit(64)
    }

    /// Answers any path with `respond` bytes (the size the provider answers with).
    static func router() -> Router<BasicRequestContext> {
        let router = Router()
        let answer: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, context in
            _ = try await request.body.collect(upTo: 1 << 20)
            var buffer = ByteBuffer()
            if let size = request.uri.queryParameters.get("respond", as: Int.self) {
                buffer.writeRepeatingByte(UInt8(ascii: "x"), count: size)
            } else {
                // P4's load script (shared with the sandbox's run) reads an id from each answer:
                // a fixed customer request, as many bytes as the sandbox's own answer.
                buffer.writeString(fixedCustomerRequest)
            }
            let status: HTTPResponse.Status = request.method == .post ? .created : .ok
            return Response(status: status, headers: [.contentType: "application/json"], body: .init(byteBuffer: buffer))
        }
        router.get("hello") { _, _ in "hello" }
        router.get("**", use: answer)
        router.post("**", use: answer)
        router.patch("**", use: answer)
        return router
    }

    static func makeCalls(_ calls: [FloorCall]) async throws {
        var logger = Logger(label: "floor")
        logger.logLevel = .critical
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let app = Application(
            router: router(), configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { portContinuation.yield($0.localAddress?.port ?? 0) }, logger: logger)
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try await app.runService() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { return }
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            do {
                for call in calls {
                    var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(call.path)?respond=\(call.responseBytes)")
                    request.method = call.method
                    if call.requestBytes > 0 {
                        request.headers.add(name: "Content-Type", value: "application/json")
                        request.body = .bytes(ByteBuffer(repeating: UInt8(ascii: "x"), count: call.requestBytes))
                    }
                    let response = try await client.execute(request, timeout: .seconds(10))
                    _ = try await response.body.collect(upTo: 1 << 20)
                }
            } catch {
                try await client.shutdown()
                throw error
            }
            try await client.shutdown()
            group.cancelAll()
        }
    }

    static func serve(port: Int) async throws {
        var logger = Logger(label: "floor")
        logger.logLevel = .critical
        let app = Application(
            router: router(), configuration: .init(address: .hostname("127.0.0.1", port: port)),
            onServerRunning: { channel in
                print("http://127.0.0.1:\(channel.localAddress?.port ?? port)")
                fflush(nil)
            }, logger: logger)
        try await app.runService()
    }
}

/// A Cash App customer request as the sandbox answers a create (910 bytes), fixed.
let fixedCustomerRequest = #"""
{"request":{"actions":[{"amount":4505,"currency":"USD","scope_id":"BRAND_terminalcheckout","type":"ONE_TIME_PAYMENT"}],"auth_flow_triggers":{"mobile_url":"http://127.0.0.1:37405/sandbox/customer-requests/GRR_msx50j25yr9629g7hiyzj09yhp/authorize?t=0-k7cbpaap","qr_code_image_url":"http://127.0.0.1:37405/sandbox/customer-requests/GRR_msx50j25yr9629g7hiyzj09yhp/qr.png?t=0-k7cbpaap","qr_code_svg_url":"http://127.0.0.1:37405/sandbox/customer-requests/GRR_msx50j25yr9629g7hiyzj09yhp/qr.svg?t=0-k7cbpaap","refreshes_at":"2026-11-23T08:42:46.526Z"},"channel":"ONLINE","created_at":"2026-11-23T08:42:16.526Z","expires_at":"2026-11-23T09:42:16.526Z","id":"GRR_msx50j25yr9629g7hiyzj09yhp","origin":{"type":"DIRECT"},"redirect_url":"terminalcheckout://checkout/return","reference_id":"bench-1","requester_profile":{"name":"TerminalCheckout Sandbox Merchant"},"status":"PENDING","updated_at":"2026-11-23T08:42:16.526Z"}}
"""#
