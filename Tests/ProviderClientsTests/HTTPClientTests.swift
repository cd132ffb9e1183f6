import Foundation
import Hummingbird
import Logging
import ProviderClients
import ProviderWire
import Sandbox
import Synchronization
import Testing
import TestSupport

/// A server that misbehaves on purpose, to see what the client does about it.
private final class MisbehavingServer: Sendable {
    let bodies = Mutex<[String]>([])
    let calls = Mutex(0)

    /// `answer(n)` answers the n-th create (from 1).
    func start(answer: @escaping @Sendable (Int) async -> Response) async throws -> (url: String, stop: @Sendable () async -> Void) {
        let router = Router()
        router.post("customer-request/v1/requests") { request, context in
            let body = try await request.body.collect(upTo: 1 << 20)
            self.bodies.withLock { $0.append(String(buffer: body)) }
            let call = self.calls.withLock { $0 += 1; return $0 }
            return await answer(call)
        }
        let port = AsyncStream<Int>.makeStream()
        var quiet = Logger(label: "misbehaving-server")
        quiet.logLevel = .critical
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { port.continuation.yield($0.localAddress?.port ?? 0) }, logger: quiet)
        let task = Task { try? await app.run() }
        var bound = 0
        for await value in port.stream { bound = value; break }
        return ("http://127.0.0.1:\(bound)", { task.cancel(); await task.value })
    }
}

private func envelope() -> Response {
    Response(status: .created, headers: [.contentType: "application/json"],
             body: .init(byteBuffer: ByteBuffer(string: WireFormatTests.pendingJSON)))
}

@Suite struct HTTPClientTests {
    @Test func theDefaultTimeoutIsFiveSeconds() {
        #expect(ProviderHTTPClient().timeout == .seconds(5))
    }

    @Test func aRetriedCreateReusesItsIdempotencyKeyAndANewCreateGetsAFreshOne() async throws {
        let server = MisbehavingServer()
        let (url, stop) = try await server.start { call in
            call == 1 ? Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "{garbled"))) : envelope()
        }
        let log = ExchangeLog()
        let http = ProviderHTTPClient(log: log, retryPolicy: RetryPolicy(maxAttempts: 3, baseDelay: .milliseconds(1)))
        let client = CustomerRequestClient(configuration: .init(baseURL: url, clientID: "CAS-CI_x", brandID: "BRAND_x"), http: http)
        _ = try await client.create(SandboxHarness.params())
        _ = try await client.create(SandboxHarness.params())
        await stop()
        let keys = try server.bodies.withLock { $0 }.map { body in
            try CashAppJSON.decoder().decode(CreateCustomerRequestBody.self, from: Data(body.utf8)).idempotencyKey
        }
        #expect(keys.count == 3)
        #expect(keys[0] == keys[1])
        #expect(keys[2] != keys[0])
        #expect(log.entries.map(\.attempt) == [1, 2, 1])
        #expect(log.entries.map(\.status) == [200, 201, 201])
    }

    @Test func aSlowServerTimesOutAndEveryAttemptIsRecorded() async throws {
        let server = MisbehavingServer()
        let (url, stop) = try await server.start { _ in
            try? await Task.sleep(for: .seconds(1))
            return envelope()
        }
        let log = ExchangeLog()
        let http = ProviderHTTPClient(log: log, timeout: .milliseconds(200), retryPolicy: RetryPolicy(maxAttempts: 2, baseDelay: .milliseconds(1)))
        let client = CustomerRequestClient(configuration: .init(baseURL: url, clientID: "CAS-CI_x", brandID: "BRAND_x"), http: http)
        let outcome = await failure { () throws(CustomerRequestFailure) in try await client.create(SandboxHarness.params()) }
        await stop()
        guard case .transport(.timedOut)? = outcome else { Issue.record("expected a timeout, got \(String(describing: outcome))"); return }
        #expect(log.entries.count == 2)
        #expect(log.entries.allSatisfy { $0.status == nil && $0.failure != nil })
    }

    @Test func nothingListeningIsANetworkFailure() async throws {
        let http = ProviderHTTPClient(retryPolicy: .never)
        let client = CustomerRequestClient(configuration: .init(baseURL: "http://127.0.0.1:1", clientID: "CAS-CI_x", brandID: "BRAND_x"), http: http)
        let outcome = await failure { () throws(CustomerRequestFailure) in try await client.retrieve(id: "GRR_x") }
        guard case .transport? = outcome else { Issue.record("expected a transport failure, got \(String(describing: outcome))"); return }
    }
}

@Suite struct ExchangeRecordTests {
    @Test func theClientIDNeverAppearsUnredacted() async throws {
        try await SandboxHarness.with { harness in
            let client = harness.client()
            let created = try await client.create(SandboxHarness.params())
            _ = try await client.retrieve(id: created.id)
            _ = await failure { () throws(CustomerRequestFailure) in try await client.retrieve(id: "GRR_missing") }
            let entries = harness.log.entries
            #expect(entries.count == 3)
            let everything = String(decoding: try JSONEncoder().encode(entries), as: UTF8.self)
            #expect(!everything.contains(SandboxHarness.clientID))
            #expect(!everything.contains("HARNESS_SECRET"))
            let authorization = entries[0].requestHeaders.first { $0.name == "Authorization" }
            #expect(authorization?.value == "Client [REDACTED]")
        }
    }

    @Test func eachExchangeHasMethodURLStatusDurationAndBodies() async throws {
        try await SandboxHarness.with { harness in
            let client = harness.client()
            let created = try await client.create(SandboxHarness.params())
            let entry = try #require(harness.log.entries.first)
            #expect(entry.id == 1)
            #expect(entry.provider == "cashapp")
            #expect(entry.method == "POST")
            #expect(entry.path == "/customer-request/v1/requests")
            #expect(entry.status == 201)
            #expect(entry.durationMilliseconds >= 0)
            #expect(entry.requestBody?.contains("\"idempotency_key\"") == true)
            #expect(entry.responseBody?.contains(created.id) == true)
            #expect(entry.requestHeaders.contains { $0.name == "User-Agent" })
        }
    }

    @Test func subscribersSeeEachExchangeAsItHappens() async throws {
        try await SandboxHarness.with { harness in
            let seen = Mutex<[String]>([])
            let subscription = harness.log.subscribe { exchange in seen.withLock { $0.append("\(exchange.method) \(exchange.status ?? 0)") } }
            _ = try await harness.client().create(SandboxHarness.params())
            subscription.cancel()
            _ = try await harness.client().create(SandboxHarness.params())
            #expect(seen.withLock { $0 } == ["POST 201"])
        }
    }

    @Test func secretFieldsAndConfiguredValuesAreRedactedFromBodies() {
        let redactor = Redactor(secrets: ["sk_live_abcdef"])
        let body = Data(#"{"client_secret":"xyz","nested":{"apiKey":"k"},"note":"uses sk_live_abcdef"}"#.utf8)
        let text = redactor.body(body) ?? ""
        #expect(!text.contains("xyz"))
        #expect(!text.contains("sk_live_abcdef"))
        #expect(text.contains("\"apiKey\":\"[REDACTED]\""))
        #expect(redactor.header(name: "X-API-Key", value: "abc123").value == "[REDACTED]")
        #expect(redactor.header(name: "Authorization", value: "Basic dXNlcjpwYXNz").value == "Basic [REDACTED]")
    }
}
