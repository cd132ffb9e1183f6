import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import Testing

/// Waits for a condition, checking often, failing after `seconds`.
func eventually(_ seconds: Double = 5, _ condition: @Sendable () async -> Bool) async throws {
    let deadline = ContinuousClock.now + .seconds(seconds)
    while !(await condition()) {
        guard ContinuousClock.now < deadline else {
            Issue.record("condition not met within \(seconds) s")
            return
        }
        try await Task.sleep(for: .milliseconds(2))
    }
}

/// Records requested pauses instead of waiting.
final class RecordingSleeper: @unchecked Sendable {
    private let lock = NSLock()
    private var requested: [Duration] = []
    let journal: Journal?
    init(journal: Journal? = nil) { self.journal = journal }
    var pauses: [Duration] { lock.withLock { requested } }
    var sleeper: Sleeper {
        { duration in
            self.lock.withLock { self.requested.append(duration) }
            self.journal?.append("sleep")
            await Task.yield()
        }
    }
}

@Suite struct CashAppPayRunnerTests {
    @Test func observersAreNotifiedInOrderOnEveryTransition() async throws {
        let api = ScriptedAPI(create: .success(Fixture.request()), retrieves: [.success(Fixture.approved())])
        let pay = CashAppPay(client: api, now: { Fixture.now }, sleep: RecordingSleeper().sleeper)
        let journal = Journal()
        let first = RecordingObserver(label: "A", journal: journal)
        let second = RecordingObserver(label: "B", journal: journal)
        await pay.addObserver(first)
        await pay.addObserver(second)
        await pay.createCustomerRequest(params: Fixture.params)
        try await eventually { first.names.last == "readyToAuthorize" }
        await pay.authorizeCustomerRequest()
        try await eventually { first.names.last == "approved" }
        #expect(first.names == ["creatingCustomerRequest", "readyToAuthorize", "redirecting", "polling", "approved"])
        #expect(second.names == first.names)
        let pairs = stride(from: 0, to: journal.entries.count, by: 2).map { Array(journal.entries[$0..<$0 + 2]) }
        #expect(pairs.allSatisfy { $0[0].hasPrefix("A:") && $0[1].hasPrefix("B:") })
        #expect(await pay.authorizationURL == "https://cash.example/authorize/1")
    }

    @Test func observersAreHeldWeaklyAndCanBeRemoved() async throws {
        let api = ScriptedAPI(create: .success(Fixture.request()), retrieves: [.success(Fixture.approved())])
        let pay = CashAppPay(client: api, now: { Fixture.now }, sleep: RecordingSleeper().sleeper)
        let kept = RecordingObserver()
        let removed = RecordingObserver()
        weak var released: RecordingObserver?
        do {
            let temporary = RecordingObserver()
            released = temporary
            await pay.addObserver(temporary)
        }
        #expect(released == nil)
        await pay.addObserver(kept)
        await pay.addObserver(removed)
        await pay.removeObserver(removed)
        await pay.createCustomerRequest(params: Fixture.params)
        try await eventually { kept.names.last == "readyToAuthorize" }
        #expect(removed.states.isEmpty)
    }

    @Test func pollingStartsAtOnceThenEverySecondUntilDecided() async throws {
        let pending = Fixture.request()
        let journal = Journal()
        let api = ScriptedAPI(
            create: .success(pending),
            retrieves: [.success(pending), .success(pending), .success(Fixture.approved())],
            journal: journal)
        let sleeper = RecordingSleeper(journal: journal)
        let pay = CashAppPay(client: api, now: { Fixture.now }, sleep: sleeper.sleeper)
        let observer = RecordingObserver(journal: journal)
        await pay.addObserver(observer)
        await pay.createCustomerRequest(params: Fixture.params)
        try await eventually { observer.names.last == "readyToAuthorize" }
        await pay.authorizeCustomerRequest()
        try await eventually { observer.names.last == "approved" }
        #expect(api.retrieves == 3)
        // The first retrieval came before any pause.
        let afterPolling = journal.entries.drop { $0 != ":polling" }.dropFirst()
        #expect(Array(afterPolling) == ["retrieve", "sleep", "retrieve", "sleep", "retrieve", ":approved"])
        #expect(sleeper.pauses.count == 2)
        #expect(sleeper.pauses.allSatisfy { $0 > .milliseconds(900) && $0 <= .seconds(1) })
    }

    @Test func aLateResultOfAnAbandonedFlowIsDropped() async throws {
        let api = ScriptedAPI(create: .success(Fixture.request()), retrieves: [.success(Fixture.request())])
        let pay = CashAppPay(client: api, now: { Fixture.now }, sleep: RecordingSleeper().sleeper)
        let observer = RecordingObserver()
        await pay.addObserver(observer)
        await pay.createCustomerRequest(params: Fixture.params)
        await pay.reset()
        try await eventually { observer.names.contains("notStarted") }
        // Let the create task finish; its result must not revive the abandoned flow.
        for _ in 0..<50 { await Task.yield() }
        #expect(await pay.state == .notStarted)
    }
}

