import CheckoutApp
import CheckoutModel
import Foundation
import Testing

/// Item weights and the sample customer: the bundled catalogs, the cart's weight, and catalogs
/// that fail with the field named.
@Suite struct CatalogCustomerTests {
    /// A one-item catalog whose item ends with `itemExtra` and which has `customer` as its sample customer.
    private func catalog(itemExtra: String = "", customer: String? = nil) throws(CatalogError) -> Catalog {
        let customerField = customer.map { #", "sample_customer": \#($0)"# } ?? ""
        let json = """
            {"merchant": {"name": "M", "currency": "USD"},
             "items": [{"sku": "A", "name": "A", "unit_price": "1.00"}, {"sku": "B", "name": "B", "unit_price": "2.00"},
                       {"sku": "C", "name": "C", "unit_price": "3.00"\(itemExtra)}],
             "shipping_methods": [], "discounts": [], "default_cart": {"items": [{"sku": "C", "quantity": 2}]}\(customerField)}
            """
        return try Catalog(json: Data(json.utf8))
    }

    private func error(itemExtra: String = "", customer: String? = nil) -> CatalogError? {
        do {
            _ = try catalog(itemExtra: itemExtra, customer: customer)
            Issue.record("the catalog loaded")
            return nil
        } catch {
            return error
        }
    }

    private static let card = #"{"network": "visa", "last4": "4242"}"#
    private static let address = #"{"label": "Home", "street": "1 Main St", "city": "Portland", "state": "OR", "zip": "97201", "country": "us"}"#

    private func customer(name: String = "Jamie", email: String = "j@example.com", address: String = Self.address, cards: String = Self.card) -> String {
        #"{"name": "\#(name)", "email": "\#(email)", "phone": "+1 503 555 0142", "addresses": [\#(address)], "wallet_cards": [\#(cards)]}"#
    }

    // MARK: bundled catalogs

    @Test(arguments: Catalog.bundledCurrencies)
    func everyBundledCatalogWeighsItsItems(currency: String) throws {
        let catalog = try Catalog.bundled(currency: currency)
        #expect(catalog.products.map(\.weightGrams) == [340, 350, 120, 1100])
        // Two bags of beans and a mug.
        #expect(catalog.defaultCart.items.map(\.weightGrams) == [340, 350])
        #expect(catalog.defaultCart.weightGrams == 2 * 340 + 350)
        #expect(try catalog.lineItem(sku: "KETTLE-GOOSE", quantity: 2).lineWeightGrams == 2200)
    }

    @Test func theUSCatalogsCustomerIsJamieRivera() throws {
        let customer = try #require(try Catalog.bundled().sampleCustomer)
        #expect(customer.name == "Jamie Rivera")
        #expect(customer.email == "jamie@example.com")
        #expect(customer.phone == "+1 503 555 0142")
        #expect(customer.addresses.map(\.label) == ["Home", "Office", "Parents", "Toronto"])
        #expect(customer.addresses.map(\.oneLine) == [
            "1200 NW Naito Pkwy, Portland OR 97209, US", "350 Fifth Ave, New York NY 10118, US",
            "2 Ocean Ave, Honolulu HI 96815, US", "100 Queen St W, Toronto ON M5H 2N2, CA",
        ])
        #expect(customer.addresses.allSatisfy { $0.name == "Jamie Rivera" && $0.validationProblem() == nil })
        #expect(customer.savedCards.map(\.label) == [
            "Visa •••• 4242", "Mastercard •••• 4444", "Amex •••• 0005", "Discover •••• 1117", "Visa •••• 0002 (declines)",
        ])
        #expect(customer.savedCards.map(\.network) == [.visa, .mastercard, .amex, .discover, .visa])
    }

    @Test(arguments: [("THB", "TH", "Bangkok"), ("IDR", "ID", "Jakarta")])
    func theThaiAndIndonesianCustomersLiveInTheirCapitals(currency: String, country: String, city: String) throws {
        let customer = try #require(try Catalog.bundled(currency: currency).sampleCustomer)
        #expect(customer.addresses.map(\.country) == [country])
        #expect(customer.addresses.map(\.city) == [city])
        #expect(customer.addresses.allSatisfy { $0.validationProblem() == nil })
        #expect(customer.savedCards == [SavedCard(network: .visa, last4: "4242"), SavedCard(network: .mastercard, last4: "4444")])
    }

    // MARK: weights

    @Test func aCatalogWithoutWeightsOrACustomerStillLoads() throws {
        let catalog = try catalog()
        #expect(catalog.products.map(\.weightGrams) == [0, 0, 0])
        #expect(catalog.defaultCart.weightGrams == 0)
        #expect(catalog.sampleCustomer == nil)
    }

    @Test(arguments: [#", "weight_grams": 0"#, #", "weight_grams": 70001"#, #", "weight_grams": -5"#, #", "weight_grams": 1.5"#,
                      #", "weight_grams": "340""#, #", "weight_grams": 1e30"#])
    func aBadWeightNamesTheFieldAndTheRange(itemExtra: String) {
        let error = error(itemExtra: itemExtra)
        #expect(error?.field == "items[2].weight_grams")
        #expect(error?.problem.contains("from 1 to 70000") == true, "\(String(describing: error))")
    }

    @Test func theHeaviestAllowedWeightLoads() throws {
        #expect(try catalog(itemExtra: #", "weight_grams": 70000"#).defaultCart.weightGrams == 140_000)
    }

    @Test func inlineItemsAreWeightless() {
        let gift = LineItem(sku: "GIFT", name: "Gift card", unitPrice: Money(minorUnits: 2500, currency: .usd), quantity: 3)
        #expect(gift.weightGrams == 0)
        #expect(Cart(currency: .usd, items: [gift]).weightGrams == 0)
    }

    @Test func theCartsWeightSaturatesInsteadOfTrapping() {
        let price = Money(minorUnits: 100, currency: .usd)
        let heavy = LineItem(sku: "H", name: "Heavy", unitPrice: price, quantity: 3, weightGrams: .max / 2)
        #expect(heavy.lineWeightGrams == .max)
        let two = LineItem(sku: "T", name: "Two", unitPrice: price, quantity: 1, weightGrams: .max / 2 + 1)
        #expect(Cart(currency: .usd, items: [two, two, heavy]).weightGrams == .max)
        let odd = LineItem(sku: "O", name: "Odd", unitPrice: price, quantity: -4, weightGrams: 100)
        #expect(Cart(currency: .usd, items: [odd, LineItem(sku: "N", name: "N", unitPrice: price, quantity: 2, weightGrams: -1)]).weightGrams == 0)
    }

    // MARK: the sample customer

    @Test func anAddressWithoutANameIsTheCustomers() throws {
        let named = #"{"label": "Work", "name": "Pat Lee", "street": "2 Oak St", "city": "Salem", "state": "OR", "zip": "97301", "country": "US"}"#
        let customer = try #require(try catalog(customer: customer(address: "\(Self.address), \(named)")).sampleCustomer)
        #expect(customer.addresses.map(\.name) == ["Jamie", "Pat Lee"])
        #expect(customer.addresses.first?.country == "US")
    }

    @Test(arguments: [
        (#"{"network": "visa", "last4": "42a4"}"#, "sample_customer.wallet_cards[1].last4", "must be exactly 4 digits (e.g. 4242)"),
        (#"{"network": "visa", "last4": "42424"}"#, "sample_customer.wallet_cards[1].last4", "must be exactly 4 digits (e.g. 4242)"),
        (#"{"network": "paypal", "last4": "4242"}"#, "sample_customer.wallet_cards[1].network",
         "must be one of amex, discover, jcb, mastercard, visa, unionpay"),
        (#"{"network": "VISA", "last4": "4242"}"#, "sample_customer.wallet_cards[1]", "VISA:4242 is listed twice"),
        (#"{"network": "amex", "last4": "0005", "label": ""}"#, "sample_customer.wallet_cards[1].label", "must not be empty"),
    ])
    func aBadCardNamesItsField(second: String, field: String, problem: String) {
        let error = error(customer: customer(cards: "\(Self.card), \(second)"))
        #expect(error?.field == field)
        #expect(error?.problem == problem)
    }

    @Test func badContactDetailsAndAddressesNameTheirField() {
        #expect(error(customer: customer(name: " "))?.field == "sample_customer.name")
        #expect(error(customer: customer(email: String(repeating: "j", count: 190) + "@example.com"))?.problem == "must be at most 200 characters")
        #expect(error(customer: customer(email: "jamie"))?.field == "sample_customer.email")
        let badCountry = Self.address.replacingOccurrences(of: #""us""#, with: #""USA""#)
        #expect(error(customer: customer(address: badCountry))?.description
            == "catalog: sample_customer.addresses[0].country: must be two letters (ISO 3166 alpha-2, e.g. US)")
        let longZIP = Self.address.replacingOccurrences(of: "97201", with: "97201-0000-000")
        #expect(error(customer: customer(address: longZIP))?.field == "sample_customer.addresses[0].zip")
        #expect(error(customer: customer(address: "\(Self.address), \(Self.address)"))?.field == "sample_customer.addresses[1].label")
        let noCity = Self.address.replacingOccurrences(of: #""city": "Portland", "#, with: "")
        #expect(error(customer: customer(address: noCity))?.field == "sample_customer.addresses[0].city")
    }

    @Test func aCatalogErrorDescriptionNamesTheField() {
        let error = error(customer: customer(cards: #"{"network": "visa", "last4": "12"}"#))
        #expect(error?.description == "catalog: sample_customer.wallet_cards[0].last4: must be exactly 4 digits (e.g. 4242)")
    }
}
