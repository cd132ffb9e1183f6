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

    /// A ledger whose `charges` section holds `rows`.
    private func ledger(_ rows: String) throws -> SoakLedger {
        try JSONDecoder().decode(SoakLedger.self, from: Data(#"{"captures": [], "charges": [\#(rows)]}"#.utf8))
    }

    /// `times` charges of one payment for `reference`, as the ledger lists a payment charged that often.
    private func charge(_ reference: String, provider: String = "afterpay", id: String? = nil, times: Int = 1, amount: Int = 4505) -> String {
        Array(
            repeating: #"{"provider": "\#(provider)", "id": "\#(id ?? "t-" + reference)", "reference": "\#(reference)", "amount": \#(amount), "currency": "USD"}"#,
            count: times
        ).joined(separator: ",")
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
        #expect(try ledger(charge("soak-1-0")).problems(with: results).isEmpty)
        // Afterpay's token captured twice: the ledger lists its charge twice, one problem.
        let twice = try ledger(charge("soak-1-0", times: 2)).problems(with: results)
        #expect(twice.count == 1)
        #expect(twice.first?.1.contains("was charged 2 times") == true)
        #expect(try ledger([charge("soak-1-0"), charge("soak-1-1")].joined(separator: ",")).problems(with: results).count == 1)
        // Completed, yet no money moved.
        #expect(try ledger("").problems(with: results).count == 1)
        // Charged another amount than the checkout.
        #expect(try ledger(charge("soak-1-0", amount: 4500)).problems(with: results).count == 1)
    }

    /// A payment cancelled as the merchant asked (the summary's `sdk_outcome: cancelled`) ends 0
    /// with no money moved; a charge for it is a problem.
    @Test func aCancelledPaymentMustMoveNoMoney() throws {
        var cancelled = result(0, exit: 0, state: "approved", phase: "completed")
        cancelled.cancelled = true
        #expect(try ledger("").problems(with: [cancelled]).isEmpty)
        let charged = try ledger(charge("soak-1-0", provider: "square", id: "P1")).problems(with: [cancelled])
        #expect(charged.count == 1 && charged.first?.1.contains("cancelled, yet money moved") == true, "\(charged.map(\.1))")
    }

    @Test func twoPaymentsForOneCheckoutAreAProblemWhicheverTheProvider() throws {
        let results = [result(0, exit: 0, state: "approved", phase: "completed")]
        for provider in ["adyen", "square"] {
            let once = try ledger(charge("soak-1-0", provider: provider, id: "P1"))
            let twice = try ledger([charge("soak-1-0", provider: provider, id: "P1"), charge("soak-1-0", provider: provider, id: "P2")].joined(separator: ","))
            #expect(once.problems(with: results).isEmpty)
            #expect(twice.problems(with: results).count == 1)
            #expect(twice.capturedCount == 2 && twice.capturedCents == 9010)
        }
    }

    @Test func theLedgerIsReadFromItsChargesSection() throws {
        let json = #"{"captures": [{"token": "t-1", "merchant_reference": "soak-1-0", "amount": {"amount": "45.05", "currency": "USD"}, "captures": 1, "capture_requests": 3}],"#
            + #" "adyen_payments": [{"psp_reference": "IGNORED", "merchant_reference": "x", "amount": 1}],"#
            + #" "charges": [\#(charge("soak-1-0", id: "t-1")), \#(charge("soak-1-1", provider: "adyen", id: "P"))]}"#
        let ledger = try JSONDecoder().decode(SoakLedger.self, from: Data(json.utf8))
        #expect(ledger.charges.map(\.id) == ["t-1", "P"])
        #expect(ledger.charges.map(\.provider) == ["afterpay", "adyen"])
        #expect(ledger.captureRequestCount == 3)
    }

    /// Afterpay's endpoints as `checkout providers --json` lists them: the soak faults each, so
    /// a 5xx once on sign-payment walks the retry with a new checkout token (and ends as the
    /// customer decided), twice or more the failure after it (apiError), and Get Configuration's
    /// faults are drawn too.
    @Test func thePlanReachesAfterpaysSigningRetryAndItsFailure() {
        let listed = SoakProvider(
            id: "afterpay",
            endpoints: [
                "GET /v2/configuration", "POST /v2/checkouts", "POST /v2/payments/sign-payment", "POST /customer-request/v1/requests",
                "POST /v2/payments/validate-payment", "POST /v2/payments/capture", "GET /v2/payments/token:{token}",
            ],
            settles: true, customerBehaviours: ["approve", "decline", "none", "approve-after"])
        let faults = SoakPlan.checkouts(count: 400, seed: 20261122, providers: [listed]).flatMap(\.faults)
        let signing = faults.filter { $0.hasPrefix("POST /v2/payments/sign-payment 5") }
        #expect(signing.contains { $0.hasSuffix("*1") })
        #expect(signing.contains { !$0.hasSuffix("*1") })
        #expect(faults.contains { $0.hasPrefix("GET /v2/configuration ") })
    }

    @Test func theSameSeedPlansTheSameCheckouts() {
        let one = SoakPlan.checkouts(count: 50, seed: 42, providers: [afterpay]).map(\.summary)
        let again = SoakPlan.checkouts(count: 50, seed: 42, providers: [afterpay]).map(\.summary)
        let other = SoakPlan.checkouts(count: 50, seed: 43, providers: [afterpay]).map(\.summary)
        #expect(one == again)
        #expect(one != other)
        #expect(one.contains { $0.contains("faults []") } && one.contains { $0.contains("/v2/checkouts") })
    }

    /// A provider's soak option sets (Cash App Pay's on-file payments) reach some of its checkouts'
    /// scenarios, and some run without them.
    @Test func aProvidersOptionSetsReachItsScenarios() {
        let cashApp = SoakProvider(
            id: "cashapp", endpoints: ["POST /customer-request/v1/requests"], settles: false, customerBehaviours: ["approve", "decline"],
            soakOptions: [["on-file": "also"], ["on-file": "only"]])
        let plan = SoakPlan.checkouts(count: 60, seed: 7, providers: [cashApp])
        let options = plan.map { $0.scenario["options"] as? [String: String] }
        #expect(options.contains { $0 == ["on-file": "also"] } && options.contains { $0 == ["on-file": "only"] } && options.contains { $0 == nil })
        #expect(plan.contains { $0.summary.contains("options on-file=only") })
    }
}
