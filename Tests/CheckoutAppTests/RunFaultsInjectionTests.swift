import Foundation
import Hummingbird
import Logging
import ProviderClients
import Sandbox
import Synchronization
import Testing

@testable import CheckoutApp

/// A run's faults go into a shared sandbox all or none, whatever its connection does half-way.
@Suite struct RunFaultsInjectionTests {
    /// A sandbox control API whose first `failing` fault POSTs take the fault and then answer 503
    /// (as an answer lost with its connection leaves it taken); it counts each owner's faults.
    final class FlakyControlAPI: Sendable {
        let held = Mutex<[String: Int]>([:])
        private let failing: Mutex<Int>

        init(failing: Int) { self.failing = Mutex(failing) }

        func post(owner: String) -> Bool {
            held.withLock { $0[owner, default: 0] += 1 }
            return failing.withLock { left in
                defer { left -= 1 }
                return left <= 0
            }
        }
    }

    private static func json(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, headers: [.contentType: "application/json"], body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
    }

    /// Serves `api` on 127.0.0.1 while `body` runs with its base URL.
    private static func serving(_ api: FlakyControlAPI, _ body: (String) async throws -> Void) async throws {
        let router = Router()
        router.post("sandbox/faults") { request, _ -> Response in
            var request = request
            let sent = try await request.collectBody(upTo: 1 << 16)
            let fields = (try? JSONSerialization.jsonObject(with: Data(buffer: sent))) as? [String: String] ?? [:]
            guard api.post(owner: fields["owner"] ?? "sandbox") else {
                return json(.serviceUnavailable, #"{"errors":[{"category":"SANDBOX","code":"STORE_UNAVAILABLE","detail":"a moment"}]}"#)
            }
            return json(.created, #"{"added":1}"#)
        }
        router.delete("sandbox/faults") { request, _ -> Response in
            let owner = request.uri.queryParameters.get("owner") ?? ""
            let removed = api.held.withLock { $0.removeValue(forKey: owner) ?? 0 }
            return json(.ok, #"{"removed":\#(removed)}"#)
        }
        let port = AsyncStream<Int>.makeStream()
        var quiet = Logger(label: "flaky-control-api")
        quiet.logLevel = .critical
        let app = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { port.continuation.yield($0.localAddress?.port ?? 0) }, logger: quiet)
        let server = Task { try await app.run() }
        defer { server.cancel() }
        var bound = 0
        for await value in port.stream {
            bound = value
            break
        }
        try await body("http://127.0.0.1:\(bound)")
    }

    private static func client(_ url: String) -> SandboxControlClient {
        SandboxControlClient(baseURL: url, http: ProviderHTTPClient(timeout: .seconds(30), retryPolicy: .never))
    }

    private static let faults: [FaultRule] = ["POST /v2/payments 500", "GET /v2/payments/ slow*2"].compactMap { try? FaultRule(spec: $0) }

    @Test func answersLostHalfWayLeaveEachFaultOnceAfterTheRetry() async throws {
        let api = FlakyControlAPI(failing: 2)
        try await Self.serving(api) { url in
            try await Self.client(url).inject(Self.faults, owner: "run-1")
        }
        // Two tries failed after taking a fault each; each next try began by dropping the run's.
        #expect(api.held.withLock { $0 } == ["run-1": 2])
    }

    @Test func aSandboxThatStaysAwayIsAClearErrorAndKeepsNothingTwice() async throws {
        let api = FlakyControlAPI(failing: 100)
        try await Self.serving(api) { url in
            await #expect(throws: SandboxUnreachable.self) { try await Self.client(url).inject(Self.faults, owner: "run-2", tries: 3) }
        }
        // Only the last try's first fault may be left: never more than the run asked for.
        #expect((api.held.withLock { $0["run-2"] } ?? 0) <= 1)
    }
}
