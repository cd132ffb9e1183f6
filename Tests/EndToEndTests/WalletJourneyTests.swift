import Foundation
import Testing
import TestSupport

/// The wallet sheet's requests that ask no rates service, on the real screen in tmux: the
/// merchant's own flat methods (the seed's first example) chosen by keyboard and repricing the
/// total, and a contact-only store-pickup request with no address row.
@Suite(.serialized) struct WalletJourneyTests {
    static let drawn = "TerminalCheckout · Driftwood Coffee Co."
    static let flatMethods = "freeshipping:Free Shipping:Arrives in 6-8 weeks:0;expressshipping:Express Shipping:Arrives in 2-3 days:10.00"

    init() {
        if !TmuxSession.isAvailable { Issue.record("tmux is not installed; `make test` installs it") }
    }

    /// Opens the checkout with `arguments` and chooses the wallet (the sixth payment method).
    private func openWallet(_ tmux: TmuxSession, _ arguments: String) async throws {
        try tmux.type("clear; '\(CheckoutBinary.url.path)' \(arguments)")
        try await tmux.waitFor(Self.drawn)
        try tmux.send("Tab", "Tab", "Down", "Down", "Down", "Down", "Down", "Enter")
        try await tmux.waitFor("(•) Wallet (Apple Pay style)")
        try tmux.send("p")
    }

    @Test func flatShippingMethodsByKeyboard() async throws {
        let tmux = try TmuxSession(width: 80, height: 24)
        defer { tmux.close() }
        try await openWallet(tmux, "--shipping-methods '\(Self.flatMethods)'")
        // The cheapest of the merchant's methods is chosen at once: no rates to wait for.
        try await tmux.waitForAll(["Wallet · Adyen", "Free Shipping", "Arrives in 6-8 weeks"])
        // The shipping row (card, address, method), then the express method.
        try tmux.send("Down", "Down", "Enter")
        try await tmux.waitForAll(["Shipping method", "Express Shipping", "Arrives in 2-3 days · $10.00"])
        try tmux.send("Down", "Enter")
        try await tmux.waitFor("the express total") { $0.contains("$55.05") && !$0.contains("Shipping method") }
        try tmux.send("p")
        try await tmux.waitFor("Confirm with Side Button")
        try tmux.send("p")
        let paid = try await tmux.waitFor("paid") { $0.contains("Paid with the wallet.") }
        #expect(!paid.contains("/rates"), "no rates call:\n\(paid)")
        try tmux.send("q")
        try await tmux.waitFor("checkout: left in approved")
    }

    @Test func aContactOnlyStorePickupByKeyboard() async throws {
        let tmux = try TmuxSession(width: 100, height: 30)
        defer { tmux.close() }
        try await openWallet(tmux, "--require email,phone --shipping-type storePickup --required-billing-fields name,postal")
        let sheet = try await tmux.waitFor("the contact-only sheet") { $0.contains("CONTACT") && $0.contains("BILLING") && $0.contains("PAY DRIFTWOOD") }
        #expect(!sheet.contains("SHIP TO") && !sheet.contains("PICK UP AT") && !sheet.contains("Shipping rates"), "no address row:\n\(sheet)")
        try tmux.send("p")
        try await tmux.waitFor("Confirm with Side Button")
        try tmux.send("p")
        let paid = try await tmux.waitFor("paid") { $0.contains("Paid with the wallet.") }
        #expect(!paid.contains("/rates"), "no rates call:\n\(paid)")
        try tmux.send("q")
        try await tmux.waitFor("checkout: left in approved")
    }
}
