import CheckoutModel
import Foundation
import PaymentFlow
import Testing

/// The sheet's arithmetic and rates outcomes, as the customer sees them: summary items with
/// the total last, the total > 0 rule, each rates answer, a late answer dropped, and a method
/// change that reprices at once.
@Suite struct WalletSheetTests {
    static let usd = Currency.usd
    static func money(_ cents: Int) -> Money { Money(minorUnits: cents, currency: usd) }

    static func order(itemCents: Int = 3300, discountCents: Int = 500) -> PaymentOrder {
        let cart = Cart(
            currency: usd, items: [LineItem(sku: "BEAN", name: "Beans", unitPrice: money(itemCents / 2), quantity: 2)],
            discounts: discountCents == 0 ? [] : [Discount(id: "LOYAL", label: "Loyalty reward", kind: .amountOff(money(discountCents)))],
            tax: TaxRate(label: "Sales tax", basisPoints: 725))
        return try! PaymentOrder.forCart(cart, merchantName: "Driftwood Coffee Co.")
    }

    static let home = ShippingAddress(label: "Home", name: "Jamie", street: "1 Main St", city: "Portland", state: "OR", zip: "97209", country: "US")
    static let office = ShippingAddress(label: "Office", name: "Jamie", street: "350 Fifth Ave", city: "New York", state: "NY", zip: "10118", country: "US")
    static let visa = SavedCard(network: .visa, last4: "4242")

    static func sheet(order: PaymentOrder = order(), choice: WalletSettings.MethodChoice = .cheapest) -> WalletSheet {
        WalletSheet(
            order: order, contact: WalletContact(name: "Jamie", email: "j@example.com", phone: "+1"), eligibleCards: [visa], ineligibleCards: [],
            card: visa, addresses: [home, office], address: home, methodChoice: choice)
    }

    static let ground = WalletShippingOption(id: "usps-ground", label: "USPS Ground Advantage", detail: "Mon, Nov 30", amount: money(745))
    static let express = WalletShippingOption(id: "ups-2day", label: "UPS 2nd Day Air", detail: "Wed, Nov 25", amount: money(1895))

    @Test func summaryItemsEndWithTheMerchantsTotal() throws {
        var sheet = Self.sheet()
        let generation = sheet.chooseAddress(Self.home)
        let taken = sheet.ratesArrived(.rates([Self.ground, Self.express]), generation: generation)
        #expect(taken)
        let summary = try sheet.summary()
        #expect(summary.lines.map(\.kind) == [.item, .discount, .shipping, .tax, .total])
        #expect(summary.lines.map(\.amount.minorUnits) == [3300, -500, 745, 203, 3748])
        #expect(summary.lines.last?.label == "Driftwood Coffee Co.")
        #expect(WalletSummary.payLabel(merchant: "Driftwood Coffee Co.") == "PAY DRIFTWOOD COFFEE CO.")
    }

    @Test func aTotalNotAboveZeroRefusesTheSheet() {
        let cart = Cart(currency: Self.usd, items: [LineItem(sku: "FREE", name: "Sample", unitPrice: Self.money(0), quantity: 1)])
        let order = PaymentOrder(cart: cart, summary: try! OrderSummary(cart: Cart(currency: Self.usd, items: [LineItem(sku: "X", name: "X", unitPrice: Self.money(1), quantity: 1)]), merchantName: "Shop"), merchantName: "Shop")
        #expect(throws: OrderTotalError.self) { try WalletSummary.summary(of: order, shipping: nil) }
    }

    @Test func aMethodChangeRepricesAtOnce() throws {
        var sheet = Self.sheet()
        _ = sheet.ratesArrived(.rates([Self.ground, Self.express]), generation: sheet.chooseAddress(Self.home))
        #expect(try sheet.summary().total.minorUnits == 3748)
        let chosen = sheet.chooseMethod("ups-2day")
        #expect(chosen)
        #expect(try sheet.summary().shipping.minorUnits == 1895)
        #expect(try sheet.summary().total.minorUnits == 4898)
        let unknown = sheet.chooseMethod("nope")
        #expect(!unknown)
    }

