import CheckoutModel
import ProviderWire

/// One shipping method on the sheet, made from a rate: "<carrier> <service>", the arrival as
/// its detail, the price in the order's currency.
public struct WalletShippingOption: Hashable, Sendable {
    public var id: String
    public var label: String
    public var detail: String
    public var amount: Money

    public init(id: String, label: String, detail: String, amount: Money) {
        self.id = id
        self.label = label
        self.detail = detail
        self.amount = amount
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
