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

    @Test func badOptionsNameTheFlagAndTheAllowedValues() async throws {
        let networks = try await wallet(["--networks", "amex,foo"])
        #expect(networks.status == 64)
        #expect(networks.stderr.contains("--networks") && networks.stderr.contains("amex, discover"), "\(networks.stderr)")
        let processor = try await wallet(["--wallet-processor", "stripe"])
        #expect(processor.status == 64)
        #expect(processor.stderr.contains("--wallet-processor must be adyen or square"), "\(processor.stderr)")
    }
}
