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

    /// A voided authorization (the summary's `charged: false`: cancelled as the merchant asked)
    /// ends 0 with no money moved; a charge for it is a problem.
    @Test func aVoidedPaymentMustMoveNoMoney() throws {
        var cancelled = result(0, exit: 0, state: "approved", phase: "completed")
        cancelled.voided = true
        #expect(try ledger("").problems(with: [cancelled]).isEmpty)
        let charged = try ledger(charge("soak-1-0", provider: "square", id: "P1")).problems(with: [cancelled])
        #expect(charged.count == 1 && charged.first?.1.contains("voided, yet money moved") == true, "\(charged.map(\.1))")
    }

    @Test func twoPaymentsForOneCheckoutAreAProblemWhicheverTheProvider() throws {
        let results = [result(0, exit: 0, state: "approved", phase: "completed")]
        for provider in ["adyen", "square"] {
            let once = try ledger(charge("soak-1-0", provider: provider, id: "P1"))
            let twice = try ledger([charge("soak-1-0", provider: provider, id: "P1"), charge("soak-1-0", provider: provider, id: "P2")].joined(separator: ","))
            #expect(once.problems(with: results).isEmpty)
            #expect(twice.problems(with: results).count == 1)
            #expect(twice.capturedCount == 2 && twice.capturedCents == 9010)
            #expect(twice.problems(with: results).first?.1.contains("more than the sale's 4505") == true)
        }
    }

    /// A split tender (a gift card's partial authorization and a card for the rest): two payments
    /// that together move the sale's amount are the sale; together more, or less, is a problem.
    @Test func aSplitTenderMovesTheSaleInSeveralPaymentsNeverMore() throws {
        let results = [result(0, exit: 0, state: "approved", phase: "completed")]
        let split = try ledger([charge("soak-1-0", provider: "square", id: "G", amount: 1000), charge("soak-1-0", provider: "square", id: "C", amount: 3505)]
            .joined(separator: ","))
        #expect(split.problems(with: results).isEmpty)
        let over = try ledger([charge("soak-1-0", provider: "square", id: "G", amount: 1000), charge("soak-1-0", provider: "square", id: "C", amount: 4505)]
            .joined(separator: ","))
        #expect(over.problems(with: results).map(\.1) == ["the ledger moved 5505 cents for soak-1-0 in 2 payment(s), more than the sale's 4505"])
        let short = try ledger(charge("soak-1-0", provider: "square", id: "G", amount: 1000))
        #expect(short.problems(with: results).count == 1)
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

    /// A provider's variants (Cash App Pay's one-time and on-file payments) take turns: each
    /// reaches its checkouts' scenarios, a plain one sets no options.
    @Test func aProvidersVariantsTakeTurnsInItsScenarios() {
        let cashApp = SoakProvider(
            id: "cashapp", endpoints: ["POST /customer-request/v1/requests"], settles: false, customerBehaviours: ["approve", "decline"],
            variants: [
                SoakVariant(name: "one-time", options: [:]), SoakVariant(name: "on-file", options: ["on-file": "also"]),
                SoakVariant(name: "on-file-only", options: ["on-file": "only"]),
            ])
        let plan = SoakPlan.checkouts(count: 6, seed: 7, providers: [cashApp])
        let options = plan.map { $0.scenario["options"] as? [String: String] }
        #expect(options == [nil, ["on-file": "also"], ["on-file": "only"], nil, ["on-file": "also"], ["on-file": "only"]])
        #expect(plan[2].summary.hasPrefix("cashapp (on-file-only)") && plan[2].summary.hasSuffix("options on-file=only"))
    }

    /// What `checkout providers --json` lists is what the soak reads: every variant, in order.
    @Test func theListingsVariantsDecode() throws {
        let listing = #"{"id": "adyen", "endpoints": [], "settles": true, "customer_behaviours": ["approve"], "variants": [{"name": "sessions", "options": {"adyen-flow": "sessions"}, "bench": true}, {"name": "advanced", "options": {"adyen-flow": "advanced"}, "bench": true}]}"#
        let provider = try JSONDecoder().decode(SoakProvider.self, from: Data(listing.utf8))
        #expect(provider.variants?.map(\.name) == ["sessions", "advanced"])
        #expect(provider.variants?.last?.options == ["adyen-flow": "advanced"])
    }
}
