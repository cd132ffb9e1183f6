import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import Sandbox
import Synchronization
import Testing
import TestSupport

/// The checkout runner with Cash App's adapter and real client against the sandbox, for the
/// states a headless run passes too quickly to see: updating and refreshing.
@Suite struct RealClientFlowTests {
    final class Recorder: CheckoutObserver {
        let seen = Mutex<[CheckoutState]>([])
        func stateDidChange(to state: CheckoutState) { seen.withLock { $0.append(state) } }
        var names: [String] { seen.withLock { $0.map(\.name) } }
    }

    /// The wait leaves room for a loaded CI machine (the whole suite runs at once on two cores):
    /// it ends as soon as the state is reached.
    private func waitFor(_ recorder: Recorder, _ name: String) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while recorder.names.last != name {
            guard ContinuousClock.now < deadline else {
                Issue.record("never reached \(name): \(recorder.names)")
                return
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    private func runner(_ harness: SandboxHarness, now: @escaping @Sendable () -> Date = { Date() }) -> CheckoutRunner {
        let adapter = CashAppAdapter(provider: "cashapp", client: harness.client(), brandID: SandboxHarness.brandID)
        return CheckoutRunner(adapters: { _ in adapter }, now: now)
    }

    private func order(quantity: Int = 2) throws -> PaymentOrder {
        let catalog = try Catalog.bundled()
        var cart = catalog.defaultCart
        try cart.setQuantity(quantity, forSKU: cart.items[0].sku)
        return try PaymentOrder.forCart(cart, merchantName: catalog.merchantName)
    }

    @Test func aCartChangeBeforeAuthorizingGoesThroughUpdating() async throws {
        try await SandboxHarness.with { harness in
            let pay = runner(harness)
            let recorder = Recorder()
            await pay.addObserver(recorder)
            await pay.pay(try order(), with: ProviderPlan(id: "cashapp"))
            try await waitFor(recorder, "readyToAuthorize")
            await pay.changeOrder(try order(quantity: 3))
            try await waitFor(recorder, "readyToAuthorize")
            #expect(recorder.names == ["creatingCustomerRequest", "readyToAuthorize", "updatingCustomerRequest", "readyToAuthorize"])
            #expect(await pay.state.attempt?.amount?.minorUnits == 6274)
        }
    }

    @Test func authorizingWithTriggersAboutToRotateRefreshesThem() async throws {
        try await SandboxHarness.with { harness in
            let clock = harness.clock
            let pay = runner(harness, now: { clock.now })
            let recorder = Recorder()
            await pay.addObserver(recorder)
            await pay.pay(try order(), with: ProviderPlan(id: "cashapp"))
            try await waitFor(recorder, "readyToAuthorize")
            harness.clock.advance(by: 25)  // the triggers refresh in 5 s: within PayKit's 10 s
            await pay.authorize()
            try await waitFor(recorder, "polling")
            #expect(Array(recorder.names.suffix(4)) == ["readyToAuthorize", "refreshing", "redirecting", "polling"])
            // The refresh retrieved the request again: one more GET than the create.
            #expect(harness.log.entries.filter { $0.method == "GET" }.count >= 1)
            await pay.reset()
        }
    }
}
