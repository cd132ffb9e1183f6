import CheckoutModel
import PaymentFlow
import Foundation
import ProviderClients
import Sandbox

/// One reproducible checkout: what is bought, through which provider, what the customer
/// does, which faults hit it, and what should come of it. Scenario files, `checkout run`'s
/// flags, transcripts and demo scripts all describe a checkout this way.
public struct Scenario: Hashable, Sendable {
    public var name: String
    /// A registry id; the registry's first provider unless named.
    public var provider: String = ProviderRegistry.builtIn.defaultProvider.id
    /// nil: the catalog's default cart.
    public var cart: [ScenarioLine]?
    /// A shipping method id from the catalog; nil keeps the cart's.
    public var shipping: String?
    public var customer: CustomerBehaviour = .approve
    public var faults: [FaultRule] = []
    public var referenceID: String?
    public var metadata: [String: String] = [:]
    /// Charge this instead of the cart total (sandbox magic values).
    public var amount: Money?
    /// Embedded-sandbox timings, to reach refreshing and expiry quickly.
    public var sandbox: ScenarioSandbox?
    public var expect: ScenarioExpectation?
    /// The provider's options by flag (`store`, `capture`, …); the command line's win.
    public var options: [String: String] = [:]

    public init(name: String) {
        self.name = name
    }

    /// The cart this scenario buys, built from the catalog.
    public func cart(in catalog: Catalog) throws(CartError) -> Cart {
        var cart = catalog.defaultCart
        if let lines = self.cart {
            var items: [LineItem] = []
            for (index, line) in lines.enumerated() {
                switch line {
                case .sku(let sku, let quantity):
                    items.append(try catalog.lineItem(sku: sku, quantity: quantity))
                case .item(let name, let price, let quantity):
                    items.append(LineItem(sku: "ITEM-\(index + 1)", name: name, unitPrice: price, quantity: quantity))
                }
            }
            cart = Cart(
                currency: catalog.currency, items: items, shippingMethods: catalog.shippingMethods,
                selectedShippingID: cart.selectedShippingID, tax: catalog.tax)
        }
        if let shipping { try cart.selectShipping(id: shipping) }
        return cart
    }

    /// The order this scenario pays for: its cart, fixed amount, reference and metadata.
    public func order(cart: Cart, merchantName: String) throws(OrderTotalError) -> PaymentOrder {
        try PaymentOrder.forCart(cart, merchantName: merchantName, amount: amount, reference: referenceID, metadata: metadata)
    }

    /// The session options with this scenario's faults and sandbox timings added.
    public func applied(to session: SessionOptions) -> SessionOptions {
        var session = session
        session.faults += faults
        for (flag, value) in options where session.providerOptions[flag] == nil { session.providerOptions[flag] = value }
        if let sandbox {
            if let rotation = sandbox.triggerRotationSeconds { session.triggerRotationSeconds = rotation }
            if let lifetime = sandbox.requestLifetimeSeconds { session.requestLifetimeSeconds = lifetime }
        }
        return session
    }
}

/// One cart line of a scenario: a catalog SKU, or an item described inline.
public enum ScenarioLine: Hashable, Sendable {
    case sku(String, quantity: Int)
    case item(name: String, price: Money, quantity: Int)
}

/// What the simulated customer does when the request reaches them.
public enum CustomerBehaviour: Hashable, Sendable {
    case approve, decline, none
    /// Opens the provider's page and leaves unpaid (Antom: the session expires unpaid).
    case abandon
    /// Approves after this many seconds (to see polling and trigger rotation).
    case approveAfter(seconds: Double)

    /// As written in scenario files: `approve`, `decline`, `none`, `approve-after 5`.
    public var spelling: String {
        switch self {
        case .approve: "approve"
        case .decline: "decline"
        case .none: "none"
        case .abandon: "abandon"
        case .approveAfter(let seconds): "approve-after \(seconds.plainText)"
        }
    }

    /// The behaviour's first word, as providers list what they support.
    public var keyword: String { String(spelling.split(separator: " ").first ?? "") }

    public init?(spelling: String) {
        let words = spelling.split(whereSeparator: \.isWhitespace)
        switch (words.first, words.count) {
        // Antom's words for the bank page: pay and fail are approve and decline.
        case ("approve"?, 1), ("pay"?, 1): self = .approve
        case ("decline"?, 1), ("fail"?, 1): self = .decline
        case ("abandon"?, 1): self = .abandon
        case ("none"?, 1): self = .none
        case ("approve-after"?, 2):
            guard let seconds = Double(words[1]), InputLimits.customerDelaySeconds.contains(seconds) else { return nil }
            self = .approveAfter(seconds: seconds)
        default: return nil
        }
    }

    /// What the simulated customer does and after how many seconds; nil when it waits.
    var action: (decision: SandboxControlClient.CustomerDecision, afterSeconds: Double)? {
        switch self {
        case .approve: (.approve, 0)
        case .decline: (.decline, 0)
        case .abandon: (.abandon, 0)
        case .approveAfter(let seconds): (.approve, seconds)
        case .none: nil
        }
    }
}

/// The embedded sandbox's timings a scenario may shorten.
public struct ScenarioSandbox: Hashable, Sendable {
    public var triggerRotationSeconds: Double?
    public var requestLifetimeSeconds: Double?

    public init(triggerRotationSeconds: Double? = nil, requestLifetimeSeconds: Double? = nil) {
        self.triggerRotationSeconds = triggerRotationSeconds
        self.requestLifetimeSeconds = requestLifetimeSeconds
    }
}

/// How a scenario should end: an SDK state, and for Afterpay optionally a phase.
public struct ScenarioExpectation: Hashable, Sendable {
    public var state: String
    public var phase: String?

    public init(state: String, phase: String? = nil) {
        self.state = state
        self.phase = phase
    }

    public func holds(state actual: String, phase actualPhase: String?) -> Bool {
        actual == state && (phase == nil || phase == actualPhase)
    }

    /// "approved, phase completed"
    public var description: String { state + (phase.map { ", phase \($0)" } ?? "") }
}

extension Double {
    /// `5`, `2.5`: whole numbers without a decimal point, for seconds and speeds in messages.
    public var plainText: String {
        self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self)
    }
}
