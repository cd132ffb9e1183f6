import CheckoutModel
import ProviderWire

/// One shipping method on the sheet, made from a rate: "<carrier> <service>", the arrival as
/// its detail, the price in the order's currency.
public struct WalletShippingOption: Hashable, Sendable {
    public var id: String
    public var label: String
    public var detail: String
    public var amount: Money
    /// Not priced yet (`PKPaymentSummaryItemType.pending`): shown as "Amount pending", counted as nothing.
    public var pending: Bool

    public init(id: String, label: String, detail: String, amount: Money, pending: Bool = false) {
        self.id = id
        self.label = label
        self.detail = detail
        self.amount = pending ? .zero(amount.currency) : amount
        self.pending = pending
    }

    /// What the sheet shows for its price.
    public var priceText: String { pending ? "Amount pending" : amount.formatted }

    /// The catalog's shipping methods as the sheet's.
    public static func fromCatalog(_ methods: [ShippingMethod]) -> [WalletShippingOption] {
        methods.map { WalletShippingOption(id: $0.id, label: $0.label, detail: $0.detail, amount: $0.amount) }
    }

    /// The merchant's own methods priced in `currency`; the problem names the method.
    public static func fromFlat(_ methods: [WalletFlatMethod], currency: Currency) throws(WalletRatesProblem) -> [WalletShippingOption] {
        var options: [WalletShippingOption] = []
        for method in methods {
            guard let text = method.amount else {
                options.append(WalletShippingOption(id: method.id, label: method.label, detail: method.detail, amount: .zero(currency), pending: true))
                continue
            }
            guard let amount = try? Money(decimal: text, currency: currency) else {
                throw WalletRatesProblem("shipping method \(method.id): \"\(text.prefix(20))\" is not an amount in \(currency.code)")
            }
            guard amount.minorUnits >= 0 else { throw WalletRatesProblem("shipping method \(method.id): the amount must not be negative") }
            options.append(WalletShippingOption(id: method.id, label: method.label, detail: method.detail, amount: amount))
        }
        return options
    }

    /// The rates as methods, cheapest first as the service sorts them; a rate whose amount or
    /// currency does not fit the order is a broken answer, named.
    public static func fromRates(_ rates: [WalletRate], currency: Currency) throws(WalletRatesProblem) -> [WalletShippingOption] {
        var options: [WalletShippingOption] = []
        for (index, rate) in rates.enumerated() {
            if let code = rate.currency, code.uppercased() != currency.code {
                throw WalletRatesProblem("rates[\(index)].currency is \(code), but the order is in \(currency.code)")
            }
            guard let amount = try? Money(decimal: rate.amount, currency: currency) else {
                throw WalletRatesProblem("rates[\(index)].amount \"\(rate.amount.prefix(20))\" is not an amount in \(currency.code)")
            }
            options.append(WalletShippingOption(
                id: rate.id, label: "\(rate.carrier) \(rate.service)", detail: rate.formattedArrivalDate, amount: amount))
        }
        return options
    }

    /// As the cart's shipping method, so the summary arithmetic is the cart's own.
    var shippingMethod: ShippingMethod { ShippingMethod(id: id, label: label, detail: detail, amount: amount) }
}

/// A rates answer the sheet cannot use, worded for the person at the terminal.
public struct WalletRatesProblem: Error, Hashable, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
