import AsyncHTTPClient
import Foundation
import Hummingbird
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix
import ProviderWire
import ServiceLifecycle
import Synchronization

/// The multi-instance soak's front door: one loopback address every checkout is pointed at, which
/// forwards each request to one of several `checkout sandbox` instances in turn, so a checkout's
/// calls alternate between them (a request made through one is read, approved and captured
/// through another). Turns are counted per checkout (its `TerminalCheckout-Run` header), each
/// checkout starting at the next instance, so every checkout alternates whatever the others do.
///
/// It forwards as it found: the Host header (so the links a sandbox hands out lead back here),
/// every status and body; a connection an instance closed without answering (a `reset` or `drop`
/// fault, an instance killed) is closed to the checkout the same way. An instance can be taken
/// out of the rotation and put back at a new address (`killOnNextRequest`, `rejoin`).
final class SoakBalancer: Sendable {
    private struct Backend {
        var url: String
        var inRotation = true
        var inFlight = 0
        var served = 0
    }

    /// The kill asked for: the next request with a body that falls to `backend`.
    private struct Arming {
        let backend: Int
        let kill: @Sendable () -> Void
        let done: CheckedContinuation<KillReport?, Never>
    }

    /// What the kill cut short: the request it waited for, and how many were at the instance then.
    struct KillReport: Sendable {
        let request: String
        let inFlight: Int
    }

    private struct State {
        var backends: [Backend]
        /// Each checkout's next turn, by its run id.
        var turns: [String: Int] = [:]
        var checkoutsSeen = 0
        /// Requests without a run id (the soak's own) take turns among themselves.
        var unnamedTurn = 0
        var arming: Arming?
        var disarmed = false
        /// The addresses of instances killed, and the runs (`TerminalCheckout-Run`) of the
        /// requests that were at them and closed unanswered.
        var killedURLs: Set<String> = []
        var cutRuns: [String] = []
    }

    private let state: Mutex<State>
    private let client: HTTPClient
    /// The largest body forwarded either way.
    private static let bodyLimit = 16 << 20

