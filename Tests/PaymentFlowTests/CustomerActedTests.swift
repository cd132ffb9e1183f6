import Foundation
import PaymentFlow
import ProviderClients
import Testing

/// `customerActed()`: the sandbox's simulated customer has decided, so the runner retrieves at
/// once instead of sleeping out the poll interval (`make bench`'s P2: no bimodal runs).
@Suite struct CustomerActedTests {
    /// A real clock and a poll interval no test waits out: only a nudge can make the next retrieve.
    private func runner(_ adapter: ScriptedAdapter) -> CheckoutRunner {
        CheckoutRunner(adapters: { _ in adapter }, timing: .init(pollInterval: .seconds(3600)), now: { Fixture.now })
    }

    @Test func aNudgeWhilePollingWaitsRetrievesAtOnce() async throws {
        let pending = Fixture.attempt(status: .pending)
        let adapter = ScriptedAdapter(create: .success(pending), retrieves: [.success(pending), .success(Fixture.approved())])
        let pay = runner(adapter)
        let observer = RecordingObserver()
        await pay.addObserver(observer)
        await pay.pay(Fixture.order(), with: Fixture.cashApp)
        try await eventually { observer.names.last == "readyToAuthorize" }
        await pay.authorize()
        try await eventually { adapter.retrieves == 1 }
        // The first retrieve said pending; without the nudge the next would come in an hour.
        try await Task.sleep(for: .milliseconds(50))
        #expect(adapter.retrieves == 1)
        await pay.customerActed()
        try await eventually { observer.names.last == "approved" }
        #expect(adapter.retrieves == 2)
    }

    @Test func aNudgeWhenNothingPollsDoesNothing() async throws {
        let adapter = ScriptedAdapter(create: .success(Fixture.attempt(status: .pending)), retrieves: [.success(Fixture.approved())])
        let pay = runner(adapter)
        await pay.customerActed()
        await pay.pay(Fixture.order(), with: Fixture.cashApp)
        await pay.customerActed()
        try await Task.sleep(for: .milliseconds(50))
        #expect(adapter.retrieves == 0)
        try await eventually { await pay.state.name == "readyToAuthorize" }
    }
}
