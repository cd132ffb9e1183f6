import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import Sandbox
import Synchronization
import Testing
import TestSupport

/// The CashAppPay runner with the real client against the sandbox, for the states a
/// headless run passes too quickly to see: updating and refreshing.
@Suite struct RealClientFlowTests {
    final class Recorder: CashAppPayObserver {
        let seen = Mutex<[CashAppPayState]>([])
        func stateDidChange(to state: CashAppPayState) { seen.withLock { $0.append(state) } }
        var names: [String] { seen.withLock { $0.map(\.name) } }
    }

    private func waitFor(_ recorder: Recorder, _ name: String) async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while recorder.names.last != name {
            guard ContinuousClock.now < deadline else {
                Issue.record("never reached \(name): \(recorder.names)")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    @Test func aCartChangeBeforeAuthorizingGoesThroughUpdating() async throws {
        try await SandboxHarness.with { harness in
            let pay = CashAppPay(client: harness.client())
            let recorder = Recorder()
            await pay.addObserver(recorder)
            await pay.createCustomerRequest(params: SandboxHarness.params())
            try await waitFor(recorder, "readyToAuthorize")
            await pay.updateCustomerRequest(with: .init(actions: [.oneTimePayment(scopeID: SandboxHarness.brandID, amount: 6274, currency: "USD")]))
            try await waitFor(recorder, "readyToAuthorize")
            #expect(recorder.names == ["creatingCustomerRequest", "readyToAuthorize", "updatingCustomerRequest", "readyToAuthorize"])
            #expect(await pay.state.request?.oneTimeAmount?.minorUnits == 6274)
        }
    }

    @Test func authorizingWithTriggersAboutToRotateRefreshesThem() async throws {
        try await SandboxHarness.with { harness in
            let clock = harness.clock
            let pay = CashAppPay(client: harness.client(), now: { clock.now })
            let recorder = Recorder()
            await pay.addObserver(recorder)
            await pay.createCustomerRequest(params: SandboxHarness.params())
            try await waitFor(recorder, "readyToAuthorize")
            harness.clock.advance(by: 25)  // the triggers refresh in 5 s: within PayKit's 10 s
            await pay.authorizeCustomerRequest()
            try await waitFor(recorder, "polling")
            #expect(Array(recorder.names.suffix(4)) == ["readyToAuthorize", "refreshing", "redirecting", "polling"])
            // The refresh retrieved the request again: one more GET than the create.
            #expect(harness.log.entries.filter { $0.method == "GET" }.count >= 1)
            await pay.reset()
        }
    }
}
