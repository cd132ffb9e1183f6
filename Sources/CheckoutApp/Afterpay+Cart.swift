import CheckoutModel
import Foundation
import ProviderWire

extension AfterpayCheckoutRequest {
    /// The Afterpay checkout for a cart: Cash App Pay, both redirect URLs, items, discounts,
    /// shipping and tax as decimal strings.
    static func forCart(
        _ cart: Cart, summary: OrderSummary, total: Money, merchantName: String, reference: String? = nil
    ) -> AfterpayCheckoutRequest {
        func money(_ amount: Money) -> AfterpayMoney { AfterpayMoney(amount: amount.decimalString, currency: amount.currency.code) }
        return AfterpayCheckoutRequest(
            amount: money(total),
            consumer: .init(email: "shopper@example.com", givenNames: "Sandbox", surname: "Shopper"),
            merchantReference: reference ?? "tc-" + UUID().uuidString.prefix(8).lowercased(),
            merchant: .init(
                redirectConfirmUrl: "terminalcheckout://afterpay/confirm", redirectCancelUrl: "terminalcheckout://afterpay/cancel",
                name: merchantName),
            items: cart.items.map { .init(name: $0.name, sku: $0.sku, quantity: $0.quantity, price: money($0.unitPrice)) },
            discounts: cart.discounts.map { .init(displayName: $0.label, amount: money($0.amountOff(subtotal: summary.subtotal))) },
            taxAmount: money(summary.tax), shippingAmount: money(summary.shipping))
    }
}
