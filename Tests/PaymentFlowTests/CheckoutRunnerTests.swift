import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import Testing

/// Waits for a condition, checking often, failing after `seconds` (generous: the whole suite
/// runs in parallel with the end-to-end tests, and a loaded machine is slow, not wrong: CI once
/// took over 15 s to get here).
func eventually(_ seconds: Double = 60, _ condition: @Sendable () async -> Bool) async throws {
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
    /// Each pause lasts until its task is cancelled (a wait only a nudge ends).
    let holds: Bool
    init(journal: Journal? = nil, holds: Bool = false) {
        self.journal = journal
        self.holds = holds
    }
    var pauses: [Duration] { lock.withLock { requested } }
    var sleeper: Sleeper {
        { duration in
            self.lock.withLock { self.requested.append(duration) }
            self.journal?.append("sleep")
            if self.holds { try await Task.sleep(for: .seconds(3600)) } else { await Task.yield() }
        }
    }
}

@Suite struct CheckoutRunnerTests {
    private func runner(_ adapter: ScriptedAdapter, sleeper: RecordingSleeper = RecordingSleeper()) -> CheckoutRunner {
        CheckoutRunner(adapters: { _ in adapter }, now: { Fixture.now }, sleep: sleeper.sleeper)
    }

    @Test func observersAreNotifiedInOrderOnEveryTransition() async throws {
        let adapter = ScriptedAdapter(create: .success(Fixture.attempt()), retrieves: [.success(Fixture.approved())])
        let pay = runner(adapter)
        let journal = Journal()
        let first = RecordingObserver(label: "A", journal: journal)
        let second = RecordingObserver(label: "B", journal: journal)
        await pay.addObserver(first)
        await pay.addObserver(second)
        await pay.pay(Fixture.order(), with: Fixture.cashApp)
        try await eventually { first.names.last == "readyToAuthorize" }
        await pay.authorize()
        try await eventually { first.names.last == "approved" }
        #expect(first.names == ["creatingCustomerRequest", "readyToAuthorize", "redirecting", "polling", "approved"])
        #expect(second.names == first.names)
        let pairs = stride(from: 0, to: journal.entries.count, by: 2).map { Array(journal.entries[$0..<$0 + 2]) }
        #expect(pairs.allSatisfy { $0[0].hasPrefix("A:") && $0[1].hasPrefix("B:") })
        #expect(await pay.authorizationURL == "https://cash.example/authorize/1")
    }

    @Test func observersAreHeldWeaklyAndCanBeRemoved() async throws {
        let adapter = ScriptedAdapter(create: .success(Fixture.attempt()), retrieves: [.success(Fixture.approved())])
        let pay = runner(adapter)
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
        await pay.pay(Fixture.order(), with: Fixture.cashApp)
        try await eventually { kept.names.last == "readyToAuthorize" }
        #expect(removed.states.isEmpty)
    }

    @Test func pollingStartsAtOnceThenEverySecondUntilDecided() async throws {
        let pending = Fixture.attempt()
        let journal = Journal()
        let adapter = ScriptedAdapter(
            create: .success(pending), retrieves: [.success(pending), .success(pending), .success(Fixture.approved())], journal: journal)
        let sleeper = RecordingSleeper(journal: journal)
        let pay = runner(adapter, sleeper: sleeper)
        let observer = RecordingObserver(journal: journal)
        await pay.addObserver(observer)
        await pay.pay(Fixture.order(), with: Fixture.cashApp)
        try await eventually { observer.names.last == "readyToAuthorize" }
        await pay.authorize()
        try await eventually { observer.names.last == "approved" }
        #expect(adapter.retrieves == 3)
        // The first retrieval came before any pause.
        let afterPolling = journal.entries.drop { $0 != ":polling" }.dropFirst()
        #expect(Array(afterPolling) == ["retrieve", "sleep", "retrieve", "sleep", "retrieve", ":approved"])
        #expect(sleeper.pauses.count == 2)
        #expect(sleeper.pauses.allSatisfy { $0 > .milliseconds(900) && $0 <= .seconds(1) })
    }

