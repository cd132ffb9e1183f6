import Foundation
import PaymentFlow
import Testing

/// A card payment is decided by its create (Square): the coordinator goes straight to
/// approved (and settlement) or declined; a second payment while one runs is refused.
@Suite struct DecidedAtCreateTests {
    private let card = ProviderPlan(id: "square", prepares: true, settles: true)

    @Test func anApprovedCreateGoesStraightToSettlement() {
        var machine = Fixture.machine(.creatingRequest(Fixture.attempt(status: .pending)), provider: card)
        let approved = Fixture.attempt(id: "PAY_1", status: .approved, url: nil, grants: ["PAY_1"], provider: "square")
        let effects = machine.handle(Fixture.result(.created(approved)))
        #expect(machine.state == .approved(approved))
        #expect(effects.contains(.settle(approved)))
    }

    @Test func aDeclinedCreateIsDeclinedWithItsReason() {
        var machine = Fixture.machine(.creatingRequest(Fixture.attempt(status: .pending)), provider: card)
        var declined = Fixture.attempt(id: "PAY_2", status: .declined, url: nil, provider: "square")
        declined.declineReason = "CVV_FAILURE"
        _ = machine.handle(Fixture.result(.created(declined)))
        #expect(machine.state == .declined(declined))
        #expect(machine.state.attempt?.declineReason == "CVV_FAILURE")
    }

    @Test func waitingAtAPromptTooLongTimesOut() {
        var machine = CheckoutMachine()
        _ = machine.handle(.pay(Fixture.order(), provider: card, ids: Fixture.ids))
        _ = machine.handle(.authorizationTimedOut(seconds: 5))
        #expect(machine.state.name == "unexpectedError")
        #expect(machine.state.error?.code == "AUTHORIZATION_TIMEOUT")
    }

    @Test func aSecondPaymentWhileOneIsInProgressIsRefusedAndTheFirstGoesOn() async throws {
        let desk = CustomerDesk()
        let adapter = PromptingAdapter(desk: desk)
        let runner = CheckoutRunner(adapters: { _ in adapter }, desk: desk)
        #expect(await runner.pay(Fixture.order(), with: card) == nil)
        try await eventually { await desk.current != nil }
        #expect(await runner.pay(Fixture.order(), with: card) == .paymentAlreadyInProgress)
        #expect(await desk.answer(PromptAnswer(action: "tap", choice: "ok"), to: "reader"))
        try await eventually { await runner.ended }
        #expect(await runner.state.name == "approved")
        #expect(adapter.prepared == 1)
    }

    @Test func abandoningWithdrawsThePrompt() async throws {
        let desk = CustomerDesk()
        let adapter = PromptingAdapter(desk: desk)
        let runner = CheckoutRunner(adapters: { _ in adapter }, desk: desk)
        await runner.pay(Fixture.order(), with: card)
        try await eventually { await desk.current != nil }
        await runner.reset()
        try await eventually { await desk.current == nil }
        #expect(await runner.state == .notStarted)
    }
}

@Suite struct CustomerDeskTests {
    @Test func anAnswerReachesTheAskerAndOnlyForItsPrompt() async throws {
        let desk = CustomerDesk()
        let asked = Task { await desk.ask(CustomerPrompt(id: "reader", title: "Total", actions: [PromptAction(key: "t", label: "tap", id: "tap")])) }
        try await eventually { await desk.current?.id == "reader" }
        #expect(await desk.answer(PromptAnswer(action: "tap"), to: "tip") == false)
        #expect(await desk.answer(PromptAnswer(action: "tap", choice: "ok"), to: "reader"))
        #expect(await asked.value == PromptAnswer(action: "tap", choice: "ok"))
        #expect(await desk.current == nil)
    }

    @Test func aNewerPromptWithdrawsTheOlderAndCancellingWithdrawsIt() async throws {
        let desk = CustomerDesk()
        let first = Task { await desk.ask(CustomerPrompt(id: "one", title: "1", actions: [])) }
        try await eventually { await desk.current?.id == "one" }
        let second = Task { await desk.ask(CustomerPrompt(id: "two", title: "2", actions: [])) }
        #expect(await first.value == nil)
        try await eventually { await desk.current?.id == "two" }
        second.cancel()
        #expect(await second.value == nil)
        try await eventually { await desk.current == nil }
    }

    @Test func anAnswerStandsForTheProviderOptionsItNames() {
        let prompt = CustomerPrompt(id: "reader", title: "", actions: [], actionFlag: "entry", choiceFlag: "card")
        #expect(PromptAnswer(action: "insert", choice: "cvv").options(for: prompt) == ["entry": "insert", "card": "cvv"])
    }
}

/// Asks the reader prompt in prepare; its create approves at once.
final class PromptingAdapter: PaymentProviderAdapter, @unchecked Sendable {
    private let lock = NSLock()
    private var prepares = 0
    let desk: CustomerDesk
    init(desk: CustomerDesk) { self.desk = desk }
    var prepared: Int { lock.withLock { prepares } }

    func prepare(_ order: PaymentOrder, ids: AttemptIdentifiers, step: @escaping StepReporter) async throws(ProviderFailure) -> PaymentAttempt {
        lock.withLock { prepares += 1 }
        await step("reader")
        guard await desk.ask(CustomerPrompt(id: "reader", title: "Total", actions: [PromptAction(key: "t", label: "tap", id: "tap")])) != nil else {
            throw .promptWithdrawn
        }
        return PaymentAttempt(provider: "square", amount: order.amount, reference: ids.reference)
    }

    func create(_ draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        PaymentAttempt(provider: "square", id: "PAY_1", status: .approved, amount: order.amount, reference: ids.reference, grants: ["PAY_1"])
    }

    func update(_ attempt: PaymentAttempt, to draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        throw .terminalState
    }

    func retrieve(_ attempt: PaymentAttempt, refreshing: Bool) async throws(ProviderFailure) -> PaymentAttempt { attempt }
}