    init(instances: [String]) {
        state = Mutex(State(backends: instances.map { Backend(url: $0) }))
        // No redirects followed (the checkout follows them), refused connections reported at once
        // (the request then goes to another instance), idle connections closed well before the
        // sandbox's own 60 s idle timeout could race a request onto a closing connection.
        client = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: HTTPClient.Configuration(
                redirectConfiguration: .disallow, timeout: .init(connect: .seconds(5)),
                connectionPool: {
                    var pool = HTTPClient.Configuration.ConnectionPool(idleTimeout: .seconds(10), concurrentHTTP1ConnectionsPerHostSoftLimit: 64)
                    pool.retryConnectionEstablishment = false
                    return pool
                }()))
    }

    /// The instance a request goes to: the checkout's next turn, passed on to the next instance
    /// in the rotation when its own is out. Nil when none is in the rotation.
    private func pick(run: String?, killable: Bool, skipping tried: Set<Int>) -> (index: Int, url: String, kill: Arming?)? {
        state.withLock { state in
            let turn: Int
            if let run {
                let next = state.turns[run] ?? { defer { state.checkoutsSeen += 1 }; return state.checkoutsSeen }()
                turn = next
                state.turns[run] = next + 1
            } else {
                turn = state.unnamedTurn
                state.unnamedTurn += 1
            }
            let count = state.backends.count
            guard let index = (0..<count).lazy.map({ (turn + $0) % count }).first(where: { state.backends[$0].inRotation && !tried.contains($0) }) else {
                return nil
            }
            var kill: Arming?
            if killable, let arming = state.arming, arming.backend == index {
                // This request is the one the instance dies with: nothing after it goes there.
                state.arming = nil
                state.backends[index].inRotation = false
                kill = arming
            }
            state.backends[index].inFlight += 1
            state.backends[index].served += 1
            return (index, state.backends[index].url, kill)
        }
    }

    private func finished(_ index: Int) {
        state.withLock { $0.backends[index].inFlight -= 1 }
    }

    /// Takes instance `backend` out of the rotation with the next provider API request with a
    /// body that falls to it, calls `kill` as soon as that request's bytes are handed to the instance's
    /// connection, and returns which request it was and how many the instance then held. Nil
    /// when `disarm()` comes first (no such request came).
    func killOnNextRequest(at backend: Int, _ kill: @escaping @Sendable () -> Void) async -> KillReport? {
        await withCheckedContinuation { continuation in
            let closed = state.withLock { state in
                if state.disarmed { return true }
                state.arming = Arming(backend: backend, kill: kill, done: continuation)
                return false
            }
            if closed { continuation.resume(returning: nil) }
        }
    }

    /// No kill from now on: a `killOnNextRequest` waiting (or still to come) returns nil.
    func disarm() {
        state.withLock { state in
            state.disarmed = true
            defer { state.arming = nil }
            return state.arming
        }?.done.resume(returning: nil)
    }

    /// Puts instance `backend` back in the rotation, now serving at `url`.
    func rejoin(_ backend: Int, at url: String) {
        state.withLock { state in
            state.backends[backend].url = url
            state.backends[backend].inRotation = true
        }
    }

    /// How many requests each instance was sent.
    var served: [Int] { state.withLock { $0.backends.map(\.served) } }

    /// The checkout runs that had a request at a killed instance, closed unanswered by the kill.
    var cutRuns: [String] { state.withLock { $0.cutRuns } }

    /// Serves on a free loopback port until `body` returns; its base URL is passed to `body`.
    func serve<T: Sendable>(_ body: (String) async throws -> T) async throws -> T {
        var quiet = Logger(label: "soak-balancer")
        quiet.logLevel = .critical
        let bound = AsyncStream<Int>.makeStream()
        let app = Application(
            responder: Responder(balancer: self), configuration: .init(address: .hostname("127.0.0.1", port: 0), serverName: "checkout-soak"),
            onServerRunning: { bound.continuation.yield($0.localAddress?.port ?? 0) }, logger: quiet)
        // As the sandbox does: shut down gracefully, never by cancelling the serving task.
        let group = ServiceGroup.named([("balancer", app)], logger: quiet)
        let server = Task { try? await group.run() }
        var ports = bound.stream.makeAsyncIterator()
        guard let port = await ports.next() else { throw CancellationError() }
        let result: Result<T, any Error>
        do { result = .success(try await body("http://127.0.0.1:\(port)")) } catch { result = .failure(error) }
        await group.triggerGracefulShutdown()
        await server.value
        try? await client.shutdown()
        return try result.get()
    }

    private struct Responder: HTTPResponder {
        let balancer: SoakBalancer

        func respond(to request: Request, context: BalancerContext) async throws -> Response {
            try await balancer.forward(request, context: context)
        }
    }

    private static let hopByHop: Set<String> = ["connection", "keep-alive", "transfer-encoding", "content-length", "host", "upgrade", "te", "trailer"]

    fileprivate func forward(_ request: Request, context: BalancerContext) async throws -> Response {
        let body = try await request.body.collect(upTo: Self.bodyLimit)
        let run = request.headers[HTTPFields.Element.Name(SandboxRunHeader.name)!]
        var tried: Set<Int> = []
        // The kill falls on a provider's API call with a body (a create, a capture), never on the
        // sandbox's own routes: a checkout does not retry adding its faults, for one.
        let killable = body.readableBytes > 0 && !request.uri.path.hasPrefix("/sandbox/")
        while let (index, baseURL, kill) = pick(run: run, killable: killable, skipping: tried) {
            defer { finished(index) }
            var outgoing = HTTPClientRequest(url: baseURL + request.uri.description)
            outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
            outgoing.headers.add(name: "Host", value: request.head.authority ?? "127.0.0.1")
            for field in request.headers where !Self.hopByHop.contains(field.name.canonicalName) {
                outgoing.headers.add(name: field.name.rawName, value: field.value)
            }
            if let kill {
                let description = "\(request.method.rawValue) \(request.uri.path)"
                outgoing.body = .stream(
                    KillAfterSending(body: body) { [self] in
                        let inFlight = self.state.withLock { state in
                            state.killedURLs.insert(baseURL)
                            return state.backends[index].inFlight
                        }
                        kill.kill()
                        kill.done.resume(returning: KillReport(request: description, inFlight: inFlight))
                    }, length: .known(Int64(body.readableBytes)))
            } else if body.readableBytes > 0 {
                outgoing.body = .bytes(body)
            }
            let answer: HTTPClientResponse
            let bytes: ByteBuffer
            do {
                answer = try await client.execute(outgoing, deadline: .now() + .minutes(10))
                bytes = try await answer.body.collect(upTo: Self.bodyLimit)
            } catch where Self.neverReached(error) {
                // The instance was not there to take it: another one takes it.
                tried.insert(index)
                continue
            } catch {
                // The instance closed the connection without answering (a reset or drop fault, or
                // it was killed): the checkout's connection closes the same way.
                state.withLock { state in
                    if state.killedURLs.contains(baseURL) { state.cutRuns.append(run ?? "a request without a run id") }
                }
                try? await context.channel.close()
                return Response(status: .ok)
            }
            var headers = HTTPFields()
            for (name, value) in answer.headers where !Self.hopByHop.contains(name.lowercased()) {
                if let name = HTTPFields.Element.Name(name) { headers.append(HTTPFields.Element(name: name, value: value)) }
            }
            return Response(status: .init(code: Int(answer.status.code)), headers: headers, body: ResponseBody(byteBuffer: bytes))
        }
        return Response(
            status: .serviceUnavailable, headers: [.contentType: "text/plain"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: "checkout-soak: no sandbox instance is in the rotation\n")))
    }

    /// A connection that could not be made: the request never reached that instance.
    private static func neverReached(_ error: any Error) -> Bool {
        if error is NIOConnectionError { return true }
        if let error = error as? HTTPClientError, error == .connectTimeout { return true }
        if let error = error as? IOError, error.errnoCode == ECONNREFUSED { return true }
        return false
    }
}

/// The balancer's request context: the basics plus the connection, closed unanswered when the
/// instance closed its own.
struct BalancerContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    let channel: any Channel

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        channel = source.channel
    }
}

/// A request body that calls `sent` once the HTTP client has taken all of it for the connection
/// (when it asks for more): the instance is then killed with the request on its way in.
private struct KillAfterSending: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let body: ByteBuffer
    let sent: @Sendable () -> Void

    struct AsyncIterator: AsyncIteratorProtocol {
        var body: ByteBuffer?
        var sent: (@Sendable () -> Void)?

        mutating func next() async -> ByteBuffer? {
            if let body {
                self.body = nil
                return body
            }
            sent?()
            sent = nil
            return nil
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: body, sent: sent) }
}
