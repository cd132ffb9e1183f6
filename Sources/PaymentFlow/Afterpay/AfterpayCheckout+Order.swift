import CheckoutModel
import Foundation
import ProviderWire

extension AfterpayCheckoutRequest {
    /// The Afterpay checkout for an order: Cash App Pay, both redirect URLs, items, discounts,
    /// shipping and tax as decimal strings.
    public static func forOrder(_ order: PaymentOrder, reference: String) -> AfterpayCheckoutRequest {
        func money(_ amount: Money) -> AfterpayMoney { AfterpayMoney(amount: amount.decimalString, currency: amount.currency.code) }
        let cart = order.cart
        return AfterpayCheckoutRequest(
            amount: money(order.amount),
            consumer: .init(email: "shopper@example.com", givenNames: "Sandbox", surname: "Shopper"),
            merchantReference: reference,
            merchant: .init(
                redirectConfirmUrl: "terminalcheckout://afterpay/confirm", redirectCancelUrl: "terminalcheckout://afterpay/cancel",
                name: order.merchantName),
            items: cart.items.map { .init(name: $0.name, sku: $0.sku, quantity: $0.quantity, price: money($0.unitPrice)) },
            // The summary's discount lines: what was really taken off, in order (negative there).
            discounts: order.summary.lines.filter { $0.kind == .discount }.map { line in
                .init(displayName: line.label, amount: money((try? -line.amount) ?? .zero(line.amount.currency)))
            },
            taxAmount: money(order.summary.tax), shippingAmount: money(order.summary.shipping))
    }
}
