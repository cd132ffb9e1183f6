import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import TerminalUI

/// How the app reacts to each message: a pure function of state and message.
public enum AppUpdate {
    public static let logLimit = 500

    public static func update(_ state: inout AppState, _ message: AppMessage) -> [AppCommand] {
        switch message {
        case .tick(let now):
            let before = state.now
            state.now = now
            if let notice = state.notice, now.timeIntervalSince(notice.shownAt) > 6 { state.notice = nil }
            // Give up once, on the tick that crosses the authorization timeout.
            if case .polling = state.payState {
                let limit = state.stateEnteredAt.addingTimeInterval(TimeInterval(state.authorizationTimeoutSeconds))
                if before < limit, now >= limit { return [.giveUp(afterSeconds: state.authorizationTimeoutSeconds)] }
            }
            return []
        case .resized(let width, let height):
            state.width = width
            state.height = height
            return []
        case .exchange(let exchange):
            let following = state.logCursor == nil || state.logCursor == state.exchanges.count - 1
            state.exchanges.append(exchange)
            if state.exchanges.count > logLimit { state.exchanges.removeFirst(state.exchanges.count - logLimit) }
            if following { state.logCursor = state.exchanges.count - 1 }
            return []
        case .customerActionFailed(let reason):
            warn(&state, reason)
            return []
        case .phaseChanged(let phase):
            state.phase = phase
            return []
        case .requestChanged(let request):
            if case .polling = state.payState { state.payState = .polling(request) }
            AuthorizationCode.refresh(&state.authorizationCode, for: state.payState)
            return []
        case .stateChanged(let next):
            let commands = stateChanged(&state, to: next)
            AuthorizationCode.refresh(&state.authorizationCode, for: state.payState)
            return commands
        case .key(let key):
            if let overlay = state.overlay { return overlayKey(&state, overlay, key) }
            return paneKey(&state, key)
        }
    }

    private static func stateChanged(_ state: inout AppState, to next: CashAppPayState) -> [AppCommand] {
        state.payState = next
        state.stateEnteredAt = state.now
        switch next {
        case .notStarted:
            state.flowStartedAt = nil
            state.phase = nil
        case .creatingCustomerRequest, .updatingCustomerRequest:
            if state.flowStartedAt == nil { state.flowStartedAt = state.now }
            // Afterpay's token and signing are over once the request is being written.
            if case .token? = state.phase { state.phase = nil }
            if case .signing? = state.phase { state.phase = nil }
        case .approved(let request, let grants) where state.selectedPaymentMethod.isAfterpay:
            return [.settleAfterpay(request, grants: grants)]
        case .polling(let request):
            return scenarioCustomer(&state, request: request)
        case .readyToAuthorize(let request):
            // The cart changed while the last update was in flight: send the newest amount.
            if let params = updateParams(state), request.oneTimeAmount?.minorUnits != params.actions?.first?.amount {
                return [requestUpdate(state, params)]
            }
        default:
            break
        }
        return []
    }

    // MARK: Keys outside overlays

    private static func paneKey(_ state: inout AppState, _ key: Key) -> [AppCommand] {
        switch key {
        case .control("c"):
            state.quitRequested = true
        case .character("q"):
            if state.paymentInFlight { state.overlay = .confirmQuit } else { state.quitRequested = true }
        case .character("?"):
            state.overlay = .help
        case .tab:
            moveFocus(&state, by: 1)
        case .backTab:
            moveFocus(&state, by: -1)
        case .up, .character("k"):
            moveCursor(&state, by: -1)
        case .down, .character("j"):
            moveCursor(&state, by: 1)
        case .character("+"), .character("="):
            return changeQuantity(&state, by: 1)
        case .character("-"), .character("_"):
            return changeQuantity(&state, by: -1)
        case .enter, .character(" "):
            return enter(&state)
        case .character("p"):
            return pay(&state)
        case .character("a"):
            return actAsCustomer(&state, .approve)
        case .character("x"):
            return actAsCustomer(&state, .decline)
        case .character("r"):
            return restart(&state)
        case .character("n"):
            guard state.cartEditable else {
                warn(&state, state.checkoutEnded ? "This checkout has ended; press r to start a new one." : "The cart is locked while the customer is paying.")
                return []
            }
            state.overlay = .addProduct(cursor: 0)
        case .character("v"):
            guard state.authorizationCode != nil else {
                warn(&state, "There is no QR code now: it shows while the customer must approve.")
                return []
            }
            state.codeHidden.toggle()
        case .character("l"):
            state.logVisible.toggle()
            if !state.logVisible, state.focus == .log { state.focus = .cart }
        default:
            break
        }
        return []
    }

    private static func moveFocus(_ state: inout AppState, by step: Int) {
        let panes = state.visiblePanes
        let index = panes.firstIndex(of: state.focus) ?? 0
        state.focus = panes[(index + step + panes.count) % panes.count]
    }

