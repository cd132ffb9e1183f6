import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients

/// What keys do to the checkout: pay, change the cart, act as the customer, start over.
enum CheckoutActions {
    static let endedNotice = "This checkout has ended; press r to start a new one."

    /// Pays with the selected method, which is then fixed for this checkout; authorizes a
    /// ready request.
    static func pay(_ state: inout AppState) -> [AppCommand] {
        if case .step(let name)? = state.checkout.phase {
            // As the Mobile Payments SDK answers a second startPayment: the first goes on.
            state.warn("\(ProviderFailure.paymentAlreadyInProgress.code): \(state.checkout.provider?.shortName ?? "the provider") is at \(name); finish it"
                + (state.prompt?.abandonable == true ? " or press Esc to abandon it." : " first."))
            return []
        }
        switch state.checkout.state {
        case .notStarted where state.checkout.createdOnLoad:
            // The request made on load is on its way: p authorizes it once it is ready.
            state.warn("Wait: the request is being created.")
            return []
        case .notStarted:
            guard let order = order(state) else {
                if case .failure(let error) = state.summary { state.warn(error.description) }
                return []
            }
            let method = state.selectedPaymentMethod
            guard !state.isUnavailable(method.id) else {
                state.warn(MethodPause.refusal(state, method))
                return []
            }
            state.layout.focus = .payment
            return start(&state, order: order, with: method)
        case .readyToAuthorize:
            if state.checkout.createdOnLoad {
                // The request made on load is the customer's from now on; the receipt counts from here.
                state.checkout.createdOnLoad = false
                state.checkout.flowStartedAt = state.now
            }
            return [.authorize]
        default:
            state.warn(state.checkout.ended ? endedNotice : "Wait: the request is \(state.checkout.state.name).")
            return []
        }
    }

    /// Starts the checkout with `method`, fixed from now on.
    private static func start(_ state: inout AppState, order: PaymentOrder, with method: PaymentMethod) -> [AppCommand] {
        state.recording.promptFlagsThisCheckout = []
        if state.recording.paidScenario == nil {
            var paid = Scenario(snapshotOf: state, paidWith: method.id)
            paid.options.merge(state.paymentOptions) { _, chosen in chosen }
            state.recording.paidScenario = paid
        }
        state.checkout.provider = method
        state.checkout.flowStartedAt = state.now
        return state.drive(.paying(method)) + [.pay(order, provider: method.plan)]
    }

    /// Creates the request as the checkout loads (PayKit's seed: "as soon as your checkout view
    /// controller loads"), when the chosen method asks for it, the session is up, nothing is in
    /// flight and the cart can be paid: the first p then authorizes at once. The cart and the
    /// method's switch keep it current (`updateCustomerRequest`) until then.
    static func createOnLoad(_ state: inout AppState) -> [AppCommand] {
        let method = state.selectedPaymentMethod
        guard state.sessionStarted, method.createsOnLoad, state.checkout.idle, state.prompt == nil, state.director == nil,
            state.selectedSavedMethod == nil, !state.isUnavailable(method.id), let order = order(state)
        else { return [] }
        let commands = start(&state, order: order, with: method)
        state.checkout.createdOnLoad = true
        return commands
    }

    /// The order for the cart as it is now: a scenario's fixed amount, reference and metadata.
    static func order(_ state: AppState) -> PaymentOrder? {
        let scenario = state.recording.scenario
        var order = try? PaymentOrder.forCart(
            state.cart, merchantName: state.merchantName, amount: scenario?.amount, reference: scenario?.referenceID,
            metadata: scenario?.metadata ?? [:])
        order?.providerOptions = state.paymentOptions
        return order
    }

    /// Applies a cart change when the cart may change; while readyToAuthorize the attempt follows.
    static func editCart(_ state: inout AppState, _ change: (inout Cart) -> Void) -> [AppCommand] {
        guard state.checkout.cartEditable else {
            if state.checkout.ended {
                state.warn(endedNotice)
            } else if let phase = state.checkout.phase {
                state.warn("\(state.checkout.provider?.shortName ?? "The provider") is \(phase.name); change the cart when it is done.")
            } else {
                state.warn("The cart is locked while the customer is paying.")
            }
            return []
        }
        change(&state.cart)
        state.layout.shippingCursor = state.cart.shippingMethods.firstIndex { $0.id == state.cart.selectedShippingID } ?? state.layout.shippingCursor
        guard case .readyToAuthorize = state.checkout.state, let order = order(state) else {
            // A request still being made on load takes the newest cart once it is made.
            if state.checkout.untouchedOnLoad, let order = order(state) { return [.changeOrder(order)] }
            return []
        }
        return [.changeOrder(order)]
    }

    static func actAsCustomer(_ state: inout AppState, _ decision: SandboxControlClient.CustomerDecision) -> [AppCommand] {
        guard state.customerSimulated else {
            state.warn("Not the embedded sandbox: the customer must \(decision.rawValue) on their own device.")
            return []
        }
        switch state.checkout.state {
        case .redirecting(let attempt), .polling(let attempt):
            guard let id = attempt.id else { return [] }
            if state.recording.firstCustomerDecision == nil {
                state.recording.firstCustomerDecision = CustomerDecisionRecord(
                    decision: decision, afterSeconds: max(0, state.now.timeIntervalSince(state.checkout.stateEnteredAt)))
            }
            return [.actAsCustomer(decision, attemptID: id)]
        case .readyToAuthorize:
            state.warn("The customer has no link yet: press p or Enter to authorize first.")
        default:
            state.warn("There is no request waiting for the customer.")
        }
        return []
    }

    static func restart(_ state: inout AppState) -> [AppCommand] {
        guard state.checkout.ended else {
            state.warn(state.checkout.idle ? "Nothing to restart: press p to pay." : "Wait for the payment to end before restarting.")
            return []
        }
        // r brings back methods an apiError hid (the user asks to try again).
        MethodPause.show(&state)
        return [.reset]
    }
}
