import CheckoutApp
import CheckoutModel
import Foundation
import PaymentFlow
import ProviderWire
import TerminalUI
import Testing

/// The wallet sheet as text at 100×30 (every row) and 80×24 (scrolled to the cursor): rates
/// in, the address the rates service cannot ship to, and rates still loading.
@Suite struct WalletGoldenScreenTests {
    private func check(_ name: String, styles: Bool = false, _ make: (Int, Int) throws -> AppState) throws {
        for (width, height) in GoldenScreenTests.sizes {
            let screen = CheckoutView.render(try make(width, height))
            try Golden.compare(screen.text, file: "\(name)-\(width)x\(height).txt")
            if styles { try Golden.compare(screen.styleMap, file: "\(name)-\(width)x\(height).style") }
        }
    }

    static let customer = try! Catalog.bundled(currency: "USD").sampleCustomer!

    /// The sheet for the catalog's default cart and sample customer, at `address`, with `rates`.
    static func sheet(order: PaymentOrder, address: Int = 0, rates: WalletSheet.RatesOutcome?) -> WalletSheet {
        let cards = customer.savedCards
        let eligible = cards.filter { WalletSettings.defaultNetworks.contains($0.network) }
        var sheet = WalletSheet(
            order: order, contact: WalletContact(name: customer.name, email: customer.email, phone: customer.phone), eligibleCards: eligible,
            ineligibleCards: cards.filter { !eligible.contains($0) }, card: eligible[0], addresses: customer.addresses,
            address: customer.addresses[address], methodChoice: .cheapest)
        let generation = sheet.chooseAddress(customer.addresses[address])
        if let rates { _ = sheet.ratesArrived(rates, generation: generation) }
        return sheet
    }

    static let rates: [WalletShippingOption] = [
        WalletShippingOption(id: "usps-ground-advantage", label: "USPS Ground Advantage", detail: "Mon, Nov 30", amount: Money(minorUnits: 745, currency: .usd)),
        WalletShippingOption(id: "ups-ground", label: "UPS Ground", detail: "Tue, Dec 1", amount: Money(minorUnits: 1120, currency: .usd)),
        WalletShippingOption(id: "fedex-standard-overnight", label: "FedEx Standard Overnight", detail: "Wed, Nov 25", amount: Money(minorUnits: 3480, currency: .usd)),
    ]

    /// The seed's first example: the merchant's own two methods, express chosen.
    static let flat: [WalletShippingOption] = [
        WalletShippingOption(id: "freeshipping", label: "Free Shipping", detail: "Arrives in 6-8 weeks", amount: Money(minorUnits: 0, currency: .usd)),
        WalletShippingOption(id: "expressshipping", label: "Express Shipping", detail: "Arrives in 2-3 days", amount: Money(minorUnits: 1000, currency: .usd)),
        WalletShippingOption(id: "courier", label: "Courier", detail: "Priced at dispatch", amount: Money(minorUnits: 0, currency: .usd), pending: true),
    ]

    /// A sheet whose methods are not the rates service's: flat ones, or none (contact-only).
    static func otherSheet(order: PaymentOrder, shipping: WalletSheet.ShippingSource, collectsAddress: Bool) -> WalletSheet {
        let cards = customer.savedCards
        let eligible = cards.filter { WalletSettings.defaultNetworks.contains($0.network) }
        return WalletSheet(
            order: order, contact: WalletContact(name: customer.name, email: customer.email, phone: customer.phone), eligibleCards: eligible,
            ineligibleCards: cards.filter { !eligible.contains($0) }, card: eligible[0], addresses: customer.addresses,
            address: customer.addresses[0], methodChoice: .id("expressshipping"), shipping: shipping, collectsAddress: collectsAddress)
    }

    private func sheetOpen(
        _ width: Int, _ height: Int, cursorDown: Int = 0, prompt: (PaymentOrder) -> CustomerPrompt
    ) throws -> AppState {
        var state = try Screens.state(width: width, height: height)
        let row = ProviderRegistry.builtIn.ids.firstIndex(of: "wallet") ?? 0
        _ = Screens.apply(([.tab, .tab] + [Key](repeating: .down, count: row) + [.enter]).map { AppMessage.key($0) }, to: &state)
        let catalog = try Catalog.bundled(currency: "USD")
        let order = try PaymentOrder.forCart(catalog.defaultCart, merchantName: catalog.merchantName)
        let attempt = PaymentAttempt(provider: "wallet", id: "wallet_tc-0a1b2c3d", amount: order.amount, reference: "tc-0a1b2c3d")
        _ = Screens.apply([
            .key(.character("p")), .stateChanged(.creatingRequest(PaymentAttempt(provider: "wallet", amount: order.amount))),
            .stateChanged(.readyToAuthorize(attempt)), .promptChanged(prompt(order)),
        ] + [AppMessage](repeating: .key(.down), count: cursorDown), to: &state)
        return state
    }

    @Test func theSheetWithTheMerchantsFlatMethods() throws {
        try check("wallet-sheet-flat", styles: true) { width, height in
            try sheetOpen(width, height) { order in WalletAdapter.sheetPrompt(Self.otherSheet(order: order, shipping: .flat(Self.flat), collectsAddress: true)) }
        }
    }

