import CheckoutModel
import TerminalUI

/// A scripted checkout for demo mode: the keys a person would press, with pauses to read
/// and waits on what the checkout does, made from a scenario.
struct DemoScript: Sendable {
    enum Condition: Sendable {
        case state(String)
        case ended
        case notStarted

        func holds(in state: AppState) -> Bool {
            switch self {
            case .state(let name): state.checkout.state.name == name
            case .ended: state.checkout.ended
            case .notStarted: state.checkout.idle
            }
        }
    }

    enum Step: Sendable {
        /// Narration under the banner.
        case say(String)
        case press(Key)
        case pause(seconds: Double)
        /// Waits for the checkout; gives up after `seconds` and goes on.
        case waitUntil(Condition, seconds: Double)
        /// Starts the loop from the scenario's first item alone.
        case startCart
        /// The loop is done: the receipt has been shown.
        case loopDone
    }

    let steps: [Step]
    /// The cart each loop starts from: the scenario's first line, one of it.
    let startingCart: Cart

    /// `key` pressed `times` times, `pause` seconds apart.
    private static func press(_ key: Key, times: Int, pause: Double) -> [Step] {
        Array(repeating: [Step.press(key), .pause(seconds: pause)], count: max(0, times)).flatMap { $0 }
    }

    /// Seconds between keys: slow enough to follow on a projector.
    static let beat = 0.7

    /// `speed` divides every pause (2 plays twice as fast, for rehearsals and tests).
    init(scenario: Scenario, catalog: Catalog, registry: ProviderRegistry = .builtIn, speed: Double = 1) throws(CartError) {
        let target = try scenario.cart(in: catalog)
        var start = target
        for item in target.items.dropFirst() { try start.setQuantity(0, forSKU: item.sku) }
        if let first = start.items.first { try start.setQuantity(1, forSKU: first.sku) }
        // Shipping starts as the catalog has it, so the audience sees it picked.
        if let shipping = catalog.defaultCart.selectedShippingID { try start.selectShipping(id: shipping) }
        startingCart = start

        var steps: [Step] = [.startCart, .say("Demo: \(scenario.name). Any key pauses for questions; q ends the demo."), .pause(seconds: 2.5)]
        // Add the other items from the catalog.
        for item in target.items.dropFirst() {
            guard let index = catalog.products.firstIndex(where: { $0.sku == item.sku }) else { continue }
            steps += [.say("Adding \(item.name) to the cart"), .press(.character("n")), .pause(seconds: Self.beat)]
            steps += Self.press(.down, times: index, pause: Self.beat / 2)
            steps += [.press(.enter), .pause(seconds: Self.beat)]
        }
        // Quantities.
        for (row, item) in target.items.enumerated() where item.quantity > 1 {
            steps += [.say("\(item.quantity) × \(item.name)")]
            steps += Self.press(.up, times: target.items.count, pause: 0.1) + Self.press(.down, times: row, pause: 0.1)
            steps += Self.press(.character("+"), times: item.quantity - 1, pause: Self.beat)
        }
        // Shipping, then the payment method.
        let shippingIndex = target.shippingMethods.firstIndex { $0.id == target.selectedShippingID } ?? 0
        steps += [.say("Choosing \(target.selectedShipping?.label ?? "shipping")"), .press(.tab), .pause(seconds: Self.beat)]
        steps += Self.press(.up, times: target.shippingMethods.count, pause: 0.1)
        steps += Self.press(.down, times: shippingIndex, pause: Self.beat / 2)
        steps += [.press(.enter), .pause(seconds: Self.beat * 2)]
        let methods = registry.paymentMethods
        let methodIndex = methods.firstIndex { $0.id == scenario.provider } ?? 0
        let method = methods[methodIndex]
        steps += [.say("Paying with \(method.label)"), .press(.tab), .pause(seconds: Self.beat)]
        steps += Self.press(.up, times: methods.count, pause: 0.1) + Self.press(.down, times: methodIndex, pause: Self.beat / 2)
        steps += [.press(.enter), .pause(seconds: Self.beat * 2)]
        // Pay, authorize, the customer scans and decides.
        steps += [
            .press(.character("p")), .waitUntil(.state("readyToAuthorize"), seconds: 15),
            .say("The customer request is ready: authorizing"), .pause(seconds: 2),
            .press(.character("p")), .waitUntil(.state("polling"), seconds: 15),
            .say("The customer scans the QR code with Cash App…"),
        ]
        let decision: Key
        var thinking = 5.0
        switch scenario.customer {
        case .decline, .abandon: decision = .character("x")
        case .approveAfter(let seconds): (decision, thinking) = (.character("a"), max(thinking, seconds))
        case .approve, .none: decision = .character("a")
        }
        steps += [
            .pause(seconds: thinking), .say(decision == .character("x") ? "…and declines" : "…and approves"), .press(decision),
            .waitUntil(.ended, seconds: 30), .say(method.settles ? "Captured: here is the receipt" : "Approved: here is the receipt"),
            .pause(seconds: 6), .loopDone, .press(.character("r")), .waitUntil(.notStarted, seconds: 10), .pause(seconds: 1),
        ]
        self.steps = steps.map { step in
            if case .pause(let seconds) = step { return .pause(seconds: seconds / speed) }
            return step
        }
    }
}
