@testable import CheckoutApp
import CheckoutModel
import Foundation
@testable import PaymentFlow
import ProviderClients
import ProviderWire
import Synchronization
import Testing
import TestSupport

/// Issue 28's review of Square's sale: the adapter driven against a sandbox on port 0, its
/// prompts answered through the desk as the screen answers them.
@Suite struct SquareSaleFixTests {
    /// The notices the adapter posted, by name.
    final class Notices: Sendable {
        private let names = Mutex<[String]>([])
        func add(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    struct Sale {
        let adapter: SquareAdapter
        let client: SquareClient
        let desk: CustomerDesk
        let notices: Notices
        let order: PaymentOrder
        let ids = AttemptIdentifiers.make(number: 1)

        func pay() async throws(ProviderFailure) -> PaymentAttempt {
            let draft = try await adapter.prepare(order, ids: ids) { _ in }
            return try await adapter.create(draft, order: order, ids: ids)
        }

        func settle(_ attempt: PaymentAttempt) async -> SettlementOutcome {
            await adapter.settle(attempt, ids: ids) { _ in }
        }

        /// Waits for prompt `id` and answers it.
        func answer(_ id: String, _ answer: PromptAnswer) async throws {
            try await waitFor(id)
            #expect(await desk.answer(answer, to: id), "answered \(id)")
        }

        /// Polls `condition` until it holds, failing after a deadline.
        func eventually(_ condition: @Sendable () async -> Bool) async throws {
            let deadline = ContinuousClock.now + .seconds(15)
            while !(await condition()) {
                guard ContinuousClock.now < deadline else { throw CancellationError() }
                try await Task.sleep(for: .milliseconds(10))
            }
        }

        func waitFor(_ id: String) async throws {
            try await eventually { await desk.current?.id == id }
        }

        func payment(_ id: String) async throws -> SquarePayment { try await client.getPayment(id: id) }
    }

    private func sale(_ harness: SandboxHarness, _ options: [String: String]) throws -> Sale {
        let values = ProviderOptionValues(options.merging(["tip": "0"]) { old, _ in old })
        let desk = CustomerDesk()
        let notices = Notices()
        let client = SquareClient(
            configuration: SquareOptions.configuration(values, sandboxURL: harness.baseURL), http: harness.http(retryPolicy: .never))
        let adapter = SquareAdapter(
            provider: "square", square: client, settings: SquareOptions.settings(values), desk: desk, offlineStore: nil,
            pollInterval: .milliseconds(50), notify: { name, _ in notices.add(name) }, post: { name, _, _ in notices.add(name) })
        let catalog = try Catalog.bundled(currency: "USD")
        return Sale(
            adapter: adapter, client: client, desk: desk, notices: notices,
            order: try PaymentOrder.forCart(catalog.defaultCart, merchantName: catalog.merchantName))
    }

    /// The sandbox's Square payments as its ledger has them.
    private func ledger(_ harness: SandboxHarness) async throws -> [[String: Any]] {
        let answer = try await harness.raw(method: "GET", path: "/sandbox/ledger", body: nil)
        return try #require((try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["square_payments"] as? [[String: Any]])
    }

    private func failureReason(_ outcome: SettlementOutcome) -> String? {
        if case .failed(let failure) = outcome { return failure.reason }
        return nil
    }

    /// A gift card and a card for the rest, authorized, then settled (`then`) with `fault`
    /// injected into the sandbox: the sale, its two payments and why the settlement failed.
    private func failedSplitSale(
        _ harness: SandboxHarness, then: String, fault: String
    ) async throws -> (sale: Sale, grants: [String], reason: String) {
        let sale = try sale(harness, ["card": "gift,ok", "accept-partial-authorization": "true", "then": then])
        let attempt = try await sale.pay()
        #expect(attempt.grants.count == 2, "\(attempt)")
        try await harness.inject(fault)
        let outcome = await sale.settle(attempt)
        return (sale, attempt.grants, try #require(failureReason(outcome), "\(outcome)"))
    }

    // 1 and 8: the add-tip prompt cannot be abandoned, goes back with b, and its percentages are
    // of the whole sale (both payments), not of the last payment.

    @Test func theAddTipPromptIsNotAbandonableAndGoesBack() {
        let prompt = SquareAdapter.addTipPrompt(amount: Money(minorUnits: 4505, currency: .usd), current: .zero(.usd))
        #expect(!prompt.abandonable)
        #expect(prompt.actions.contains { $0.key == "b" && $0.id == SquarePrompts.backAction })
        #expect(prompt.unrecordedActions.contains(SquarePrompts.backAction))
        #expect(prompt.choiceFlag == "then" && prompt.choicePrefix == "tip:")
    }

    @Test func aSplitSalesTipIsOfTheSaleAndBackReturnsToTheAuthorizedPrompt() async throws {
        try await SandboxHarness.with { harness in
            let sale = try sale(harness, ["card": "gift,ok", "accept-partial-authorization": "true"])
            let attempt = try await sale.pay()
            #expect(attempt.status == .approved && attempt.grants.count == 2, "\(attempt)")
            let settled = Task { await sale.settle(attempt) }
            try await sale.answer(SquarePrompts.authorizedID, PromptAnswer(action: SquarePrompts.addTipAction))
            try await sale.waitFor(SquarePrompts.addTipID)
            let prompt = try #require(await sale.desk.current)
            #expect(prompt.lines.first?.hasPrefix("Amount $45.05") == true, "\(prompt.lines)")
            #expect(prompt.choices.map(\.id) == ["0", "451", "676", "901"], "\(prompt.choices)")
            try await sale.answer(SquarePrompts.addTipID, PromptAnswer(action: SquarePrompts.backAction, choice: "451"))
            try await sale.answer(SquarePrompts.authorizedID, PromptAnswer(action: SquarePrompts.addTipAction))
            try await sale.answer(SquarePrompts.addTipID, PromptAnswer(action: "add", choice: "676"))
            try await sale.answer(SquarePrompts.authorizedID, PromptAnswer(action: "complete"))
            guard case .completed = await settled.value else { Issue.record("not completed"); return }
            let payments = try await ledger(harness)
            #expect(payments.map { $0["tip"] as? Int ?? 0 } == [0, 676], "the tip goes on the last payment: \(payments)")
        }
    }

    // 2: every tender create has its own idempotency key.

    @Test func everyPaymentOfASplitSaleHasItsOwnKey() async throws {
        try await SandboxHarness.with { harness in
            let sale = try sale(harness, ["card": "gift,declined,gift,ok", "accept-partial-authorization": "true", "then": "complete"])
            let attempt = try await sale.pay()
            #expect(attempt.status == .approved && attempt.grants.count == 3, "\(attempt) \(sale.notices.all)")
            guard case .completed = await sale.settle(attempt) else { Issue.record("not completed"); return }
            let payments = try await ledger(harness)
            let keys = payments.compactMap { $0["idempotency_key"] as? String }
            #expect(keys.count == 4 && Set(keys).count == 4, "\(keys)")
            #expect(payments.compactMap { $0["status"] as? String } == ["COMPLETED", "FAILED", "COMPLETED", "COMPLETED"], "\(payments)")
        }
    }

    // 3: cancelling a split sale tries every payment and says which stay open; completing one
    // stops at the first payment that cannot be completed and voids the sale, so the card for
    // the rest is never charged for a sale that failed.

    @Test func aFailedCancelDoesNotStopTheRestOfTheSale() async throws {
        try await SandboxHarness.with { harness in
            // The first payment's cancel fails once (the client does not retry here).
            let (sale, grants, reason) = try await failedSplitSale(harness, then: "cancel", fault: "POST /v2/payments/ 500")
            #expect(reason.contains("still open: \(grants[0])"), "\(reason)")
            #expect(try await sale.payment(grants[1]).status == "CANCELED")
            #expect(try await sale.payment(grants[0]).status == "APPROVED")
        }
    }

    @Test(arguments: [1, 2])
    func aFailedCompleteVoidsTheWholeSale(faults: Int) async throws {
        try await SandboxHarness.with { harness in
            // One fault: the first complete fails and both voids go through. Two: the first
            // payment's void fails as well and stays open, left to Square's delay action.
            let (sale, grants, reason) = try await failedSplitSale(harness, then: "complete", fault: "POST /v2/payments/ 500*\(faults)")
            #expect(reason.contains("Could not complete \(grants[0])"), "\(reason)")
            #expect(try await sale.payment(grants[1]).status == "CANCELED", "the second payment is never completed")
            if faults == 1 {
                #expect(reason.contains("nothing was charged"), "\(reason)")
                #expect(try await sale.payment(grants[0]).status == "CANCELED")
            } else {
                #expect(reason.contains("still open: \(grants[0])"), "\(reason)")
                #expect(try await sale.payment(grants[0]).status == "APPROVED")
            }
        }
    }

    // 4: a failed UpdatePayment keeps the payment's prompt (screen) or goes on without the tip.

    @Test func aFailedTipOnTheScreenGoesBackToTheAuthorizedPrompt() async throws {
        try await SandboxHarness.with { harness in
            let sale = try sale(harness, ["card": "ok", "delay": "PT10M"])
            let attempt = try await sale.pay()
            let settled = Task { await sale.settle(attempt) }
            try await harness.inject("PUT /v2/payments/ 500")
            try await sale.answer(SquarePrompts.authorizedID, PromptAnswer(action: SquarePrompts.addTipAction))
            try await sale.answer(SquarePrompts.addTipID, PromptAnswer(action: "add", choice: "451"))
            try await sale.answer(SquarePrompts.authorizedID, PromptAnswer(action: "complete"))
            guard case .completed = await settled.value else { Issue.record("not completed"); return }
            #expect(sale.notices.all.contains("tip-failed"), "\(sale.notices.all)")
            #expect(try await sale.payment(try #require(attempt.id)).status == "COMPLETED")
        }
    }

    @Test func aFailedTipHeadlessGoesOnWithThen() async throws {
        try await SandboxHarness.with { harness in
            let sale = try sale(harness, ["card": "ok", "delay": "PT10M", "then": "tip:300,complete"])
            let attempt = try await sale.pay()
            try await harness.inject("PUT /v2/payments/ 500")
            guard case .completed = await sale.settle(attempt) else { Issue.record("not completed"); return }
            #expect(sale.notices.all.contains("tip-failed"), "\(sale.notices.all)")
            let payment = try await sale.payment(try #require(attempt.id))
            #expect(payment.status == "COMPLETED" && payment.totalMoney?.amount == 4505, "\(payment)")
        }
    }

    // 5: amounts from Square that do not add up never trap.

    @Test func amountsThatOverflowAreNotATrap() throws {
        let huge = SquarePayment(id: "P1", status: "APPROVED", amountMoney: SquareMoney(amount: .max, currency: "USD"),
                                 tipMoney: SquareMoney(amount: .max, currency: "USD"), totalMoney: SquareMoney(amount: .max, currency: "USD"))
        let other = SquarePayment(id: "P2", status: "APPROVED", amountMoney: SquareMoney(amount: 5, currency: "USD"),
                                  tipMoney: SquareMoney(amount: 5, currency: "USD"), totalMoney: SquareMoney(amount: 5, currency: "USD"))
        #expect(SquareReceipt.sum([huge, other]) == nil)
        #expect(SquareReceipt.tipSum([huge, other]) == nil)
        #expect(!SquareReceipt.salePrintout([huge, other], merchant: "M").isEmpty)
        var state = SquareAdapter.AttemptState(
            settings: SquarePaymentSettings(), card: .giftCard, entry: .tap, tip: .zero(.usd), total: Money(minorUnits: 4505, currency: .usd),
            reference: "r", merchant: "M", payment: huge)
        state.tenders = [other]
        #expect(throws: MoneyError.self) { try SquareAdapter.approved(state) }
        #expect(SquareAdapter.uncovered(state))
    }

    // 6: quitting with the remainder's prompt up voids the gift card's payment.

    @Test func quittingHalfWayThroughASplitSaleVoidsWhatWasApproved() async throws {
        try await SandboxHarness.with { harness in
            let sale = try sale(harness, ["accept-partial-authorization": "true", "then": "complete"])
            let paying = Task { try await sale.pay() }
            try await sale.answer(SquarePrompts.readerID, PromptAnswer(action: "tap", choice: "gift"))
            try await sale.waitFor(SquarePrompts.remainderID)
            await sale.adapter.close()
            let payments = try await ledger(harness)
            #expect(payments.map { $0["status"] as? String } == ["CANCELED"], "\(payments)")
            await sale.desk.withdraw()
            #expect(try await paying.value.status == .declined)
            #expect(try await ledger(harness).map { $0["status"] as? String } == ["CANCELED"])
        }
    }

    // 7: in --prompt custom the retry paths keep the merchant-drawn prompt, which offers the gift card.

    @Test func theCustomPromptOffersTheGiftCardAndTakesTheRemainder() async throws {
        try await SandboxHarness.with { harness in
            let sale = try sale(harness, ["accept-partial-authorization": "true", "then": "complete", "prompt": "custom"])
            let paying = Task { try await sale.pay() }
            try await sale.waitFor(SquareCustomPrompt.id)
            #expect(await sale.desk.current?.choices.contains { $0.id == "gift" } == true)
            try await sale.answer(SquareCustomPrompt.id, PromptAnswer(action: "tap", choice: "gift"))
            try await sale.eventually { await sale.desk.current?.title == "Remainder $35.05" }
            let prompt = try #require(await sale.desk.current)
            #expect(prompt.id == SquareCustomPrompt.id && prompt.lines.first == SquareCustomPrompt.headline, "\(prompt)")
            #expect(prompt.lines.contains("Partly paid: $10.00 approved; present another card"), "\(prompt.lines)")
            #expect(prompt.appendingFlags == ["card"] && prompt.unrecordedActions.contains(SquareCustomPrompt.cancelID))
            // The reader's keys still redraw it; its cancel gives up the remainder (the sale is voided).
            try await sale.answer(SquareCustomPrompt.id, PromptAnswer(action: SquareCustomPrompt.readerPrefix + "disconnect"))
            try await sale.eventually { await sale.desk.current?.lines.contains { $0.hasPrefix("Reader: disconnected") } == true }
            try await sale.answer(SquareCustomPrompt.id, PromptAnswer(action: SquareCustomPrompt.cancelID))
            #expect(try await paying.value.status == .declined)
            #expect(try await ledger(harness).map { $0["status"] as? String } == ["CANCELED"])
        }
    }

    @Test func anotherCardAfterADeclineIsReadOnTheCustomPrompt() async throws {
        try await SandboxHarness.with { harness in
            let sale = try sale(harness, ["prompt": "custom"])
            let paying = Task { try await sale.pay() }
            try await sale.answer(SquareCustomPrompt.id, PromptAnswer(action: "tap", choice: "declined"))
            try await sale.answer(SquarePrompts.anotherCardID, PromptAnswer(action: SquarePrompts.anotherCardAction))
            try await sale.waitFor(SquareCustomPrompt.id)
            #expect(await sale.desk.current?.lines.first == SquareCustomPrompt.headline)
            try await sale.answer(SquareCustomPrompt.id, PromptAnswer(action: "tap", choice: "ok"))
            #expect(try await paying.value.status == .approved)
        }
    }
}
