import CheckoutApp
import CheckoutModel
import Testing

private func dollars(_ cents: Int) -> Money { Money(minorUnits: cents, currency: .usd) }

@Suite struct CartTests {
    let catalog: Catalog

    init() throws { catalog = try Catalog.bundled() }

    @Test func defaultCartSummaryEndsWithTheTotalLabelledWithTheMerchant() throws {
        let summary = try OrderSummary(cart: catalog.defaultCart, merchantName: catalog.merchantName)
        #expect(summary.lines.map(\.kind) == [.item, .item, .discount, .shipping, .tax, .total])
        #expect(summary.lines.last?.label == "Driftwood Coffee Co.")
        // 2 × $16.50 + $14.00 − $5.00 = $42.00; tax 7.25% = $3.045 → $3.05; free shipping.
        #expect(summary.subtotal == dollars(4700))
        #expect(summary.discountTotal == dollars(500))
        #expect(summary.lines[2].amount == dollars(-500))
        #expect(summary.tax == dollars(305))
        #expect(summary.total == dollars(4505))
        #expect(summary.lines.last?.amount.formatted == "$45.05")
    }

    @Test func changingShippingRecomputesTheTotal() throws {
        var cart = catalog.defaultCart
        try cart.selectShipping(id: "express")
        let summary = try OrderSummary(cart: cart, merchantName: catalog.merchantName)
        #expect(summary.shipping == dollars(1000))
        #expect(summary.total == dollars(5505))
        #expect(summary.lines.first { $0.kind == .shipping }?.label == "Express Shipping")
    }

    @Test func quantitiesChangeAndZeroRemovesALine() throws {
        var cart = catalog.defaultCart
        try cart.setQuantity(3, forSKU: "BEAN-HOUSE-12")
        #expect(try cart.items.first { $0.sku == "BEAN-HOUSE-12" }?.lineTotal == dollars(4950))
        try cart.setQuantity(0, forSKU: "MUG-ENAMEL")
        #expect(cart.items.map(\.sku) == ["BEAN-HOUSE-12"])
    }

    @Test func theLastItemCannotBeRemoved() throws {
        var cart = catalog.defaultCart
        try cart.setQuantity(0, forSKU: "MUG-ENAMEL")
        #expect(throws: CartError.lastItemCannotBeRemoved(sku: "BEAN-HOUSE-12")) {
            try cart.setQuantity(0, forSKU: "BEAN-HOUSE-12")
        }
        #expect(cart.items.count == 1)
    }

    @Test func unknownSKUsAndShippingMethodsAreErrors() {
        var cart = catalog.defaultCart
        #expect(throws: CartError.unknownSKU("NOPE")) { try cart.setQuantity(1, forSKU: "NOPE") }
        #expect(throws: CartError.unknownShippingMethod("teleport")) { try cart.selectShipping(id: "teleport") }
        #expect(throws: CartError.negativeQuantity(sku: "MUG-ENAMEL", quantity: -1)) { try cart.setQuantity(-1, forSKU: "MUG-ENAMEL") }
    }

    @Test func percentDiscountsApplyAfterAmountDiscounts() throws {
        var cart = catalog.defaultCart
        cart.discounts = catalog.discounts  // $5 off, then 10% off the remaining $42.00
        let summary = try OrderSummary(cart: cart, merchantName: catalog.merchantName)
        #expect(summary.discountTotal == dollars(500 + 420))
        #expect(summary.tax == dollars(274))  // 7.25% of $37.80 = $2.7405
        #expect(summary.total == dollars(3780 + 274))
    }

    @Test func aTotalThatIsNotAboveZeroIsAClearError() throws {
        let cart = Cart(
            currency: .usd,
            items: [LineItem(sku: "X", name: "Sample", unitPrice: dollars(300), quantity: 1)],
            discounts: [Discount(id: "D", label: "Free sample", kind: .amountOff(dollars(500)))])
        do {
            _ = try OrderSummary(cart: cart, merchantName: "Shop")
            Issue.record("a zero total must not make a summary")
        } catch {
            #expect(error == .notPositive(dollars(0)))
            #expect(error.description.contains("greater than zero"))
        }
    }

    @Test func addingAnExistingSKURaisesItsQuantity() throws {
        var cart = catalog.defaultCart
        cart.add(try catalog.lineItem(sku: "MUG-ENAMEL", quantity: 2))
        cart.add(try catalog.lineItem(sku: "KETTLE-GOOSE", quantity: 1))
        #expect(cart.items.map(\.quantity) == [2, 3, 1])
    }
}

@Suite struct CatalogTests {
    @Test func reportsTheFieldOfABadPrice() {
        let json = """
            {"merchant": {"name": "M", "currency": "USD"},
             "items": [{"sku": "A", "name": "A", "unit_price": "1.999"}],
             "shipping_methods": [], "discounts": [], "default_cart": {"items": [{"sku": "A", "quantity": 1}]}}
            """
        #expect(throws: CatalogError.self) { try Catalog(json: Data(json.utf8)) }
        do { _ = try Catalog(json: Data(json.utf8)) } catch {
            #expect(error.field == "items[0].unit_price")
        }
    }

    @Test func reportsAMissingField() {
        let json = #"{"merchant": {"name": "M", "currency": "USD"}, "items": [], "discounts": [], "default_cart": {"items": []}}"#
        do {
            _ = try Catalog(json: Data(json.utf8))
            Issue.record("expected an error")
        } catch {
            #expect(error.field == "shipping_methods")
            #expect(error.problem == "required field is missing")
        }
    }

    @Test func rejectsUnknownCurrenciesAndSKUs() {
        let badCurrency = #"{"merchant": {"name": "M", "currency": "XYZ"}, "items": [], "shipping_methods": [], "discounts": [], "default_cart": {"items": []}}"#
        #expect(throws: CatalogError.self) { try Catalog(json: Data(badCurrency.utf8)) }
        let badSKU = #"{"merchant": {"name": "M", "currency": "USD"}, "items": [], "shipping_methods": [], "discounts": [], "default_cart": {"items": [{"sku": "Q", "quantity": 1}]}}"#
        do { _ = try Catalog(json: Data(badSKU.utf8)) } catch { #expect(error.field == "default_cart.items[0].sku") }
    }

    @Test func aTotalTooLargeToComputeIsAClearError() throws {
        let cart = Cart(
            currency: .usd,
            items: [LineItem(sku: "X", name: "Gold", unitPrice: Money(minorUnits: .max / 2, currency: .usd), quantity: 3)])
        do {
            _ = try OrderSummary(cart: cart, merchantName: "Shop")
            Issue.record("an overflowing total must not make a summary")
        } catch {
            #expect(error.description.contains("cannot be computed"), "\(error)")
        }
    }
}

import Foundation