    private static func moveCursor(_ state: inout AppState, by step: Int) {
        func clamp(_ value: Int, _ count: Int) -> Int { max(0, min(count - 1, value)) }
        switch state.focus {
        case .cart: state.cartCursor = clamp(state.cartCursor + step, state.cart.items.count)
        case .shipping: state.shippingCursor = clamp(state.shippingCursor + step, state.cart.shippingMethods.count)
        case .payment: state.paymentCursor = clamp(state.paymentCursor + step, state.paymentMethods.count)
        case .log:
            guard !state.exchanges.isEmpty else { return }
            state.logCursor = clamp((state.logCursor ?? state.exchanges.count - 1) + step, state.exchanges.count)
        }
    }

    private static func enter(_ state: inout AppState) -> [AppCommand] {
        switch state.focus {
        case .cart:
            return []
        case .shipping:
            let method = state.cart.shippingMethods[state.shippingCursor]
            guard method.id != state.cart.selectedShippingID else { return [] }
            return editCart(&state) { cart in try? cart.selectShipping(id: method.id) }
        case .payment:
            if case .readyToAuthorize = state.payState { return [.authorize] }
            guard (state.payState == .notStarted && state.phase == nil) || state.checkoutEnded else {
                warn(&state, "The payment method is fixed while a payment is in flight.")
                return []
            }
            state.selectedPaymentIndex = state.paymentCursor
            return []
        case .log:
            guard let index = state.logCursor, state.exchanges.indices.contains(index) else { return [] }
            state.overlay = .httpDetail(exchangeID: state.exchanges[index].id, scroll: 0)
            return []
        }
    }

    private static func changeQuantity(_ state: inout AppState, by step: Int) -> [AppCommand] {
        guard state.cart.items.indices.contains(state.cartCursor) else { return [] }
        let item = state.cart.items[state.cartCursor]
        if item.quantity + step == 0, state.cart.items.count == 1 {
            warn(&state, "\(item.name) is the last item; a cart cannot be empty.")
            return []
        }
        let commands = editCart(&state) { cart in try? cart.setQuantity(item.quantity + step, forSKU: item.sku) }
        state.cartCursor = min(state.cartCursor, state.cart.items.count - 1)
        return commands
    }

    /// Applies a cart change when the cart may change; while readyToAuthorize the request follows.
    private static func editCart(_ state: inout AppState, _ change: (inout Cart) -> Void) -> [AppCommand] {
        guard state.cartEditable else {
            warn(&state, state.checkoutEnded
                ? "This checkout has ended; press r to start a new one."
                : state.phase != nil
                    ? "Afterpay is \(state.phase?.name ?? "busy"); change the cart when it is done."
                    : "The cart is locked while the customer is paying.")
            return []
        }
        change(&state.cart)
        state.shippingCursor = state.cart.shippingMethods.firstIndex { $0.id == state.cart.selectedShippingID } ?? state.shippingCursor
        if case .readyToAuthorize = state.payState, let params = updateParams(state) { return [requestUpdate(state, params)] }
        return []
    }

    private static func pay(_ state: inout AppState) -> [AppCommand] {
        switch state.payState {
        case .notStarted:
            switch state.summary {
            case .failure(let error):
                warn(&state, error.description)
                return []
            case .success(let summary):
                state.focus = .payment
                if state.paidScenario == nil { state.paidScenario = Scenario(snapshotOf: state) }
                let total = charge(state, summary)
                guard state.selectedPaymentMethod.isAfterpay else { return [.createRequest(createParams(state, total: total))] }
                guard state.phase == nil else {
                    warn(&state, "Afterpay is already \(state.phase?.name ?? "working"); wait for it.")
                    return []
                }
                state.flowStartedAt = state.now
                return [.beginAfterpay(
                    .forCart(state.cart, summary: summary, total: total, merchantName: state.merchantName, reference: state.scenario?.referenceID),
                    metadata: metadata(state))]
            }
        case .readyToAuthorize:
            return [.authorize]
        default:
            warn(&state, state.checkoutEnded
                ? "This checkout has ended; press r to start a new one."
                : "Wait: the request is \(state.payState.name).")
            return []
        }
    }

    /// A scenario's customer acts on its own, once per request.
    private static func scenarioCustomer(_ state: inout AppState, request: CustomerRequest) -> [AppCommand] {
        guard state.customerSimulated, let (decision, delay) = state.scenario?.customer.action,
            state.scenarioCustomerActedOn != request.id
        else { return [] }
        state.scenarioCustomerActedOn = request.id
        if state.firstCustomerDecision == nil { state.firstCustomerDecision = CustomerDecisionRecord(decision: decision, afterSeconds: delay) }
        state.notice = Notice(
            text: "Scenario: the customer will \(decision.rawValue)\(delay > 0 ? " in \(delay.plainText) s" : "").",
            kind: .info, shownAt: state.now)
        return [.actAsCustomer(decision, requestID: request.id, afterSeconds: delay)]
    }

