import CheckoutModel
import Foundation

extension Scenario {
    /// The checkout on the screen as a scenario: its cart, shipping, provider and the
    /// scenario's fixed amount, reference and metadata, if one was loaded.
    init(snapshotOf state: AppState, paidWith provider: String) {
        self = state.recording.scenario ?? Scenario(name: "recorded on the screen")
        self.provider = provider
        cart = state.cart.items.map { item in
            state.catalogProducts.contains { $0.sku == item.sku && $0.unitPrice == item.unitPrice }
                ? .sku(item.sku, quantity: item.quantity) : .item(name: item.name, price: item.unitPrice, quantity: item.quantity)
        }
        shipping = state.cart.selectedShippingID
        expect = nil
    }

    /// The scenario a screen session's transcript carries: what was paid, what the customer
    /// did, the session's faults and timings, and how the first checkout ended.
    static func recorded(from state: AppState, session: SessionOptions) -> Scenario {
        var scenario = state.recording.paidScenario ?? Scenario(snapshotOf: state, paidWith: state.selectedPaymentMethod.id)
        if let first = state.recording.firstCustomerDecision {
            switch first.decision {
            case .approve: scenario.customer = first.afterSeconds >= 1 ? .approveAfter(seconds: (first.afterSeconds * 10).rounded() / 10) : .approve
            case .decline: scenario.customer = .decline
            case .abandon: scenario.customer = .abandon
            }
        } else {
            scenario.customer = .none
        }
        scenario.faults = session.faults
        scenario.addOptions(from: session)
        if session.triggerRotationSeconds != 30 || session.requestLifetimeSeconds != 3600 {
            scenario.sandbox = ScenarioSandbox(
                triggerRotationSeconds: session.triggerRotationSeconds, requestLifetimeSeconds: session.requestLifetimeSeconds)
        }
        return scenario
    }

    /// The provider's options the session was started with (`--card`, `--capture`, …), so a
    /// transcript's scenario replays the same checkout; never secrets, nor where the provider
    /// is (a replay runs against its own sandbox).
    mutating func addOptions(from session: SessionOptions) {
        guard let descriptor = session.registry.descriptor(provider) else { return }
        for option in descriptor.options where !option.secret && !option.flag.hasSuffix("-url") && options[option.flag] == nil {
            if let value = session.providerOptions[option.flag] { options[option.flag] = value }
        }
    }

    /// The scenario's cart, shipping and provider on a fresh screen.
    func load(into state: inout AppState, catalog: Catalog) throws(CartError) {
        state.cart = try cart(in: catalog)
        state.layout.shippingCursor = state.cart.shippingMethods.firstIndex { $0.id == state.cart.selectedShippingID } ?? 0
        state.selectedPaymentIndex = state.paymentMethods.firstIndex { $0.id == provider } ?? 0
        state.layout.paymentCursor = state.selectedPaymentIndex
        state.recording.scenario = self
    }
}
