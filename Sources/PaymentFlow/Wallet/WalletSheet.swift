import CheckoutModel

/// The sheet as a value: the card, the address and its rates, the chosen method, and the
/// summary they make. No I/O: a rates lookup is started by the adapter with the generation
/// `chooseAddress` returns, and only the newest generation's answer is taken.
public struct WalletSheet: Hashable, Sendable {
    /// Where the rates for the current address stand.
    public enum Rates: Hashable, Sendable {
        case loading
        case loaded([WalletShippingOption])
        /// The service cannot ship there (an empty answer): "invalid shipping postal address".
        case invalidAddress
        case failed(String)
    }

    /// What a rates lookup came to.
    public enum RatesOutcome: Hashable, Sendable {
        case rates([WalletShippingOption])
        case failed(String)
    }

    /// Where the sheet's shipping methods come from.
    public enum ShippingSource: Hashable, Sendable {
        /// The rates service, asked for each address.
        case rates
        /// The merchant's own list, whatever the address.
        case flat([WalletShippingOption])
        /// No methods: a contact-only request with no flat methods.
        case none
    }

    public static let invalidAddressMessage = "invalid shipping postal address"

    public let order: PaymentOrder
    public let contact: WalletContact
    /// The wallet's cards the merchant accepts, and the ones it does not.
    public let eligibleCards: [SavedCard]
    public let ineligibleCards: [SavedCard]
    public private(set) var card: SavedCard
    public private(set) var addresses: [ShippingAddress]
    public private(set) var address: ShippingAddress
    public private(set) var rates: Rates = .loading
    public private(set) var methodID: String?
    /// Bumped by every address choice; an answer for an older one is dropped.
    public private(set) var generation = 0
    private let methodChoice: WalletSettings.MethodChoice
    public let shippingSource: ShippingSource
    /// False for a contact-only request: no address row, no rates.
    public let collectsAddress: Bool

    public init(
        order: PaymentOrder, contact: WalletContact, eligibleCards: [SavedCard], ineligibleCards: [SavedCard], card: SavedCard,
        addresses: [ShippingAddress], address: ShippingAddress, methodChoice: WalletSettings.MethodChoice,
        shipping: ShippingSource = .rates, collectsAddress: Bool = true
    ) {
        // With no address there is nothing to look rates up for.
        let shipping = !collectsAddress && shipping == .rates ? .none : shipping
        self.shippingSource = shipping
        self.collectsAddress = collectsAddress
        switch shipping {
        case .rates:
            break
        case .flat(let options):
            rates = .loaded(options)
            methodID = Self.preselected(options, choice: methodChoice)
        case .none:
            rates = .loaded([])
        }
        self.order = order
        self.contact = contact
        self.eligibleCards = eligibleCards
        self.ineligibleCards = ineligibleCards
        self.card = card
        self.addresses = addresses
        self.address = address
        self.methodChoice = methodChoice
    }

    /// A new address: its rates are asked for under the returned generation.
    public mutating func chooseAddress(_ chosen: ShippingAddress) -> Int {
        if !addresses.contains(chosen) { addresses.append(chosen) }
        address = chosen
        // Flat methods do not depend on the address.
        guard looksUpRates else {
            generation += 1
            return generation
        }
        rates = .loading
        methodID = nil
        generation += 1
        return generation
    }

    /// Takes a lookup's answer if it is for the current address; false when it came too late.
    public mutating func ratesArrived(_ outcome: RatesOutcome, generation answered: Int) -> Bool {
        guard answered == generation else { return false }
        switch outcome {
        case .rates(let options) where options.isEmpty:
            rates = .invalidAddress
            methodID = nil
        case .rates(let options):
            rates = .loaded(options)
            methodID = Self.preselected(options, choice: methodChoice)
        case .failed(let reason):
            rates = .failed(reason)
            methodID = nil
        }
        return true
    }

