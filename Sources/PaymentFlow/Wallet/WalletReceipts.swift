import CheckoutModel
import Synchronization

/// What each paid order shipped to and how, kept from the sheet until settlement reads it for
/// the receipt and `--json` (the attempt itself carries only the payment's ids).
final class WalletReceipts: Sendable {
    private struct Stored {
        var byReference: [String: [String: String]] = [:]
        var items: [String: [WalletSummaryItem]] = [:]
        var arrivals: [String] = []
    }

    private let stored = Mutex(Stored())

    func keep(reference: String, _ details: [String: String], items: [WalletSummaryItem] = []) {
        stored.withLock { stored in
            // One session pays a handful of orders; past a bound the oldest goes first.
            if stored.byReference[reference] == nil { stored.arrivals.append(reference) }
            stored.byReference[reference] = details
            stored.items[reference] = items
            if stored.arrivals.count > 64 {
                let oldest = stored.arrivals.removeFirst()
                stored.byReference[oldest] = nil
                stored.items[oldest] = nil
            }
        }
    }

    func details(reference: String) -> [String: String] {
        stored.withLock { $0.byReference[reference] ?? [:] }
    }

    /// The summary items the customer paid on (none for the card form).
    func items(reference: String) -> [WalletSummaryItem] {
        stored.withLock { $0.items[reference] ?? [] }
    }

    static func details(sheet: WalletSheet, processor: String, charge: WalletChargeResult, by: String, type: WalletSettings.ShippingType = .shipping) -> [String: String] {
        var details = charge.details
        details["processor"] = processor.lowercased()
        details["card"] = sheet.card.label
        if sheet.collectsAddress { details["ship_to"] = sheet.address.oneLine }
        if type != .shipping { details["shipping_type"] = type.rawValue }
        if let method = sheet.method {
            details["shipping_method"] = "\(method.label) (\(method.detail))"
            details["shipping"] = method.priceText
        }
        details["contact"] = [sheet.contact.name, sheet.contact.email, sheet.contact.phone].filter { !$0.isEmpty }.joined(separator: ", ")
        details["authorized_by"] = by
        return details
    }
}

/// The sheet's services: rates, the token issuer, the processor, and the card form's processor.
public struct WalletServices: Sendable {
    public var rates: any WalletRatesSource
    public var tokens: any WalletTokenSource
    public var processor: any WalletProcessor
    /// Charges the merchant's card form (keyed entry through Square) when no wallet card is accepted.
    public var keyed: any WalletKeyedProcessor

    public init(rates: any WalletRatesSource, tokens: any WalletTokenSource, processor: any WalletProcessor, keyed: any WalletKeyedProcessor) {
        self.rates = rates
        self.tokens = tokens
        self.processor = processor
        self.keyed = keyed
    }
}

/// Charges a keyed card's nonce (the card form's fallback).
public protocol WalletKeyedProcessor: Sendable {
    func charge(nonce: String, amount: Money, reference: String, idempotencyKey: String) async throws(ProviderFailure) -> WalletChargeResult
}

extension ShippingAddress {
    /// An address from the sheet's form fields (label "Entered").
    static func fromForm(_ values: [String: String]) -> ShippingAddress {
        func value(_ key: String) -> String { (values[key] ?? "").trimmedOfWhitespace }
        return ShippingAddress(
            label: "Entered", name: value("name"), street: value("street"), city: value("city"), state: value("state").uppercased(),
            zip: value("zip"), country: value("country").uppercased())
    }
}
