import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import TerminalUI

/// The panes Tab moves between.
public enum Pane: Hashable, Sendable, CaseIterable {
    case cart, shipping, payment, log
}

/// A payment method offered in the payment pane.
public struct PaymentMethodOption: Hashable, Sendable {
    public let id: String
    public let label: String
    public let detail: String

    public static let cashApp = PaymentMethodOption(id: "cashapp", label: "Cash App Pay", detail: "Customer Request API")
    public static let cashAppAfterpay = PaymentMethodOption(id: "afterpay", label: "Cash App Pay (Afterpay)", detail: "")

    public var isAfterpay: Bool { id == Self.cashAppAfterpay.id }
}

/// What covers the screen, if anything.
public enum Overlay: Hashable, Sendable {
    case help
    case httpDetail(exchangeID: Int, scroll: Int)
    case confirmQuit
    /// The catalog, to add a product to the cart; `cursor` is the highlighted product.
    case addProduct(cursor: Int)
}

/// What the customer did and when, for the transcript's scenario.
public struct CustomerDecisionRecord: Hashable, Sendable {
    public var decision: SandboxControlClient.CustomerDecision
    public var afterSeconds: Double
}

/// The proof of a successful checkout the cart pane turns into.
public struct Receipt: Hashable, Sendable {
    public var method: String
    public var cashtag: String?
    public var requestID: String
    public var grantIDs: [String]
    /// Afterpay's captured payment.
    public var paymentID: String?
    /// From paying to the decision.
    public var seconds: Int
}

/// A short message under the banner, e.g. why a key did nothing.
public struct Notice: Hashable, Sendable {
    public enum Kind: Hashable, Sendable { case info, warning }
    public let text: String
    public let kind: Kind
    public let shownAt: Date
}

/// Everything the screen shows. `update` changes it; `render` draws it. Selection lives
/// here, not in widgets.
public struct AppState: Hashable, Sendable {
    // Where we are connected.
    public var merchantName: String
    public var endpointLabel: String
    /// Whether `a` / `x` can act as the customer (embedded sandbox only).
    public var customerSimulated: Bool
    public var brandID: String

    // The checkout.
    public var cart: Cart
    public var catalogProducts: [Catalog.Product]
    public var paymentMethods: [PaymentMethodOption] = [.cashApp, .cashAppAfterpay]
    public var selectedPaymentIndex = 0

    // Selection and layout.
    public var focus: Pane = .cart
    public var cartCursor = 0
    public var shippingCursor = 0
    public var paymentCursor = 0
    public var logCursor: Int?
    public var logVisible = true
    public var overlay: Overlay?
    public var notice: Notice?
    public var width = 100
    public var height = 30
    /// The terminal shows colours (the QR code is drawn black on white, else in reverse video).
    public var colors = true
    /// `v` hides the QR code to see the panes under it.
    public var codeHidden = false

    // The payment.
    public var payState: CashAppPayState = .notStarted
    /// Afterpay's step around the SDK state, when paying through Afterpay.
    public var phase: CheckoutPhase?
    public var stateEnteredAt: Date
    public var flowStartedAt: Date?
    public var exchanges: [HTTPExchange] = []
    /// The authorization link as a QR code while the customer must act.
    public var authorizationCode: AuthorizationCode?
    public var now: Date
    public var quitRequested = false
    /// A replay's or demo's status, shown in the title bar and hints line.
    public var director: DirectorStatus?
    /// The scenario the screen was opened with: its amount, reference, metadata and customer.
    public var scenario: Scenario?
    /// The first checkout paid in this session, as a scenario (for transcripts).
    public var paidScenario: Scenario?
    /// The request the scenario's customer already acted on (it acts once per request).
    public var scenarioCustomerActedOn: String?
    /// What the customer did in the first checkout, and how long after polling began.
    public var firstCustomerDecision: CustomerDecisionRecord?
    /// Polling longer than this gives up with a clear message (PayKit would poll for the hour).
    public var authorizationTimeoutSeconds = 300