    /// The method the settings ask for; the first (cheapest) when that one is not offered.
    static func preselected(_ options: [WalletShippingOption], choice: WalletSettings.MethodChoice) -> String? {
        switch choice {
        case .cheapest: return options.first?.id
        case .fastest:
            // Rates carry no transit days, so the dearest service stands for the fastest.
            return options.max { $0.amount < $1.amount }?.id ?? options.first?.id
        case .id(let id): return options.contains { $0.id == id } ? id : options.first?.id
        }
    }

    /// False when `id` is not one of the loaded methods.
    @discardableResult
    public mutating func chooseMethod(_ id: String) -> Bool {
        guard options.contains(where: { $0.id == id }) else { return false }
        methodID = id
        return true
    }

    /// False when the wallet holds no such eligible card.
    @discardableResult
    public mutating func chooseCard(last4: String) -> Bool {
        guard let found = eligibleCards.first(where: { $0.last4 == last4 }) else { return false }
        card = found
        return true
    }

    public var options: [WalletShippingOption] {
        if case .loaded(let options) = rates { return options }
        return []
    }

    public var method: WalletShippingOption? { options.first { $0.id == methodID } }

    /// Whether an address choice asks the rates service (never without an address: see init).
    public var looksUpRates: Bool { shippingSource == .rates }

    /// The summary items as the sheet shows them (`PKPaymentSummaryItem`s): the lines, the
    /// shipping (pending while its rates are loading or when its method is not priced yet), and
    /// last the total labelled with the merchant. Empty when the order cannot be summed.
    public func summaryItems() -> [WalletSummaryItem] {
        guard let summary = try? summary() else { return [] }
        var items: [WalletSummaryItem] = []
        for line in summary.lines {
            switch line.kind {
            case .total:
                if looksUpRates, rates == .loading {
                    items.append(WalletSummaryItem(label: "Shipping", amount: .zero(line.amount.currency), pending: true))
                }
                items.append(WalletSummaryItem(label: line.label, amount: line.amount, pending: false))
            case .shipping:
                items.append(WalletSummaryItem(label: line.label, amount: line.amount, pending: method?.pending == true))
            default:
                items.append(WalletSummaryItem(label: line.label, amount: line.amount, pending: false))
            }
        }
        return items
    }

    /// The summary items for the current method: the order's lines with the chosen rate as its
    /// shipping; while no rate is chosen, without shipping.
    public func summary() throws(OrderTotalError) -> OrderSummary {
        try WalletSummary.summary(of: order, shipping: method)
    }

    /// Why the sheet cannot be paid now; nil when it can.
    public var unpayableReason: String? {
        switch rates {
        case .loading: return "Waiting for shipping rates…"
        case .invalidAddress: return "Choose another address: \(Self.invalidAddressMessage)"
        case .failed(let reason): return "Shipping rates failed (\(reason)); choose the address again or another one"
        case .loaded:
            if method == nil, shippingSource != .none { return "Choose a shipping method" }
            do { _ = try summary() } catch { return error.description }
            return nil
        }
    }
}

/// One summary item as the sheet shows it: `final`, or `pending` for an amount not known yet.
public struct WalletSummaryItem: Hashable, Sendable {
    public var label: String
    public var amount: Money
    public var pending: Bool

    public init(label: String, amount: Money, pending: Bool) {
        self.label = label
        self.amount = amount
        self.pending = pending
    }

    public var type: String { pending ? "pending" : "final" }

    /// The `--json` key the items go under, in `summary_recomputed` and the final summary.
    public static let jsonKey = "summary_items"

    /// As `--json` carries it: `{"label": "Mustache Wax", "amount": "10.00", "type": "final"}`.
    public var fields: [String: String] { ["label": label, "amount": amount.decimalString, "type": type] }
}

/// Who is paying, as the wallet holds it: sent with the order when the merchant requires it.
public struct WalletContact: Hashable, Sendable {
    public var name: String
    public var email: String
    public var phone: String

    public init(name: String, email: String, phone: String) {
        self.name = name
        self.email = email
        self.phone = phone
    }
}
