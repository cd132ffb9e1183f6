import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import TerminalUI

/// Everything the screen shows. `update` changes it; `render` draws it. It is three concerns
/// plus what the session is connected to: the checkout in flight, the layout and selection,
/// and the recording or scenario.
public struct AppState: Hashable, Sendable {
    // Where we are connected.
    public var merchantName: String
    public var endpointLabel: String
    /// Whether `a` / `x` can act as the customer (a sandbox only).
    public var customerSimulated: Bool

    // What is sold and how it can be paid.
    public var cart: Cart
    public var catalogProducts: [Catalog.Product]
    /// The payment pane, in the registry's order.
    public var paymentMethods: [PaymentMethod]
    public var selectedPaymentIndex = 0

    /// The payment in flight and how it ended.
    public var checkout: CheckoutStatus
    /// Focus, cursors, overlays, the notice and the terminal's size.
    public var layout = ScreenLayout()
    /// The scenario the screen was opened with and what a transcript needs of the session.
    public var recording = SessionRecording()

    public var exchanges: [HTTPExchange] = []
    /// Providers' notices (webhooks), newest last; the log pane shows the latest under the exchanges.
    public var notices: [ReceivedNotice] = []
    public var now: Date
    public var quitRequested = false
    /// A replay's or demo's status, shown in the title bar and hints line.
    public var director: DirectorStatus?
    /// Polling longer than this gives up with a clear message (PayKit would poll for the hour).
    public var authorizationTimeoutSeconds = 300

    public init(
        catalog: Catalog, endpointLabel: String, customerSimulated: Bool, paymentMethods: [PaymentMethod], now: Date
    ) {
        merchantName = catalog.merchantName
        self.endpointLabel = endpointLabel
        self.customerSimulated = customerSimulated
        cart = catalog.defaultCart
        catalogProducts = catalog.products
        self.paymentMethods = paymentMethods
        checkout = CheckoutStatus(enteredAt: now)
        layout.shippingCursor = catalog.defaultCart.shippingMethods.firstIndex { $0.id == catalog.defaultCart.selectedShippingID } ?? 0
        self.now = now
    }

    /// The order summary, or why the cart cannot be paid.
    public var summary: Result<OrderSummary, OrderTotalError> {
        Result { () throws(OrderTotalError) -> OrderSummary in try OrderSummary(cart: cart, merchantName: merchantName) }
    }

    /// The method chosen in the payment pane (what the next payment uses).
    public var selectedPaymentMethod: PaymentMethod { paymentMethods[selectedPaymentIndex] }

    /// The panes Tab visits, in order.
    public var visiblePanes: [Pane] { layout.logVisible ? Pane.allCases : Pane.allCases.filter { $0 != .log } }

    /// What the customer paid, once the checkout has succeeded (settled, for providers that settle).
    public var receipt: Receipt? {
        guard case .approved(let attempt) = checkout.state, let provider = checkout.provider else { return nil }
        var receipt = Receipt(
            method: provider.label, cashtag: attempt.payer, requestID: attempt.id ?? "", grantIDs: attempt.grants, paymentID: nil,
            seconds: checkout.flowStartedAt.map { Int(checkout.stateEnteredAt.timeIntervalSince($0)) } ?? 0)
        guard provider.settles else { return receipt }
        guard case .completed(let settled)? = checkout.phase else { return nil }
        receipt.paymentID = settled.paymentID
        receipt.cashtag = settled.payer ?? receipt.cashtag
        return receipt
    }
}

/// The panes Tab moves between.
public enum Pane: Hashable, Sendable, CaseIterable {
    case cart, shipping, payment, log
}

/// The proof of a successful checkout the cart pane turns into.
public struct Receipt: Hashable, Sendable {
    public var method: String
    public var cashtag: String?
    public var requestID: String
    public var grantIDs: [String]
    /// A settling provider's captured payment.
    public var paymentID: String?
    /// From paying to the decision.
    public var seconds: Int
}

/// A provider's notice as the screen shows it: when it came, and what it said.
public struct ReceivedNotice: Hashable, Sendable {
    public var notice: ProviderNotice
    public var at: Date

    public init(notice: ProviderNotice, at: Date) {
        self.notice = notice
        self.at = at
    }
}