@Suite struct RetryPolicyTests {
    @Test func backOffIsDelayTimesTwoToTheNMinusOne() {
        let policy = RetryPolicy.standard
        #expect((1...4).map(policy.delay(beforeRetry:)) == [.seconds(2), .seconds(6), .seconds(14), .seconds(30)])
    }

    @Test func transportFailuresAreRetriedFiveTimesWithBackOff() async {
        let sleeper = RecordingSleeper()
        let http = ProviderHTTPClient(retryPolicy: RetryPolicy(maxAttempts: 5, baseDelay: .milliseconds(100)), sleep: sleeper.sleeper)
        var attempts: [Int] = []
        do {
            _ = try await http.withRetries(shouldRetry: { (_: CustomerRequestFailure) in true }) {
                (attempt: Int) async throws(CustomerRequestFailure) -> Int in
                attempts.append(attempt)
                throw .transport(.timedOut(after: .seconds(5)))
            }
            Issue.record("expected failure")
        } catch {
            #expect(error == .transport(.timedOut(after: .seconds(5))))
        }
        #expect(attempts == [1, 2, 3, 4, 5])
        #expect(sleeper.pauses == [.milliseconds(100), .milliseconds(300), .milliseconds(700), .milliseconds(1500)])
    }

    @Test func answersAreNotRetried() async {
        let http = ProviderHTTPClient(sleep: RecordingSleeper().sleeper)
        var attempts = 0
        let failure = Fixture.apiFailure("API_ERROR", "INTERNAL_SERVER_ERROR", status: 500)
        _ = try? await http.withRetries(shouldRetry: { (error: CustomerRequestFailure) in error.isRetryable }) {
            (_: Int) async throws(CustomerRequestFailure) -> Int in
            attempts += 1
            throw failure
        }
        #expect(attempts == 1)
    }

    @Test func aRecoveredAttemptReturnsItsValue() async throws {
        let http = ProviderHTTPClient(sleep: RecordingSleeper().sleeper)
        let value = try await http.withRetries(shouldRetry: { (error: CustomerRequestFailure) in error.isRetryable }) {
            (attempt: Int) async throws(CustomerRequestFailure) -> Int in
            if attempt < 3 { throw .undecodable(status: 200, detail: "garbled") }
            return attempt
        }
        #expect(value == 3)
    }
}

@Suite struct ErrorBodyMappingTests {
    private func state(status: Int, body: String) -> CashAppPayState {
        let response = ProviderResponse(status: status, headers: [], body: Data(body.utf8))
        do {
            _ = try CustomerRequestClient.decode(response)
            return .notStarted
        } catch {
            return ErrorClassification.state(for: error)
        }
    }

    @Test(arguments: [
        (500, #"{"errors":[{"category":"API_ERROR","code":"INTERNAL_SERVER_ERROR","detail":"boom"}]}"#, "apiError"),
        (503, #"{"errors":[{"category":"API_ERROR","code":"SERVICE_UNAVAILABLE"}]}"#, "apiError"),
        (401, #"{"errors":[{"category":"AUTHENTICATION_ERROR","code":"UNAUTHORIZED"}]}"#, "integrationError"),
        (404, #"{"errors":[{"category":"BRAND_ERROR","code":"BRAND_NOT_FOUND","field":"request.actions[0].scope_id"}]}"#, "integrationError"),
        (400, #"{"errors":[{"category":"INVALID_REQUEST_ERROR","code":"INVALID_URL","field":"request.redirect_url"}]}"#, "integrationError"),
        (429, #"{"errors":[{"category":"RATE_LIMIT_ERROR","code":"RATE_LIMITED"}]}"#, "integrationError"),
        (422, #"{"errors":[{"category":"MERCHANT_ERROR","code":"MERCHANT_MISSING_ADDRESS_OR_SITE"}]}"#, "integrationError"),
        (400, #"{"errors":[{"category":"GRANT_ERROR","code":"GRANT_EXPIRED"}]}"#, "unexpectedError"),
        (500, #"{"errors":[]}"#, "unexpectedError"),
        (502, "<html>Bad gateway</html>", "networkError"),
        (200, "not json", "networkError"),
        (200, "", "networkError"),
    ])
    func eachErrorBodyLeadsToItsState(status: Int, body: String, expected: String) {
        #expect(state(status: status, body: body).name == expected)
    }

    @Test func theErrorKeepsCategoryCodeDetailAndField() {
        let mapped = state(status: 404, body: #"{"errors":[{"category":"BRAND_ERROR","code":"BRAND_NOT_FOUND","detail":"No brand","field":"request.actions[0].scope_id"}]}"#)
        #expect(mapped.error == CashAppPayError(category: "BRAND_ERROR", code: "BRAND_NOT_FOUND", detail: "No brand", field: "request.actions[0].scope_id"))
    }
}
