import CheckoutModel

/// The sheet's summary items, as the seed describes them: the line items, the discount
/// (negative), shipping, tax, and last the total labelled with the merchant. The cart's own
/// arithmetic does the sums, with the chosen rate as its only shipping method.
public enum WalletSummary {
    public static func summary(of order: PaymentOrder, shipping: WalletShippingOption?) throws(OrderTotalError) -> OrderSummary {
        let cart = order.cart
        let methods = shipping.map { [$0.shippingMethod] } ?? []
        let priced = Cart(
            currency: cart.currency, items: cart.items, discounts: cart.discounts, shippingMethods: methods,
            selectedShippingID: shipping?.id, tax: cart.tax)
        return try OrderSummary(cart: priced, merchantName: order.merchantName)
    }

    /// "PAY DRIFTWOOD COFFEE CO.": how the sheet labels the total.
    public static func payLabel(merchant: String) -> String { "PAY \(merchant.uppercased())" }
}