    @Test func anEmptyAnswerIsAnInvalidAddressAndCannotBePaid() {
        var sheet = Self.sheet()
        _ = sheet.ratesArrived(.rates([]), generation: sheet.chooseAddress(Self.home))
        #expect(sheet.rates == .invalidAddress)
        #expect(sheet.unpayableReason?.contains("invalid shipping postal address") == true)
        _ = sheet.ratesArrived(.rates([Self.ground]), generation: sheet.chooseAddress(Self.office))
        #expect(sheet.unpayableReason == nil)
    }

    @Test func aFailedLookupIsAFailureAndLoadingCannotBePaid() {
        var sheet = Self.sheet()
        let generation = sheet.chooseAddress(Self.home)
        #expect(sheet.unpayableReason == "Waiting for shipping rates…")
        _ = sheet.ratesArrived(.failed("HTTP 500"), generation: generation)
        #expect(sheet.rates == .failed("HTTP 500"))
        #expect(sheet.unpayableReason != nil)
    }

    @Test func aLateAnswerForAnOlderAddressIsDropped() {
        var sheet = Self.sheet()
        let slow = sheet.chooseAddress(Self.home)
        let fast = sheet.chooseAddress(Self.office)
        let newer = sheet.ratesArrived(.rates([Self.express]), generation: fast)
        let late = sheet.ratesArrived(.rates([]), generation: slow)
        #expect(newer && !late)
        #expect(sheet.address == Self.office)
        #expect(sheet.method == Self.express)
    }

    @Test func theChosenMethodPreselects() {
        var fastest = Self.sheet(choice: .fastest)
        _ = fastest.ratesArrived(.rates([Self.ground, Self.express]), generation: fastest.chooseAddress(Self.home))
        #expect(fastest.methodID == "ups-2day")
        var byID = Self.sheet(choice: .id("ups-2day"))
        _ = byID.ratesArrived(.rates([Self.ground, Self.express]), generation: byID.chooseAddress(Self.home))
        #expect(byID.methodID == "ups-2day")
        var missing = Self.sheet(choice: .id("gone"))
        _ = missing.ratesArrived(.rates([Self.ground, Self.express]), generation: missing.chooseAddress(Self.home))
        #expect(missing.methodID == "usps-ground")
    }

    @Test func keyedCardsMapToSquaresSandboxNonces() throws {
        func nonce(_ number: String, cvc: String = "123", zip: String = "97209", expiry: String = "12/30") -> String? {
            try? WalletKeyedCard.read(["number": number, "expiry": expiry, "cvc": cvc, "zip": zip]).get().sandboxNonce(now: Date(timeIntervalSince1970: 1_795_000_000)).get()
        }
        #expect(nonce("4111 1111 1111 1111") == "cnon:card-nonce-ok")
        #expect(nonce("4000000000000002") == "cnon:card-nonce-declined")
        #expect(nonce("4111111111111111", cvc: "911") == "cnon:card-nonce-rejected-cvv")
        #expect(nonce("4111111111111111", expiry: "01/20") == "cnon:card-nonce-rejected-expiration")
        // 1,795,000,000 is 18 November 2026 (UTC): October has passed, November has not.
        #expect(nonce("4111111111111111", expiry: "10/26") == "cnon:card-nonce-rejected-expiration")
        #expect(nonce("4111111111111111", expiry: "11/26") == "cnon:card-nonce-ok")
        #expect(nonce("4111111111111112") == nil)
        if case .failure(let problem) = WalletKeyedCard.read(["number": "4111111111111111", "expiry": "13/30", "cvc": "123", "zip": "1"]) {
            #expect(problem.description.hasPrefix("Expiry"))
        } else {
            Issue.record("a 13th month was accepted")
        }
    }
}
