import CheckoutModel
import Foundation
import PaymentFlow
import ProviderWire
import Synchronization
import Testing

/// The sheet driven through its prompts as the person at the terminal drives it: rates arrive
/// while it stays usable, a late answer loses to a newer address, an unshippable address blocks
/// paying, the two-key gesture and the passcode authorize, and the processor's answer decides.
@Suite struct WalletSessionTests {
    /// Rates by ZIP, each answered when the test releases it (or at once when `instant`).
    final class ScriptedRates: WalletRatesSource, @unchecked Sendable {
        private let lock = NSLock()
        private var waiting: [String: CheckedContinuation<WalletSheet.RatesOutcome, Never>] = [:]
        private(set) var asked: [String] = []
        let instant: [String: WalletSheet.RatesOutcome]

        init(instant: [String: WalletSheet.RatesOutcome] = [:]) { self.instant = instant }

        func rates(for address: ShippingAddress, weightGrams: Int, currency: Currency) async -> WalletSheet.RatesOutcome {
            lock.withLock { asked.append(address.zip) }
            if let answer = instant[address.zip] { return answer }
            return await withCheckedContinuation { continuation in lock.withLock { waiting[address.zip] = continuation } }
        }

        func isWaiting(_ zip: String) -> Bool { lock.withLock { waiting[zip] != nil } }

        func release(_ zip: String, _ outcome: WalletSheet.RatesOutcome) {
            let continuation = lock.withLock { waiting.removeValue(forKey: zip) }
            continuation?.resume(returning: outcome)
        }
    }

    struct Tokens: WalletTokenSource {
        func token(_ request: WalletTokenRequest) async throws(ProviderFailure) -> WalletTokenResponse {
            let data = WalletPaymentData(data: "ZGF0YQ==", signature: "c2ln", header: .init(ephemeralPublicKey: "a", publicKeyHash: "b", transactionId: "t"))
            return WalletTokenResponse(
                token: WalletPaymentToken(paymentData: data, paymentMethod: WalletTokenMethod(displayName: "Visa 4242", network: "Visa", type: "credit"), transactionIdentifier: "t"),
                squareNonce: "cnon:wallet-\(request.last4)")
        }
    }

    final class Processor: WalletProcessor, WalletKeyedProcessor, @unchecked Sendable {
        private let lock = NSLock()
        private(set) var charges: [WalletCharge] = []
        private(set) var keyed: [String] = []
        var name: String { "Adyen" }

        func charge(_ charge: WalletCharge) async throws(ProviderFailure) -> WalletChargeResult {
            lock.withLock { charges.append(charge) }
            let refused = charge.token.squareNonce.hasSuffix("0002")
            return WalletChargeResult(approved: !refused, paymentID: "PSP\(charges.count)", declineReason: refused ? "Refused" : nil, details: ["psp_reference": "PSP\(charges.count)"])
        }

        func charge(nonce: String, amount: Money, reference: String, idempotencyKey: String) async throws(ProviderFailure) -> WalletChargeResult {
            lock.withLock { keyed.append(nonce) }
            return WalletChargeResult(approved: nonce == "cnon:card-nonce-ok", paymentID: "SQ1", declineReason: nonce == "cnon:card-nonce-ok" ? nil : "GENERIC_DECLINE")
        }
    }

    final class Events: @unchecked Sendable {
        private let lock = NSLock()
        private var recorded: [WalletEvent] = []
        func add(_ event: WalletEvent) { lock.withLock { recorded.append(event) } }
        var names: [String] { lock.withLock { recorded.map(\.name.rawValue) } }
    }

    static let home = ShippingAddress(label: "Home", name: "Jamie", street: "1 Main St", city: "Portland", state: "OR", zip: "97209", country: "US")
    static let slow = ShippingAddress(label: "Cabin", name: "Jamie", street: "2 Pine Rd", city: "Bend", state: "OR", zip: "88888", country: "US")
    static let nowhere = ShippingAddress(label: "Nowhere", name: "Jamie", street: "0 Void", city: "Null", state: "OR", zip: "00000", country: "US")
    static let rates: [WalletShippingOption] = [
        WalletShippingOption(id: "usps", label: "USPS Ground Advantage", detail: "Mon, Nov 30", amount: Money(minorUnits: 745, currency: .usd)),
        WalletShippingOption(id: "ups", label: "UPS 2nd Day Air", detail: "Wed, Nov 25", amount: Money(minorUnits: 1895, currency: .usd)),
    ]

    struct Setup {
        let desk = CustomerDesk()
        let processor = Processor()
        let events = Events()
        let rates: ScriptedRates
        let adapter: WalletAdapter

