@testable import checkout_soak
import Foundation
import Testing

/// The soak's checks fail when they should: a wrong exit status, a double capture, money moved
/// for a checkout that failed; and its plan follows from its seed.
@Suite struct SoakChecksTests {
    private let afterpay = SoakProvider(
        id: "afterpay", endpoints: ["POST /v2/checkouts", "GET /customer-request/v1/requests/{id}"], settles: true,
        customerBehaviours: ["approve", "decline", "none", "approve-after"])

    private func result(_ index: Int, exit: Int32, state: String, phase: String? = nil, faults: [String] = ["POST /v2/checkouts 500*1"]) -> SoakResult {
        let checkout = SoakCheckout(index: index, provider: afterpay, customer: "approve", faults: faults, reference: "soak-1-\(index)", timeout: 60)
        return SoakResult(
            checkout: checkout, exitCode: exit, finalState: state, finalPhase: phase, reportedExitStatus: Int(exit), amount: 4505,
            settlementDeclined: false, stdout: "", stderr: "", scenarioPath: "", transcriptPath: "")
    }

    private func ledger(_ entries: String) throws -> SoakLedger {
        try JSONDecoder().decode(SoakLedger.self, from: Data(#"{"captures": [\#(entries)]}"#.utf8))
    }

    private func entry(_ reference: String, captures: Int) -> String {
        #"{"token": "t-\#(reference)", "merchant_reference": "\#(reference)", "amount": {"amount": "45.05", "currency": "USD"}, "captures": \#(captures), "capture_requests": \#(captures)}"#
    }

    @Test func documentedEndsPass() {
        #expect(SoakVerdict.problems(result(0, exit: 0, state: "approved", phase: "completed")).isEmpty)
        #expect(SoakVerdict.problems(result(1, exit: 1, state: "declined")).isEmpty)
        #expect(SoakVerdict.problems(result(2, exit: 2, state: "apiError")).isEmpty)
    }

    @Test func anExitStatusThatDisagreesWithTheStateIsAProblem() {
        #expect(!SoakVerdict.problems(result(0, exit: 0, state: "apiError")).isEmpty)
        #expect(!SoakVerdict.problems(result(1, exit: 0, state: "approved", phase: "capturing")).isEmpty)
        #expect(!SoakVerdict.problems(result(2, exit: 2, state: "approvedish")).isEmpty)
    }

    @Test func withoutFaultsTheCustomersDecisionMustStand() {
        #expect(!SoakVerdict.problems(result(0, exit: 2, state: "apiError", faults: [])).isEmpty)
    }

    @Test func aDoubleCaptureOrMoneyMovedForAFailedCheckoutIsAProblem() throws {
        let results = [result(0, exit: 0, state: "approved", phase: "completed"), result(1, exit: 2, state: "apiError")]
        #expect(try ledger(entry("soak-1-0", captures: 1)).problems(with: results).isEmpty)
        #expect(try ledger(entry("soak-1-0", captures: 2)).problems(with: results).count == 1)
        #expect(try ledger([entry("soak-1-0", captures: 1), entry("soak-1-1", captures: 1)].joined(separator: ",")).problems(with: results).count == 1)
        // Completed, yet no money moved.
        #expect(try ledger("").problems(with: results).count == 1)
    }

    @Test func anAdyenPaymentAuthorisedTwiceForOneCheckoutIsAProblem() throws {
        let results = [result(0, exit: 0, state: "approved", phase: "completed")]
        func adyen(_ rows: Int) -> String { Array(repeating: #"{"psp_reference": "P", "merchant_reference": "soak-1-0", "amount": 4505}"#, count: rows).joined(separator: ",") }
        let once = try JSONDecoder().decode(SoakLedger.self, from: Data(#"{"captures": [], "adyen_payments": [\#(adyen(1))]}"#.utf8))
        let twice = try JSONDecoder().decode(SoakLedger.self, from: Data(#"{"captures": [], "adyen_payments": [\#(adyen(2))]}"#.utf8))
        #expect(once.problems(with: results).isEmpty)
        #expect(twice.problems(with: results).count == 1)
    }

    @Test func theSameSeedPlansTheSameCheckouts() {
        let one = SoakPlan.checkouts(count: 50, seed: 42, providers: [afterpay]).map(\.summary)
        let again = SoakPlan.checkouts(count: 50, seed: 42, providers: [afterpay]).map(\.summary)
        let other = SoakPlan.checkouts(count: 50, seed: 43, providers: [afterpay]).map(\.summary)
        #expect(one == again)
        #expect(one != other)
        #expect(one.contains { $0.contains("faults []") } && one.contains { $0.contains("/v2/checkouts") })
    }
}