    @Test func theFlatMethodsList() throws {
        try check("wallet-flat-methods") { width, height in
            try sheetOpen(width, height) { order in WalletAdapter.methodsPrompt(Self.otherSheet(order: order, shipping: .flat(Self.flat), collectsAddress: true)) }
        }
    }

    @Test func aContactOnlySheetHasNoAddressRow() throws {
        var settings = WalletSettings()
        settings.requiredContactFields = [.email, .phone]
        settings.requiredBillingFields = [.name, .postalAddress]
        try check("wallet-sheet-contact-only", styles: true) { width, height in
            try sheetOpen(width, height) { order in
                WalletAdapter.sheetPrompt(Self.otherSheet(order: order, shipping: .none, collectsAddress: false), settings: settings)
            }
        }
    }

    @Test(arguments: [WalletSettings.ShippingType.delivery, .storePickup, .servicePickup])
    func theShippingTypeNamesTheRows(type: WalletSettings.ShippingType) throws {
        var settings = WalletSettings()
        settings.shippingType = type
        try check("wallet-sheet-\(type.rawValue)") { width, height in
            try sheetOpen(width, height) { order in
                WalletAdapter.sheetPrompt(Self.otherSheet(order: order, shipping: .flat(Array(Self.flat.prefix(2))), collectsAddress: true), settings: settings)
            }
        }
    }

    private func sheetOpen(_ width: Int, _ height: Int, address: Int = 0, rates: WalletSheet.RatesOutcome?, cursorDown: Int = 0) throws -> AppState {
        var state = try Screens.state(width: width, height: height)
        let row = ProviderRegistry.builtIn.ids.firstIndex(of: "wallet") ?? 0
        _ = Screens.apply(([.tab, .tab] + [Key](repeating: .down, count: row) + [.enter]).map { AppMessage.key($0) }, to: &state)
        let catalog = try Catalog.bundled(currency: "USD")
        let order = try PaymentOrder.forCart(catalog.defaultCart, merchantName: catalog.merchantName)
        let attempt = PaymentAttempt(provider: "wallet", id: "wallet_tc-0a1b2c3d", amount: order.amount, reference: "tc-0a1b2c3d")
        let prompt = WalletAdapter.sheetPrompt(Self.sheet(order: order, address: address, rates: rates))
        _ = Screens.apply([
            .key(.character("p")), .stateChanged(.creatingRequest(PaymentAttempt(provider: "wallet", amount: order.amount))),
            .stateChanged(.readyToAuthorize(attempt)), .promptChanged(prompt),
            .exchange(Screens.exchange(1, "GET", "/rates?street=1200%20NW%20Naito%20Pkwy&city=Portland&state=OR&zip=97209&country=US&weight_grams=1030", status: 200, milliseconds: 3)),
        ] + [AppMessage](repeating: .key(.down), count: cursorDown), to: &state)
        return state
    }

    @Test func theSheetWithRates() throws {
        try check("wallet-sheet", styles: true) { width, height in try sheetOpen(width, height, rates: .rates(Self.rates)) }
    }

    @Test func theSheetScrolledToTheShippingRow() throws {
        try check("wallet-sheet-shipping-row") { width, height in try sheetOpen(width, height, rates: .rates(Self.rates), cursorDown: 2) }
    }

    @Test func anAddressTheRatesServiceCannotShipTo() throws {
        try check("wallet-sheet-invalid-address", styles: true) { width, height in try sheetOpen(width, height, address: 1, rates: .rates([])) }
    }

    /// Paid: the receipt is what the sheet charged (its courier rate and tax), not the cart's
    /// own shipping choice and total.
    @Test func thePaidReceiptIsTheSheetsSummary() throws {
        try check("wallet-receipt", styles: true) { width, height in
            var state = try sheetOpen(width, height, rates: .rates(Self.rates))
            let usd = { (cents: Int) in Money(minorUnits: cents, currency: .usd) }
            let items = [
                WalletSummaryItem(label: "House Blend Beans 12oz ×2", amount: usd(3300), pending: false),
                WalletSummaryItem(label: "Enamel Camp Mug", amount: usd(1400), pending: false),
                WalletSummaryItem(label: "Loyalty reward", amount: usd(-500), pending: false),
                WalletSummaryItem(label: "Courier", amount: usd(1250), pending: false),
                WalletSummaryItem(label: "Sales tax", amount: usd(305), pending: false),
                WalletSummaryItem(label: "Driftwood Coffee Co.", amount: usd(5755), pending: false),
            ]
            let attempt = PaymentAttempt(provider: "wallet", id: "9Y71NUJ4MCLIWY93", status: .approved, amount: usd(5755), reference: "tc-0a1b2c3d")
            let receipt = SettlementReceipt(
                paymentID: "9Y71NUJ4MCLIWY93", details: ["processor": "adyen", "card": "Visa •••• 4242"],
                printout: WalletAdapter.printout(items, card: "Visa •••• 4242"))
            _ = Screens.apply([.promptChanged(nil), .stateChanged(.approved(attempt)), .phaseChanged(.completed(receipt))], to: &state)
            return state
        }
    }

    @Test func ratesStillLoading() throws {
        try check("wallet-sheet-loading") { width, height in try sheetOpen(width, height, rates: nil) }
    }
}