        init(rates: ScriptedRates, cards: [SavedCard] = [SavedCard(network: .visa, last4: "4242"), SavedCard(network: .discover, last4: "1117")],
             addresses: [ShippingAddress] = [WalletSessionTests.home, WalletSessionTests.slow, WalletSessionTests.nowhere]) {
            self.rates = rates
            var settings = WalletSettings()
            settings.cards = cards
            settings.addresses = addresses
            settings.resultMarkSeconds = 0
            let events = events
            adapter = WalletAdapter(
                provider: "wallet", settings: settings, customer: nil, desk: desk,
                services: WalletServices(rates: rates, tokens: Tokens(), processor: processor, keyed: processor), report: { events.add($0) })
        }

        func open() -> Task<PaymentAttempt, any Error> {
            let adapter = adapter
            return Task {
                let order = Fixture.order()
                let created = try await adapter.create(PaymentAttempt(provider: "wallet", amount: order.amount), order: order, ids: Fixture.ids)
                return try await adapter.authorizeAtTerminal(created, order: order, ids: Fixture.ids, step: { _ in })
            }
        }

        func prompt(_ id: String, where condition: @escaping @Sendable (CustomerPrompt) -> Bool = { _ in true }) async throws -> CustomerPrompt {
            let desk = desk
            // Room for a loaded machine (the whole suite beside it): the wait ends when the prompt shows.
            try await eventually(60) { await desk.current.map { $0.id == id && condition($0) } ?? false }
            return try #require(await desk.current)
        }

        func answer(_ id: String, _ action: String, choice: String? = nil, fields: [String: String] = [:]) async throws {
            _ = try await prompt(id)
            #expect(await desk.answer(PromptAnswer(action: action, choice: choice, fields: fields), to: id))
        }
    }

    static func methodRow(_ prompt: CustomerPrompt) -> PromptChoice? { prompt.choices.first { $0.id == "method" } }

    @Test func ratesArriveWhileTheSheetIsOpenAndTheTwoKeyGesturePays() async throws {
        let setup = Setup(rates: ScriptedRates())
        let paying = setup.open()
        let loading = try await setup.prompt("wallet")
        #expect(Self.methodRow(loading)?.mark == .busy)
        #expect(loading.scripted.isEmpty)
        try await eventually(60) { setup.rates.isWaiting("97209") }
        setup.rates.release("97209", .rates(Self.rates))
        let ready = try await setup.prompt("wallet") { Self.methodRow($0)?.mark == nil }
        #expect(Self.methodRow(ready)?.label == "USPS Ground Advantage")
        #expect(ready.choices.last?.label == "PAY SHOP")
        #expect(ready.choices.last?.emphasis == true)
        try await setup.answer("wallet", "pay")
        try await setup.answer("wallet-confirm", "confirm")
        let paid = try await paying.value
        #expect(paid.status == .approved)
        #expect(paid.amount?.minorUnits == 4505 + 745)
        #expect(setup.processor.charges.count == 1)
        #expect(setup.processor.charges.first?.idempotencyKey == Fixture.ids.idempotencyKey)
        #expect(setup.events.names == ["address_selected", "rates_received", "method_selected", "summary_recomputed", "authorized", "processed"])
    }

    @Test func aNewerAddressWinsOverALateAnswer() async throws {
        let setup = Setup(rates: ScriptedRates(instant: ["97209": .rates(Self.rates)]))
        let paying = setup.open()
        _ = try await setup.prompt("wallet") { Self.methodRow($0)?.mark == nil }
        // The cabin's rates are slow; the customer moves on to home before they come.
        try await setup.answer("wallet", "change", choice: "address")
        try await setup.answer("wallet-address", "choose", choice: "1")
        let spinning = try await setup.prompt("wallet") { Self.methodRow($0)?.mark == .busy }
        #expect(spinning.choices.first { $0.id == "address" }?.label == "Cabin · 2 Pine Rd")
        try await setup.answer("wallet", "change", choice: "address")
        try await setup.answer("wallet-address", "choose", choice: "0")
        _ = try await setup.prompt("wallet") { Self.methodRow($0)?.mark == nil && $0.choices.first?.id == "card" }
        setup.rates.release("88888", .rates([]))
        // The late empty answer for the cabin changes nothing.
        try await Task.sleep(for: .milliseconds(50))
        let current = try await setup.prompt("wallet")
        #expect(current.choices.first { $0.id == "address" }?.mark == nil)
        #expect(Self.methodRow(current)?.label == "USPS Ground Advantage")
        try await setup.answer("wallet", "pay")
        try await setup.answer("wallet-confirm", "confirm")
        #expect(try await paying.value.status == .approved)
    }