    public init(catalog: Catalog, endpointLabel: String, customerSimulated: Bool, brandID: String, now: Date) {
        merchantName = catalog.merchantName
        self.endpointLabel = endpointLabel
        self.customerSimulated = customerSimulated
        self.brandID = brandID
        cart = catalog.defaultCart
        catalogProducts = catalog.products
        shippingCursor = catalog.defaultCart.shippingMethods.firstIndex { $0.id == catalog.defaultCart.selectedShippingID } ?? 0
        stateEnteredAt = now
        self.now = now
    }

    /// The order summary, or why the cart cannot be paid.
    public var summary: Result<OrderSummary, NonPositiveTotalError> {
        Result { () throws(NonPositiveTotalError) -> OrderSummary in try OrderSummary(cart: cart, merchantName: merchantName) }
    }

    public var selectedPaymentMethod: PaymentMethodOption { paymentMethods[selectedPaymentIndex] }

    /// The panes Tab visits, in order.
    public var visiblePanes: [Pane] { logVisible ? Pane.allCases : Pane.allCases.filter { $0 != .log } }

    /// A customer request exists and is not decided: quitting would abandon it.
    public var paymentInFlight: Bool { payState.kind == .inProgress }

    /// The cart may change now: before paying, or before authorizing (which updates the
    /// request), but not while Afterpay is making a token or signing.
    public var cartEditable: Bool {
        switch payState {
        case .notStarted, .readyToAuthorize: phase == nil
        default: false
        }
    }

    /// What the customer paid, once the checkout has succeeded: Cash App Pay approved, or
    /// through Afterpay approved and captured.
    public var receipt: Receipt? {
        guard case .approved(let request, let grants) = payState else { return nil }
        var receipt = Receipt(
            method: selectedPaymentMethod.label, cashtag: request.customerProfile?.cashtag, requestID: request.id,
            grantIDs: grants.map(\.id), paymentID: nil,
            seconds: flowStartedAt.map { Int(stateEnteredAt.timeIntervalSince($0)) } ?? 0)
        guard selectedPaymentMethod.isAfterpay else { return receipt }
        guard case .completed(let paymentID, let cashtag)? = phase else { return nil }
        receipt.paymentID = paymentID
        receipt.cashtag = cashtag ?? receipt.cashtag
        return receipt
    }

    /// Nothing more will happen without a new checkout.
    public var checkoutEnded: Bool {
        guard payState.isTerminal else { return false }
        guard selectedPaymentMethod.isAfterpay, case .approved = payState else { return true }
        switch phase {
        case .completed?, .settlementFailed?: return true
        default: return false
        }
    }
}

/// Everything that can happen to the app, from any source, as one message stream.
public enum AppMessage: Hashable, Sendable {
    case key(Key)
    case resized(width: Int, height: Int)
    case tick(Date)
    case stateChanged(CashAppPayState)
    case requestChanged(CustomerRequest)
    case exchange(HTTPExchange)
    case phaseChanged(CheckoutPhase)
    case customerActionFailed(String)
}

/// Side effects `update` asks for; the runner performs them in order, off the UI loop.
public enum AppCommand: Hashable, Sendable {
    case createRequest(CreateCustomerRequestParams)
    /// Afterpay: token and signing, then the customer request from the signed payment.
    case beginAfterpay(AfterpayCheckoutRequest, metadata: [String: String]? = nil)
    /// Afterpay: a new token and signature for the changed cart, then the request's update.
    case updateAfterpay(AfterpayCheckoutRequest)
    /// Afterpay: validate and capture an approved request.
    case settleAfterpay(CustomerRequest, grants: [Grant])
    case updateRequest(UpdateCustomerRequestParams)
    case authorize
    case actAsCustomer(SandboxControlClient.CustomerDecision, requestID: String, afterSeconds: Double = 0)
    case giveUp(afterSeconds: Int)
    case reset
}
