import Foundation
import Testing
import TestSupport

/// `checkout run --provider wallet`: the real binary against its embedded sandbox — the sheet's
/// events in order, both processors, the address the rates service cannot ship to, a failing
/// rates service, a refused card, and the card form when no wallet card is accepted.
@Suite struct WalletRunTests {
    private func objects(_ outcome: CheckoutBinary.Outcome) -> [[String: Any]] {
        outcome.lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    private func eventNames(_ outcome: CheckoutBinary.Outcome) -> [String] {
        objects(outcome).compactMap { $0["event"] as? String }
    }

    private func summary(_ outcome: CheckoutBinary.Outcome) throws -> [String: Any] {
        try #require(objects(outcome).last { $0["summary"] as? Bool == true }, "\(outcome.stdout)")
    }

    private func wallet(_ arguments: [String]) async throws -> CheckoutBinary.Outcome {
        try await CheckoutBinary.run(["run", "--provider", "wallet", "--json"] + arguments)
    }

    @Test(arguments: ["adyen", "square"])
    func eitherProcessorChargesTheSheetsTotal(processor: String) async throws {
        let outcome = try await wallet(["--wallet-processor", processor, "--address", "Office", "--shipping-method", "fastest"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(eventNames(outcome) == [
            "address_selected", "rates_received", "method_selected", "summary_recomputed", "authorized", "processed",
        ], "\(outcome.stdout)")
        let states = objects(outcome).compactMap { $0["state"] as? String }
        #expect(states == ["notStarted", "creatingCustomerRequest", "readyToAuthorize", "approved"], "\(outcome.stdout)")
        let recomputed = try #require(objects(outcome).first { $0["event"] as? String == "summary_recomputed" })
        let result = try summary(outcome)
        #expect(result["final_phase"] as? String == "completed")
        #expect(result["processor"] as? String == processor)
        #expect((result["amount"] as? Int).map(String.init) == recomputed["total"] as? String, "the charge is the sheet's total")
        #expect(result["ship_to"] as? String == "350 Fifth Ave, New York NY 10118, US")
        #expect((result["shipping_method"] as? String)?.hasPrefix("FedEx Standard Overnight") == true)
        #expect((result["contact"] as? String)?.contains("jamie@example.com") == true)
    }

    /// Every answer to the charge lost after Adyen took it: one more round with the same key
    /// learns the payment Adyen made (the soak's ledger checks it is one charge).
    @Test func aChargeWhoseAnswersWereAllLostIsLearnedWithTheSameKey() async throws {
        let outcome = try await wallet(["--fault", "POST /v71/payments reset*5", "--retry-base-ms", "10"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let result = try summary(outcome)
        #expect(result["final_phase"] as? String == "completed")
        #expect((result["http_exchanges"] as? Int ?? 0) >= 7, "rates, token, five lost charges and the one that told")
    }

    @Test func anAddressWithNoServiceKeepsTheSheetUnpaid() async throws {
        let outcome = try await wallet(["--address", "1 Nowhere Rd,Salem,OR,00000,US"])
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(eventNames(outcome) == ["address_selected", "address_invalid"], "\(outcome.stdout)")
        #expect((try summary(outcome)["decline_reason"] as? String)?.contains("invalid shipping postal address") == true)
    }

    @Test func aFailingRatesServiceIsAFailureOnTheSheet() async throws {
        let outcome = try await CheckoutBinary.run(
            ["run", "--provider", "wallet", "--json", "--retry-base-ms", "10", "--address", "1 Main St,Salem,OR,99999,US"])
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(eventNames(outcome) == ["address_selected", "rates_failed"], "\(outcome.stdout)")
    }

    @Test func theRefusingCardIsDeclinedAndChargesNothing() async throws {
        let outcome = try await wallet(["--card", "0002"])
        #expect(outcome.status == 1, "\(outcome.stdout)\(outcome.stderr)")
        #expect(try summary(outcome)["decline_reason"] as? String == "Refused")
    }

    @Test func noAcceptedCardOpensTheCardForm() async throws {
        let outcome = try await wallet(["--wallet-cards", "discover:1117"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(eventNames(outcome).isEmpty, "no sheet, so no sheet events: \(outcome.stdout)")
        #expect(try summary(outcome)["entry"] as? String == "card form")
    }

    /// What the customer saw, as the items a script checks: label, amount, type; the total last,
    /// labelled with the merchant, in `summary_recomputed` and the final summary alike.
    private func items(_ object: [String: Any]) throws -> [[String: String]] {
        try #require(object["summary_items"] as? [[String: String]], "\(object)")
    }

    @Test func theSummaryItemsAreWhatTheSheetShowedAndEndWithTheMerchantsTotal() async throws {
        let outcome = try await wallet(["--address", "Office", "--shipping-method", "fastest"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        let recomputed = try #require(objects(outcome).first { $0["event"] as? String == "summary_recomputed" })
        let shown = try items(recomputed)
        let total = try #require(Int(recomputed["total"] as? String ?? ""))
        let decimal = "\(total / 100).\(String(format: "%02d", total % 100))"
        #expect(shown.last == ["label": "Driftwood Coffee Co.", "amount": decimal, "type": "final"], "\(shown)")
        #expect(shown.contains { $0["label"]?.hasPrefix("FedEx Standard Overnight") == true && $0["type"] == "final" }, "\(shown)")
        #expect(try items(summary(outcome)) == shown, "the final summary carries the items paid on")
    }

    /// The seed's first example: the merchant's own methods, no rates service asked; express
    /// chosen; a pending method is shown and counted as nothing.
    @Test func flatShippingMethodsAskNoRatesService() async throws {
        let outcome = try await wallet([
            "--shipping-methods", "freeshipping:Free Shipping:Arrives in 6-8 weeks:0;expressshipping:Express Shipping:Arrives in 2-3 days:10.00",
            "--shipping-method", "expressshipping",
        ])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(eventNames(outcome) == ["address_selected", "method_selected", "summary_recomputed", "authorized", "processed"], "\(outcome.stdout)")
        let result = try summary(outcome)
        #expect(result["http_exchanges"] as? Int == 2, "the token and the charge, no rates")
        #expect(result["shipping_method"] as? String == "Express Shipping (Arrives in 2-3 days)")
        #expect(try items(result).contains(["label": "Express Shipping", "amount": "10.00", "type": "final"]))

        let pending = try await wallet(["--shipping-methods", "courier:Courier:Priced at dispatch:pending"])
        #expect(pending.status == 0, "\(pending.stdout)\(pending.stderr)")
        #expect(try items(summary(pending)).contains(["label": "Courier", "amount": "0.00", "type": "pending"]))
    }

    @Test func theCatalogsMethodsAreFlatMethodsToo() async throws {
        let outcome = try await wallet(["--shipping-methods", "catalog"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(!eventNames(outcome).contains("rates_received"), "\(outcome.stdout)")
        #expect(try summary(outcome)["http_exchanges"] as? Int == 2)
    }

    /// Contact-only (no postal among the required shipping fields): no address, no rates call,
    /// no shipping in the total; the shipping type is on the receipt.
    @Test func aContactOnlyRequestAsksNoAddressAndNoRates() async throws {
        let outcome = try await wallet(["--require", "email,phone", "--shipping-type", "storePickup", "--required-billing-fields", "name,postal"])
        #expect(outcome.status == 0, "\(outcome.stdout)\(outcome.stderr)")
        #expect(eventNames(outcome) == ["summary_recomputed", "authorized", "processed"], "\(outcome.stdout)")
        let result = try summary(outcome)
        #expect(result["ship_to"] == nil && result["shipping_method"] == nil, "\(result)")
        #expect(result["shipping_type"] as? String == "storePickup")
        #expect(result["http_exchanges"] as? Int == 2)
        #expect(try items(result).allSatisfy { $0["type"] == "final" })
    }

    /// The merchant's capabilities travel in the token and the processor's sandbox checks them:
    /// a credit card when only debit is enabled, or an EMV token (no supports3DS), is refused.
    @Test(arguments: ["adyen", "square"])
    func aTokenTheMerchantsCapabilitiesDoNotTakeIsDeclined(processor: String) async throws {
        let expected = processor == "adyen" ? "Not supported" : "CARD_NOT_SUPPORTED"
        for capabilities in ["supports3DS,supportsDebit", "supportsEMV"] {
            let outcome = try await wallet(["--wallet-processor", processor, "--merchant-capabilities", capabilities])
            #expect(outcome.status == 1, "\(capabilities): \(outcome.stdout)\(outcome.stderr)")
            #expect(try summary(outcome)["decline_reason"] as? String == expected, "\(capabilities)")
        }
        let debit = try await wallet([
            "--wallet-processor", processor, "--merchant-capabilities", "supports3DS,supportsDebit", "--wallet-cards", "visa:5556", "--country-code", "GB",
        ])
        #expect(debit.status == 0, "the debit card (5556) is taken: \(debit.stdout)\(debit.stderr)")
    }

    @Test func badOptionsNameTheFlagAndTheAllowedValues() async throws {
        let networks = try await wallet(["--networks", "amex,foo"])
        #expect(networks.status == 64)
        #expect(networks.stderr.contains("--networks") && networks.stderr.contains("amex, discover"), "\(networks.stderr)")
        let processor = try await wallet(["--wallet-processor", "stripe"])
        #expect(processor.status == 64)
        #expect(processor.stderr.contains("--wallet-processor must be adyen or square"), "\(processor.stderr)")
        for (arguments, wanted) in [
            (["--shipping-methods", "a:b:c"], "--shipping-methods: \"a:b:c\" has 3 ':'-separated parts, not 4"),
            (["--shipping-type", "boat"], "--shipping-type must be one of shipping, delivery, storePickup, servicePickup"),
            (["--merchant-capabilities", "foo"], "supports3DS, supportsEMV, supportsCredit, supportsDebit"),
            (["--required-billing-fields", "zip"], "--required-billing-fields: unknown contact field \"zip\""),
            (["--country-code", "USA"], "--country-code must be an ISO 3166 two-letter country code"),
        ] {
            let bad = try await wallet(arguments)
            #expect(bad.status == 64 && bad.stderr.contains(wanted), "\(arguments): \(bad.stderr)")
        }
    }
}