    @Test func anUnshippableAddressBlocksPayingUntilItChanges() async throws {
        let setup = Setup(rates: ScriptedRates(instant: ["00000": .rates([]), "97209": .rates(Self.rates)]), addresses: [Self.nowhere, Self.home])
        let paying = setup.open()
        let invalid = try await setup.prompt("wallet") { $0.choices.first { $0.id == "address" }?.mark != nil }
        #expect(invalid.choices.first { $0.id == "address" }?.mark == .error("invalid shipping postal address"))
        try await setup.answer("wallet", "pay")
        let refused = try await setup.prompt("wallet") { $0.lines.first?.contains("invalid shipping postal address") == true }
        #expect(refused.scripted["approve"]?.action == "close")
        try await setup.answer("wallet", "change", choice: "address")
        try await setup.answer("wallet-address", "choose", choice: "1")
        _ = try await setup.prompt("wallet") { Self.methodRow($0)?.label == "USPS Ground Advantage" }
        try await setup.answer("wallet", "change", choice: "method")
        try await setup.answer("wallet-method", "choose", choice: "ups")
        let repriced = try await setup.prompt("wallet") { Self.methodRow($0)?.label == "UPS 2nd Day Air" }
        #expect(repriced.choices.last?.detail == "$64.00")
        try await setup.answer("wallet", "pay")
        try await setup.answer("wallet-confirm", "confirm")
        #expect(try await paying.value.amount?.minorUnits == 6400)
        #expect(setup.events.names.contains("address_invalid"))
    }

    @Test func aFailedLookupClosesAsDeclinedForAScriptedCustomer() async throws {
        let setup = Setup(rates: ScriptedRates(instant: ["97209": .failed("HTTP 500")]))
        let paying = setup.open()
        let failed = try await setup.prompt("wallet") { Self.methodRow($0)?.mark == .error("failed: HTTP 500") }
        try await setup.answer("wallet", try #require(failed.scripted["approve"]).action)
        let closed = try await paying.value
        #expect(closed.status == .declined)
        #expect(closed.declineReason?.contains("Shipping rates failed") == true)
        #expect(setup.events.names.contains("rates_failed"))
    }

    @Test func threeTouchIDFailuresAskThePasscode() async throws {
        let setup = Setup(rates: ScriptedRates(instant: ["97209": .rates(Self.rates)]))
        let paying = setup.open()
        _ = try await setup.prompt("wallet") { Self.methodRow($0)?.mark == nil }
        try await setup.answer("wallet", "pay")
        for _ in 0..<3 { try await setup.answer("wallet-confirm", "fail") }
        try await setup.answer("wallet-passcode", "submit", fields: ["passcode": "000000"])
        let retry = try await setup.prompt("wallet-passcode") { $0.lines.first?.hasPrefix("Wrong passcode") == true }
        #expect(retry.fields.first?.secret == true)
        try await setup.answer("wallet-passcode", "submit", fields: ["passcode": WalletSettings.sandboxPasscode])
        #expect(try await paying.value.status == .approved)
    }

    @Test func theProcessorsRefusalIsADecline() async throws {
        let setup = Setup(rates: ScriptedRates(instant: ["97209": .rates(Self.rates)]), cards: [SavedCard(network: .visa, last4: "0002")])
        let paying = setup.open()
        _ = try await setup.prompt("wallet") { Self.methodRow($0)?.mark == nil }
        try await setup.answer("wallet", "pay")
        try await setup.answer("wallet-confirm", "confirm")
        let refused = try await paying.value
        #expect(refused.status == .declined)
        #expect(refused.declineReason == "Refused")
    }

    @Test func noEligibleCardOffersTheCardForm() async throws {
        let setup = Setup(rates: ScriptedRates(), cards: [SavedCard(network: .discover, last4: "1117")])
        let paying = setup.open()
        let form = try await setup.prompt("wallet-card-form")
        #expect(form.lines.first?.contains("No card in the wallet is accepted here") == true)
        try await setup.answer("wallet-card-form", "submit", fields: ["number": "4111 1111 1111 1112", "expiry": "12/30", "cvc": "123", "zip": "97209"])
        _ = try await setup.prompt("wallet-card-form") { $0.lines.last?.hasPrefix("Card number") == true }
        try await setup.answer("wallet-card-form", "submit", fields: ["number": "4111 1111 1111 1111", "expiry": "12/30", "cvc": "123", "zip": "97209"])
        #expect(try await paying.value.status == .approved)
        #expect(setup.processor.keyed == ["cnon:card-nonce-ok"])
        #expect(setup.rates.asked.isEmpty)
    }
}
