import CheckoutModel
import Foundation

/// The wallet sheet as a provider: `create` builds the payment request (the networks check,
/// the total > 0 rule, the saved addresses and cards); the sheet opens at the terminal
/// (`readyToAuthorize`) and its authorization is charged by the merchant's processor.
public struct WalletAdapter: PaymentProviderAdapter {
    private let provider: String
    private let settings: WalletSettings
    private let customer: SampleCustomer?
    private let desk: CustomerDesk
    private let services: WalletServices
    private let report: WalletEventReporter
    private let receipts = WalletReceipts()

    public init(
        provider: String, settings: WalletSettings, customer: SampleCustomer?, desk: CustomerDesk, services: WalletServices,
        report: @escaping WalletEventReporter
    ) {
        self.provider = provider
        self.settings = settings
        self.customer = customer
        self.desk = desk
        self.services = services
        self.report = report
    }

    /// The wallet's cards split by whether the merchant's networks take them.
    public var walletCards: (eligible: [SavedCard], ineligible: [SavedCard]) {
        let cards = settings.cards ?? customer?.savedCards ?? []
        return (cards.filter { settings.supportedNetworks.contains($0.network) }, cards.filter { !settings.supportedNetworks.contains($0.network) })
    }

    public var addresses: [ShippingAddress] { settings.addresses ?? customer?.addresses ?? [] }

    public func create(_ draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        do { _ = try WalletSummary.summary(of: order, shipping: nil) } catch {
            throw ProviderFailure(kind: .integration, category: "WALLET", code: "TOTAL_NOT_POSITIVE", detail: "the sheet cannot open: \(error.description)")
        }
        if settings.collectsAddress { _ = try openingAddress() }
        _ = try shippingSource(order)
        let (eligible, _) = walletCards
        if let last4 = settings.cardLast4, !eligible.isEmpty, !eligible.contains(where: { $0.last4 == last4 }) {
            throw Self.optionFailure(
                "--card \(last4): the wallet has no accepted card ending \(last4); it has \(eligible.map(\.last4).joined(separator: ", "))")
        }
        var attempt = draft
        attempt.provider = provider
        attempt.id = "wallet_\(ids.reference)"
        attempt.status = .pending
        attempt.offers = eligible.map(\.label)
        return attempt
    }

    public func update(
        _ attempt: PaymentAttempt, to draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers
    ) async throws(ProviderFailure) -> PaymentAttempt {
        var updated = attempt
        updated.amount = draft.amount
        return updated
    }

    public func retrieve(_ attempt: PaymentAttempt, refreshing: Bool) async throws(ProviderFailure) -> PaymentAttempt { attempt }

    public func authorizeAtTerminal(
        _ attempt: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers, step: @escaping StepReporter
    ) async throws(ProviderFailure) -> PaymentAttempt {
        let (eligible, ineligible) = walletCards
        guard let first = eligible.first else {
            let accepted = settings.supportedNetworks.map(\.displayName).joined(separator: ", ")
            let reason = "No card in the wallet is accepted here (this shop takes \(accepted)); pay by card instead."
            return try await WalletCardForm(desk: desk, services: services, receipts: receipts)
                .run(reason: reason, order: order, attempt: attempt, ids: ids, step: step)
        }
        let card = settings.cardLast4.flatMap { last4 in eligible.first { $0.last4 == last4 } } ?? first
        let contact = WalletContact(name: customer?.name ?? "", email: customer?.email ?? "", phone: customer?.phone ?? "")
        // A contact-only request asks no address: the sheet keeps an empty one it never shows.
        let address = settings.collectsAddress ? try openingAddress() : ((try? openingAddress()) ?? Self.noAddress)
        let sheet = WalletSheet(
            order: order, contact: contact, eligibleCards: eligible, ineligibleCards: ineligible, card: card, addresses: addresses,
            address: address, methodChoice: settings.method, shipping: try shippingSource(order), collectsAddress: settings.collectsAddress)
        let session = WalletSheetSession(desk: desk, settings: settings, services: services, receipts: receipts, report: report)
        return try await session.run(sheet, attempt: attempt, ids: ids, step: step)
    }

    public func settle(_ attempt: PaymentAttempt, ids: AttemptIdentifiers, step: @escaping StepReporter) async -> SettlementOutcome {
        let reference = attempt.reference ?? ids.reference
        let summary = receipts.items(reference: reference)
        let details = receipts.details(reference: reference)
        let items = summary.map(\.fields)
        return .completed(SettlementReceipt(
            paymentID: attempt.id ?? "", payer: attempt.payer, details: details, printout: WalletReceiptPrintout.lines(summary, card: details["card"]),
            lists: items.isEmpty ? [:] : [WalletSummaryItem.jsonKey: items]))
    }

    static let noAddress = ShippingAddress(label: "", name: "", street: "", city: "", state: "", zip: "", country: "")

    /// Where the sheet's methods come from, in this order: `--shipping-methods` (a list, or
    /// `catalog`); a contact-only request without them has none; the rates service by address;
    /// with no rates service, the catalog's methods.
    func shippingSource(_ order: PaymentOrder) throws(ProviderFailure) -> WalletSheet.ShippingSource {
        let catalog = WalletShippingOption.fromCatalog(order.cart.shippingMethods)
        switch settings.flatMethods {
        case .list(let methods)?:
            do { return .flat(try WalletShippingOption.fromFlat(methods, currency: order.cart.currency)) } catch {
                throw Self.optionFailure("--shipping-methods: \(error.description)")
            }
        case .catalog?:
            guard !catalog.isEmpty else { throw Self.optionFailure("--shipping-methods catalog: the catalog has no shipping methods; give id:label:detail:amount;…") }
            return .flat(catalog)
        case nil:
            if !settings.collectsAddress { return .none }
            if services.rates.isConfigured || catalog.isEmpty { return .rates }
            return .flat(catalog)
        }
    }

    /// The address the sheet opens on: `--address`, else the first saved one.
    private func openingAddress() throws(ProviderFailure) -> ShippingAddress {
        switch settings.address {
        case .entered(let address)?:
            return address
        case .saved(let name)?:
            let wanted = name.lowercased()
            guard let found = addresses.first(where: { $0.label.lowercased() == wanted || $0.name.lowercased() == wanted }) else {
                throw Self.optionFailure(
                    "--address \(name): no saved address of that name; saved: \(addresses.map(\.label).joined(separator: ", ")), or give 'street,city,state,zip,country'")
            }
            return found
        case nil:
            guard let first = addresses.first else {
                throw Self.optionFailure("the wallet has no saved address: give --address 'street,city,state,zip,country' or --wallet-addresses")
            }
            return first
        }
    }

    static func optionFailure(_ detail: String) -> ProviderFailure {
        ProviderFailure(kind: .integration, category: "WALLET", code: "BAD_OPTION", detail: detail)
    }
}

extension WalletAdapter {
    /// The sheet's prompt for a sheet in a given state (golden screens, demos).
    public static func sheetPrompt(_ sheet: WalletSheet, settings: WalletSettings = WalletSettings(), processor: String = "Adyen") -> CustomerPrompt {
        WalletPrompts.sheet(sheet, settings: settings, processor: processor)
    }

    /// The shipping methods picker for a sheet (golden screens).
    public static func methodsPrompt(_ sheet: WalletSheet) -> CustomerPrompt {
        WalletPrompts.methods(sheet)
    }
}