    @Test func aCustomerWhoActsAtOnceIsWaitedForBeforeTheFirstRetrieval() async throws {
        let journal = Journal()
        let adapter = ScriptedAdapter(create: .success(Fixture.attempt()), retrieves: [.success(Fixture.approved())], journal: journal)
        let sleeper = RecordingSleeper(journal: journal, holds: true)
        let pay = runner(adapter, sleeper: sleeper)
        let observer = RecordingObserver(journal: journal)
        await pay.addObserver(observer)
        await pay.retrieveAfterCustomerActs()
        await pay.pay(Fixture.order(), with: Fixture.cashApp)
        try await eventually { observer.names.last == "readyToAuthorize" }
        await pay.authorize()
        // Polling, it waits (one interval at most) instead of asking before the customer could answer.
        try await eventually { sleeper.pauses.count == 1 }
        #expect(adapter.retrieves == 0)
        #expect(sleeper.pauses == [.seconds(1)])
        await pay.customerActed()
        try await eventually { observer.names.last == "approved" }
        let afterPolling = journal.entries.drop { $0 != ":polling" }.dropFirst()
        #expect(Array(afterPolling) == ["sleep", "retrieve", ":approved"])
    }

    @Test func aLateResultOfAnAbandonedAttemptIsDropped() async throws {
        let adapter = ScriptedAdapter(create: .success(Fixture.attempt()), retrieves: [.success(Fixture.attempt())])
        let pay = runner(adapter)
        let observer = RecordingObserver()
        await pay.addObserver(observer)
        await pay.pay(Fixture.order(), with: Fixture.cashApp)
        await pay.reset()
        try await eventually { observer.names.contains("notStarted") }
        // Let the create task finish; its result must not revive the abandoned attempt.
        for _ in 0..<50 { await Task.yield() }
        #expect(await pay.state == .notStarted)
    }

    @Test func stepsArriveBeforeTheStateTheyLeadToAndSettlementFollowsApproval() async throws {
        let adapter = ScriptedAdapter(
            create: .success(Fixture.attempt(provider: "afterpay")), retrieves: [.success(Fixture.approved())],
            steps: ["token", "signing", "validating", "capturing"])
        let pay = runner(adapter)
        let journal = Journal()
        let observer = RecordingObserver(journal: journal)
        await pay.addObserver(observer)
        await pay.pay(Fixture.order(), with: Fixture.settling)
        try await eventually { observer.names.last == "readyToAuthorize" }
        await pay.authorize()
        try await eventually { await pay.ended }
        #expect(journal.entries == [
            ":phase token", ":phase signing", ":creatingCustomerRequest", ":readyToAuthorize", ":redirecting", ":polling", ":approved",
            ":phase validating", ":phase capturing", ":phase completed",
        ])
    }

    @Test func eachAttemptHasItsOwnIdempotencyKey() async throws {
        let adapter = ScriptedAdapter(create: .success(Fixture.attempt()), retrieves: [.success(Fixture.attempt(status: .declined))])
        let pay = runner(adapter)
        let observer = RecordingObserver()
        await pay.addObserver(observer)
        await pay.pay(Fixture.order(), with: Fixture.cashApp)
        try await eventually { observer.names.last == "readyToAuthorize" }
        await pay.authorize()
        try await eventually { observer.names.last == "declined" }
        await pay.pay(Fixture.order(), with: Fixture.cashApp)
        try await eventually { adapter.idempotencyKeys.count == 2 }
        #expect(Set(adapter.idempotencyKeys).count == 2)
    }

    @Test func anUnknownProviderIsAnIntegrationError() async throws {
        let pay = CheckoutRunner(adapters: { _ in nil })
        let observer = RecordingObserver()
        await pay.addObserver(observer)
        await pay.pay(Fixture.order(), with: ProviderPlan(id: "nowhere"))
        try await eventually { observer.names.last == "integrationError" }
        #expect(observer.states.last?.error?.code == "UNKNOWN_PROVIDER")
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
        let failure = Fixture.cashAppFailure("API_ERROR", "INTERNAL_SERVER_ERROR", status: 500)
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
