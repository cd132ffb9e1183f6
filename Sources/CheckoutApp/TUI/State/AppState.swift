import CheckoutModel
import DequeModule
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
    public var customerSimulated: Bool {
        get { driver.customerSimulated }
        set { driver.customerSimulated = newValue }
    }

    // What is sold and how it can be paid.
    public var cart: Cart
    public var catalogProducts: [Catalog.Product]
    /// The payment pane, in the registry's order.
    public var paymentMethods: [PaymentMethod]
    public var selectedPaymentIndex = 0
    /// Methods the customer saved with a provider, listed beneath it; one may be chosen.
    public var savedMethods: [SavedPaymentMethod] = []
    public var selectedSavedMethodID: String?
    /// Providers whose toggle (store for next time) is on.
    public var togglesOn: Set<String> = []
    /// The value chosen for a provider whose toggle is a choice (Antom's language), by provider.
    public var toggleChoices: [String: String] = [:]
    /// Methods hidden after an apiError ("temporarily unavailable") and until when.
    public var unavailable: UnavailableMethods?
    /// The session behind the screen is up: a request made as the checkout loads can go out.
    public var sessionStarted = false

    /// The payment in flight and how it ended.
    public var checkout: CheckoutStatus
    /// What the provider asks at the terminal now (Square's tip screen, reader, delayed capture).
    public var prompt: CustomerPrompt?
    /// Focus, cursors, overlays, the notice and the terminal's size.
    public var layout = ScreenLayout()
    /// The scenario the screen was opened with and what a transcript needs of the session.
    public var recording = SessionRecording() {
        didSet { driver.customer = recording.scenario?.customer }
    }
    /// What automates the checkout: the scenario's customer, the authorization timeout.
    public var driver: CheckoutDriver

    public var exchanges: Deque<HTTPExchange> = []
    /// Providers' notices (webhooks), newest last; the log pane shows the latest under the exchanges.
    public var notices: [ReceivedNotice] = []
    public var now: Date
    public var quitRequested = false
    /// Why the session behind the screen could not start; the screen then ends with it.
    public var startFailure: String?
    /// A replay's or demo's status, shown in the title bar and hints line.
    public var director: DirectorStatus?
    /// Polling longer than this gives up with a clear message (PayKit would poll for the hour).
    public var authorizationTimeoutSeconds: Int {
        get { driver.authorizationTimeoutSeconds }
        set { driver.authorizationTimeoutSeconds = newValue }
    }

    public init(
        catalog: Catalog, endpointLabel: String, customerSimulated: Bool, paymentMethods: [PaymentMethod], now: Date
    ) {
        merchantName = catalog.merchantName
        self.endpointLabel = endpointLabel
        driver = CheckoutDriver(mode: .screen, customerSimulated: customerSimulated, authorizationTimeoutSeconds: 300)
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
            method: provider.label, cashtag: attempt.payer, requestID: attempt.id ?? "", grantIDs: attempt.grantsWithTypes, paymentID: nil,
            seconds: checkout.flowStartedAt.map { Int(checkout.endedAt.timeIntervalSince($0)) } ?? 0)
        guard provider.settles else { return receipt }
        guard case .completed(let settled)? = checkout.phase else { return nil }
        receipt.paymentID = settled.paymentID
        receipt.cashtag = settled.payer ?? receipt.cashtag
        receipt.printout = settled.printout
        receipt.charged = settled.charged
        return receipt
    }
}

/// Methods an apiError hid: the whole family that sends the customer to the same app (every
/// Cash App Pay method), until the pause passes, `r` restarts, or the provider answers again.
public struct UnavailableMethods: Hashable, Sendable {
    /// How often the provider is asked whether it is back, while its methods are hidden.
    public static let healthCheckInterval: TimeInterval = 15

    public var methodIDs: Set<String>
    /// The provider whose apiError hid them (the one asked for its health).
    public var provider: String
    public var until: Date
    /// When to ask the provider next; nil while a check is out or when it has none.
    public var nextHealthCheck: Date?

    public init(methodIDs: Set<String>, provider: String, until: Date, nextHealthCheck: Date?) {
        self.methodIDs = methodIDs
        self.provider = provider
        self.until = until
        self.nextHealthCheck = nextHealthCheck
    }
}

extension AppState {
    /// The method with this id says "temporarily unavailable" and cannot be chosen.
    public func isUnavailable(_ methodID: String) -> Bool {
        unavailable?.methodIDs.contains(methodID) == true
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
    /// The grants, with their types when one is an on-file (EXTENDED) grant: `GRG_… (EXTENDED)`.
    public var grantIDs: [String]
    /// A settling provider's captured payment.
    public var paymentID: String?
    /// From paying to the decision.
    public var seconds: Int
    /// The provider's printed receipt (Square's), shown in place of the ids.
    public var printout: [String] = []
    /// False when the authorization was voided: nothing was charged.
    public var charged = true
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

/// One row of the payment pane: a provider's method, its toggle (shown while it is chosen), or
/// a saved method beneath it.
public enum PaymentRow: Hashable, Sendable {
    case method(Int)
    case toggle(Int)
    case saved(SavedPaymentMethod)
}

extension AppState {
    /// The payment pane's rows, in order.
    public var paymentRows: [PaymentRow] {
        var rows: [PaymentRow] = []
        for (index, method) in paymentMethods.enumerated() {
            rows.append(.method(index))
            if let toggle = method.toggle, !toggle.inline, index == selectedPaymentIndex { rows.append(.toggle(index)) }
            rows += savedMethods.filter { $0.provider == method.id }.map(PaymentRow.saved)
        }
        return rows
    }

    /// The payment pane's row under the cursor.
    public var paymentRowUnderCursor: PaymentRow? {
        let rows = paymentRows
        return rows.indices.contains(layout.paymentCursor) ? rows[layout.paymentCursor] : nil
    }

    /// The saved method the next payment uses, if one is chosen.
    public var selectedSavedMethod: SavedPaymentMethod? {
        selectedSavedMethodID.flatMap { id in savedMethods.first { $0.id == id && $0.provider == selectedPaymentMethod.id } }
    }

    /// The options the next payment carries: the chosen saved method's, or the toggle's.
    public var paymentOptions: [String: String] {
        if let saved = selectedSavedMethod { return saved.options }
        let method = selectedPaymentMethod
        if let toggle = method.toggle, toggle.isChoice {
            return toggleChoices[method.id].map { [toggle.flag: $0] } ?? [:]
        }
        guard let toggle = method.toggle, togglesOn.contains(method.id) else { return [:] }
        return [toggle.flag: "true"]
    }

    /// Replaces one provider's saved methods; a chosen one that is gone is un-chosen, and why is said.
    mutating func replaceSavedMethods(of provider: String, with methods: [SavedPaymentMethod], reason: String? = nil) {
        let chosen = selectedSavedMethod
        savedMethods = savedMethods.filter { $0.provider != provider } + methods
        if let chosen, chosen.provider == provider, !methods.contains(where: { $0.id == chosen.id }) {
            selectedSavedMethodID = nil
            warn("\(chosen.label) is no longer saved\(reason.map { " (\($0))" } ?? ""); the next payment asks the customer.")
        }
        layout.paymentCursor = min(layout.paymentCursor, max(0, paymentRows.count - 1))
    }
}