    private static func actAsCustomer(_ state: inout AppState, _ decision: SandboxControlClient.CustomerDecision) -> [AppCommand] {
        guard state.customerSimulated else {
            warn(&state, "Not the embedded sandbox: the customer must \(decision.rawValue) on their own device.")
            return []
        }
        switch state.payState {
        case .redirecting(let request), .polling(let request):
            if state.firstCustomerDecision == nil {
                state.firstCustomerDecision = CustomerDecisionRecord(
                    decision: decision, afterSeconds: max(0, state.now.timeIntervalSince(state.stateEnteredAt)))
            }
            return [.actAsCustomer(decision, requestID: request.id)]
        case .readyToAuthorize:
            warn(&state, "The customer has no link yet: press p or Enter to authorize first.")
        default:
            warn(&state, "There is no request waiting for the customer.")
        }
        return []
    }

    private static func restart(_ state: inout AppState) -> [AppCommand] {
        guard state.checkoutEnded else {
            warn(&state, state.payState == .notStarted ? "Nothing to restart: press p to pay." : "Wait for the payment to end before restarting.")
            return []
        }
        return [.reset]
    }

    // MARK: Overlays

    private static func overlayKey(_ state: inout AppState, _ overlay: Overlay, _ key: Key) -> [AppCommand] {
        if key == .control("c") {
            state.quitRequested = true
            return []
        }
        switch overlay {
        case .help:
            if [.escape, .character("?"), .character("q"), .enter].contains(key) { state.overlay = nil }
        case .confirmQuit:
            switch key {
            case .character("y"), .character("Y"): state.quitRequested = true
            case .character("n"), .character("N"), .escape, .character("q"): state.overlay = nil
            default: break
            }
        case .addProduct(let cursor):
            let count = state.catalogProducts.count
            switch key {
            case .escape, .character("q"), .character("n"): state.overlay = nil
            case .up, .character("k"): state.overlay = .addProduct(cursor: max(0, cursor - 1))
            case .down, .character("j"): state.overlay = .addProduct(cursor: min(count - 1, cursor + 1))
            case .enter, .character(" "), .character("+"):
                state.overlay = nil
                guard state.catalogProducts.indices.contains(cursor) else { return [] }
                let product = state.catalogProducts[cursor]
                let commands = editCart(&state) { cart in
                    cart.add(LineItem(sku: product.sku, name: product.name, unitPrice: product.unitPrice, quantity: 1))
                }
                state.focus = .cart
                state.cartCursor = state.cart.items.firstIndex { $0.sku == product.sku } ?? state.cartCursor
                return commands
            default: break
            }
        case .httpDetail(let id, let scroll):
            let page = max(1, state.height - 6)
            switch key {
            case .escape, .character("q"), .enter: state.overlay = nil
            case .up, .character("k"): state.overlay = .httpDetail(exchangeID: id, scroll: max(0, scroll - 1))
            case .down, .character("j"): state.overlay = .httpDetail(exchangeID: id, scroll: scroll + 1)
            case .pageUp: state.overlay = .httpDetail(exchangeID: id, scroll: max(0, scroll - page))
            case .pageDown, .character(" "): state.overlay = .httpDetail(exchangeID: id, scroll: scroll + page)
            case .home: state.overlay = .httpDetail(exchangeID: id, scroll: 0)
            default: break
            }
        }
        return []
    }

    // MARK: Helpers

    private static func warn(_ state: inout AppState, _ text: String) {
        state.notice = Notice(text: text, kind: .warning, shownAt: state.now)
    }

    static func actions(_ state: AppState, total: Money) -> [PaymentAction] {
        [.oneTimePayment(scopeID: state.brandID, amount: total.minorUnits, currency: total.currency.code)]
    }

    /// What is charged: the cart's total, or a scenario's fixed amount (sandbox magic values).
    static func charge(_ state: AppState, _ summary: OrderSummary) -> Money {
        state.scenario?.amount ?? summary.total
    }

    static func metadata(_ state: AppState) -> [String: String] {
        (state.scenario?.metadata ?? [:]).merging(["cart_items": String(state.cart.items.reduce(0) { $0 + $1.quantity })]) { $1 }
    }

    static func createParams(_ state: AppState, total: Money) -> CreateCustomerRequestParams {
        CreateCustomerRequestParams(
            actions: actions(state, total: total), channel: .ONLINE, redirectURL: "terminalcheckout://checkout/return",
            referenceID: state.scenario?.referenceID, metadata: metadata(state))
    }

    /// The command that brings the request to the cart's amount: a PATCH, or for Afterpay a
    /// new signed token first.
    private static func requestUpdate(_ state: AppState, _ params: UpdateCustomerRequestParams) -> AppCommand {
        guard state.selectedPaymentMethod.isAfterpay, case .success(let summary) = state.summary else { return .updateRequest(params) }
        return .updateAfterpay(.forCart(
            state.cart, summary: summary, total: charge(state, summary), merchantName: state.merchantName,
            reference: state.scenario?.referenceID))
    }

    static func updateParams(_ state: AppState) -> UpdateCustomerRequestParams? {
        guard case .success(let summary) = state.summary, let request = state.payState.request else { return nil }
        return UpdateCustomerRequestParams(
            actions: actions(state, total: charge(state, summary)), referenceID: request.referenceID, metadata: metadata(state))
    }
}
