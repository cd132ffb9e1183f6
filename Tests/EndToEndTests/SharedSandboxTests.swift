import Foundation
import TestSupport
import Testing

/// Several `checkout sandbox --store postgres://…` processes on one database are one sandbox:
/// what one makes the other reads and changes, one idempotency key makes one request whichever
/// instance it reaches, and an instance killed mid-checkout and started again loses nothing.
@Suite(.enabled(if: TestPostgres.isEnabled, TestPostgres.skipReason))
struct SharedSandboxTests {
    static let client = [(name: "Authorization", value: "Client CAS-CI_SHARED_SANDBOX")]

    private func startInstance(_ store: String) async throws -> (
        server: ChildProcess, baseURL: String
    ) {
        let started = try await CheckoutBinary.start(["sandbox", "--port", "0", "--store", store])
        return (started.process, started.firstLine)
    }

    /// Two instances on one fresh database; both stop when `body` ends.
    private func withTwoInstances(
        _ body: (_ first: String, _ second: String, _ store: String) async throws -> Void
    ) async throws {
        let store = try await TestPostgres.freshDatabase()
        let (a, urlA) = try await startInstance(store)
        defer { a.signal(SIGTERM) }
        let (b, urlB) = try await startInstance(store)
        defer { b.signal(SIGTERM) }
        try await body(urlA, urlB, store)
    }

    private func create(at baseURL: String, key: String) async throws -> (status: Int, id: String) {
        let body =
            #"{"idempotency_key":"\#(key)","request":{"actions":[{"type":"ONE_TIME_PAYMENT","scope_id":"BRAND_shared","amount":4505,"currency":"USD"}],"channel":"ONLINE","redirect_url":"terminalcheckout://return"}}"#
        let answer = try await CheckoutBinary.send(
            "POST", baseURL + "/customer-request/v1/requests", json: body, headers: Self.client)
        return (answer.status, try Self.request(answer.body)["id"] as? String ?? "")
    }

    private func status(at baseURL: String, of id: String) async throws -> String? {
        let answer = try await CheckoutBinary.send(
            "GET", baseURL + "/customer-request/v1/requests/" + id, headers: Self.client)
        return try Self.request(answer.body)["status"] as? String
    }

    private static func request(_ body: Data) throws -> [String: Any] {
        (try JSONSerialization.jsonObject(with: body) as? [String: Any])?["request"] as? [String: Any]
            ?? [:]
    }

    private func ledger(at baseURL: String) async throws -> String {
        String(decoding: try await CheckoutBinary.fetch(baseURL + "/sandbox/ledger"), as: UTF8.self)
    }

    @Test func aRequestMadeThroughOneInstanceIsApprovedAndReadThroughTheOther() async throws {
        try await withTwoInstances { urlA, urlB, _ in
            let made = try await create(at: urlA, key: UUID().uuidString)
            #expect(made.status == 201)
            #expect(try await status(at: urlB, of: made.id) == "PENDING")
            let approved = try await CheckoutBinary.send(
                "POST", urlB + "/sandbox/customer-requests/\(made.id)/approve")
            #expect(
                (200..<300).contains(approved.status), "\(String(decoding: approved.body, as: UTF8.self))")
            #expect(try await status(at: urlA, of: made.id) == "APPROVED")
            #expect(try await ledger(at: urlA) == ledger(at: urlB))
        }
    }

    @Test func oneIdempotencyKeySentToBothInstancesAtOnceMakesOneRequest() async throws {
        try await withTwoInstances { urlA, urlB, store in
            let key = UUID().uuidString
            let answers = try await withThrowingTaskGroup(of: (status: Int, id: String).self) { group in
                for attempt in 0..<16 {
                    group.addTask { try await create(at: attempt.isMultiple(of: 2) ? urlA : urlB, key: key) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            // Cash App answers a replay as it answered the create (201, the same request).
            #expect(answers.allSatisfy { $0.status == 201 }, "\(answers)")
            #expect(Set(answers.map(\.id)).count == 1, "\(answers)")
            #expect(
                try await TestPostgres.value(
                    "SELECT count(*) FROM sandbox_records WHERE store = 'cashapp.requests'", in: store) == "1"
            )
        }
    }

    @Test func anInstanceKilledMidCheckoutAndStartedAgainLosesNothing() async throws {
        let store = try await TestPostgres.freshDatabase()
        let (first, firstURL) = try await startInstance(store)
        let made = try await create(at: firstURL, key: UUID().uuidString)
        #expect(made.status == 201)
        let ledgerBefore = try await ledger(at: firstURL)
        first.signal(SIGKILL)
        _ = await first.exit(timeout: 10)

        let (again, againURL) = try await startInstance(store)
        defer { again.signal(SIGTERM) }
        #expect(try await ledger(at: againURL) == ledgerBefore)
        #expect(try await status(at: againURL, of: made.id) == "PENDING")
        let approved = try await CheckoutBinary.send(
            "POST", againURL + "/sandbox/customer-requests/\(made.id)/approve")
        #expect((200..<300).contains(approved.status))
        #expect(try await status(at: againURL, of: made.id) == "APPROVED")
    }
}
