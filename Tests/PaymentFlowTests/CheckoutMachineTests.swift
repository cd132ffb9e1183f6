import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import Testing

/// Every row of STATES.md's state table and PayKit's rules, with no network and no clock.
@Suite struct CheckoutMachineTests {
    typealias Effect = CheckoutMachine.Effect
    let draft = PaymentAttempt(provider: "cashapp", amount: Fixture.order().amount, reference: "tc-test")

    @Test func payFromNotStartedFixesTheProviderAndCreates() {
        var machine = CheckoutMachine()
        let effects = machine.handle(.pay(Fixture.order(), provider: Fixture.cashApp, ids: Fixture.ids))
        #expect(machine.state == .creatingRequest(draft))
        #expect(effects == [.notify(.creatingRequest(draft)), .create(draft, order: Fixture.order())])
        #expect(machine.provider == Fixture.cashApp)
        #expect(machine.ids == Fixture.ids)
    }

    @Test func aScenarioReferenceWinsOverTheGeneratedOne() {
        var machine = CheckoutMachine()
        var order = Fixture.order()
        order.reference = "order-77"
        _ = machine.handle(.pay(order, provider: Fixture.cashApp, ids: Fixture.ids))
        #expect(machine.state.attempt?.reference == "order-77")
    }

    @Test func createSuccessIsReadyToAuthorize() {
        var machine = Fixture.machine(.creatingRequest(draft))
        let attempt = Fixture.attempt()
        #expect(machine.handle(Fixture.result(.created(attempt))) == [.notify(.readyToAuthorize(attempt))])
    }

    @Test(arguments: [ProviderFailure.Kind.api, .integration, .network, .unexpected])
    func aFailureLeadsToTheErrorStateOfItsKind(kind: ProviderFailure.Kind) {
        var machine = Fixture.machine(.creatingRequest(draft))
        let failure = ProviderFailure(kind: kind, category: "C", code: "X")
        _ = machine.handle(Fixture.result(.failed(failure)))
        #expect(machine.state.error == failure)
        #expect(machine.state.name == ["api": "apiError", "integration": "integrationError", "network": "networkError", "unexpected": "unexpectedError"][kind.rawValue])
    }

    @Test func aChangedOrderWhileReadyGoesThroughUpdatingBackToReady() {
        let attempt = Fixture.attempt()
        var machine = Fixture.machine(.readyToAuthorize(attempt))
        var target = attempt
        target.amount = Fixture.order(cents: 5505).amount
        #expect(machine.handle(.changeOrder(Fixture.order(cents: 5505))) == [
            .notify(.updatingRequest(attempt, to: target)), .update(attempt, to: target, order: Fixture.order(cents: 5505)),
        ])
        #expect(machine.handle(Fixture.result(.updated(target))) == [.notify(.readyToAuthorize(target))])
    }

    @Test func aChangeWhileAnUpdateIsInFlightIsSentWhenItLands() {
        let attempt = Fixture.attempt()
        var machine = Fixture.machine(.readyToAuthorize(attempt))
        _ = machine.handle(.changeOrder(Fixture.order(cents: 5505)))
        #expect(machine.handle(.changeOrder(Fixture.order(cents: 6274))).isEmpty)
        // The update lands at the older amount: the newest goes out at once.
        let effects = machine.handle(Fixture.result(.updated(Fixture.attempt(cents: 5505))))
        #expect(effects.contains { if case .update(_, let to, _) = $0 { to.amount?.minorUnits == 6274 } else { false } })
        let upToDate = machine.handle(Fixture.result(.updated(Fixture.attempt(cents: 6274))))
        #expect(upToDate == [.notify(.readyToAuthorize(Fixture.attempt(cents: 6274)))])
    }

    @Test func updateFailureIsAnErrorState() {
        let attempt = Fixture.attempt()
        var machine = Fixture.machine(.updatingRequest(attempt, to: attempt))
        _ = machine.handle(Fixture.result(.failed(ProviderFailure(Fixture.cashAppFailure("API_ERROR", "SERVICE_UNAVAILABLE", status: 503)))))
        #expect(machine.state.name == "apiError")
    }

    @Test(arguments: [PaymentAttempt.Status.approved, .declined])
    func updatingADecidedRequestIsAnIntegrationError(status: PaymentAttempt.Status) {
        var machine = Fixture.machine(.readyToAuthorize(Fixture.attempt(status: status)))
        _ = machine.handle(.changeOrder(Fixture.order(cents: 100)))
        #expect(machine.state == .integrationError(.terminalState))
        #expect(machine.state.error?.code == "INVALID_STATE_TRANSITION")
    }

    @Test func authorizingADeclinedRequestIsAnIntegrationError() {
        var machine = Fixture.machine(.readyToAuthorize(Fixture.attempt(status: .declined)))
        _ = machine.handle(.authorize(now: Fixture.now))
        #expect(machine.state == .integrationError(.terminalState))
    }

    @Test func authorizingAnApprovedRequestGoesStraightToRedirecting() {
        let attempt = Fixture.approved()
        var machine = Fixture.machine(.readyToAuthorize(attempt))
        #expect(machine.handle(.authorize(now: Fixture.now)) == [.notify(.redirecting(attempt)), .notify(.polling(attempt)), .startPolling(attempt)])
    }

    @Test func authorizingHandsOutTheLinkAndPollsAtOnce() {
        let attempt = Fixture.attempt(refreshesIn: 11)
        var machine = Fixture.machine(.readyToAuthorize(attempt))
        #expect(machine.handle(.authorize(now: Fixture.now)) == [
            .notify(.redirecting(attempt)), .presentAuthorization(url: "https://cash.example/authorize/1"), .notify(.polling(attempt)),
            .startPolling(attempt),
        ])
        #expect(machine.state == .polling(attempt))
    }

    @Test(arguments: [10.0, 5.0, 0.0, -30.0])
    func linksExpiringWithinTenSecondsAreRefreshedFirst(refreshesIn: TimeInterval) {
        let attempt = Fixture.attempt(refreshesIn: refreshesIn)
        var machine = Fixture.machine(.readyToAuthorize(attempt))
        #expect(machine.handle(.authorize(now: Fixture.now)) == [.notify(.refreshing(attempt)), .refresh(attempt)])
    }

    @Test func refreshSuccessRedirectsWithTheFreshLink() {
        var machine = Fixture.machine(.refreshing(Fixture.attempt(refreshesIn: 0)))
        let fresh = Fixture.attempt(refreshesIn: 30, url: "https://cash.example/authorize/2")
        let effects = machine.handle(Fixture.result(.refreshed(fresh)))
        #expect(effects.contains(.presentAuthorization(url: "https://cash.example/authorize/2")))
        #expect(effects.first == .notify(.redirecting(fresh)))
        #expect(machine.state == .polling(fresh))
    }

    @Test func refreshFailureIsAnErrorState() {
        var machine = Fixture.machine(.refreshing(Fixture.attempt(refreshesIn: 0)))
        _ = machine.handle(Fixture.result(.failed(.transport(.timedOut(after: .seconds(5))))))
        #expect(machine.state.name == "networkError")
    }

    @Test func anAttemptWithoutALinkIsUnexpected() {
        var machine = Fixture.machine(.readyToAuthorize(Fixture.attempt(url: nil)))
        _ = machine.handle(.authorize(now: Fixture.now))
        #expect(machine.state == .unexpectedError(.noRedirectURL(attemptID: "GRR_one")))
    }

    @Test func theReturnEventAdvancesOnlyRedirectingOrReady() {
        let attempt = Fixture.attempt()
        for start in [CheckoutState.redirecting(attempt), .readyToAuthorize(attempt)] {
            var machine = Fixture.machine(start)
            #expect(machine.handle(.customerReturned) == [.notify(.polling(attempt)), .startPolling(attempt)])
        }
        for start in [CheckoutState.notStarted, .polling(attempt), .declined(attempt), .approved(Fixture.approved())] {
            var machine = Fixture.machine(start)
            #expect(machine.handle(.customerReturned).isEmpty)
            #expect(machine.state == start)
        }
    }

    @Test func approvedWithGrantsStopsPolling() {
        var machine = Fixture.machine(.polling(Fixture.attempt()))
        #expect(machine.handle(Fixture.result(.retrieved(Fixture.approved()))) == [.stopPolling, .notify(.approved(Fixture.approved()))])
        #expect(machine.ended)
    }

    @Test func approvedWithoutGrantsIsDeclined() {
        var machine = Fixture.machine(.polling(Fixture.attempt()))
        let approved = Fixture.attempt(status: .approved, refreshesIn: nil)
        #expect(machine.handle(Fixture.result(.retrieved(approved))) == [.stopPolling, .notify(.declined(approved))])
    }

    @Test func declinedStopsPolling() {
        var machine = Fixture.machine(.polling(Fixture.attempt()))
        let declined = Fixture.attempt(status: .declined, refreshesIn: nil)
        #expect(machine.handle(Fixture.result(.retrieved(declined))) == [.stopPolling, .notify(.declined(declined))])
    }

    @Test(arguments: [PaymentAttempt.Status.pending, .processing])
    func undecidedKeepsPollingQuietly(status: PaymentAttempt.Status) {
        let attempt = Fixture.attempt(status: status)
        var machine = Fixture.machine(.polling(attempt))
        #expect(machine.handle(Fixture.result(.retrieved(attempt))).isEmpty)
        #expect(machine.state == .polling(attempt))
    }

    @Test func aRotatedLinkWhilePollingIsReportedWithoutATransition() {
        var machine = Fixture.machine(.polling(Fixture.attempt()))
        let rotated = Fixture.attempt(refreshesIn: 60, url: "https://cash.example/authorize/rotated")
        #expect(machine.handle(Fixture.result(.retrieved(rotated))) == [.attemptChanged(rotated)])
        #expect(machine.state == .polling(rotated))
    }

    @Test func aPollFailureStopsPollingInAnErrorState() {
        var machine = Fixture.machine(.polling(Fixture.attempt()))
        let effects = machine.handle(Fixture.result(.failed(ProviderFailure(Fixture.cashAppFailure("RATE_LIMIT_ERROR", "RATE_LIMITED", status: 429)))))
        #expect(effects.first == .stopPolling)
        #expect(machine.state.name == "integrationError")
    }

    @Test func lateResultsAfterADecisionAreIgnored() {
        var machine = Fixture.machine(.approved(Fixture.approved()))
        #expect(machine.handle(Fixture.result(.retrieved(Fixture.attempt(status: .declined)))).isEmpty)
        #expect(machine.handle(Fixture.result(.failed(.transport(.cancelled)))).isEmpty)
        #expect(machine.state.name == "approved")
    }

    @Test func resultsOfAnAbandonedAttemptAreIgnored() {
        var machine = Fixture.machine(.creatingRequest(draft))
        #expect(machine.handle(.result(attempt: 0, .created(Fixture.attempt()))).isEmpty)
        #expect(machine.state == .creatingRequest(draft))
    }

    @Test func payingAgainIsRefusedWhileAnAttemptIsInFlight() {
        var machine = Fixture.machine(.polling(Fixture.attempt()))
        #expect(machine.handle(.pay(Fixture.order(), provider: Fixture.settling, ids: Fixture.ids)).isEmpty)
        #expect(machine.provider == Fixture.cashApp)
    }

    @Test func payingAfterAnEndStartsANewAttemptWithTheNewProvider() {
        var machine = Fixture.machine(.declined(Fixture.attempt(status: .declined)))
        let next = AttemptIdentifiers(number: 2, idempotencyKey: "key-2", reference: "tc-two")
        let effects = machine.handle(.pay(Fixture.order(), provider: Fixture.settling, ids: next))
        #expect(effects == [.notify(.notStarted), .prepare(Fixture.order())])
        #expect(machine.provider == Fixture.settling)
        #expect(machine.ids == next)
    }

    @Test func resetStartsOverAndStopsPolling() {
        var machine = Fixture.machine(.polling(Fixture.attempt()))
        #expect(machine.handle(.reset) == [.stopPolling, .notify(.notStarted)])
        #expect(machine.provider == nil && machine.ids == nil)
        #expect(machine.handle(.reset).isEmpty)
        #expect(machine.handle(.pay(Fixture.order(), provider: Fixture.cashApp, ids: Fixture.ids)).count == 2)
    }

    @Test func aTimeoutEndsAStuckFlow() {
        var machine = Fixture.machine(.polling(Fixture.attempt()))
        let effects = machine.handle(.authorizationTimedOut(seconds: 300))
        #expect(effects.first == .stopPolling)
        #expect(machine.state == .unexpectedError(.authorizationTimeout(seconds: 300)))
        var idle = CheckoutMachine()
        #expect(idle.handle(.authorizationTimedOut(seconds: 1)).isEmpty)
    }

    @Test func everyStateHasItsPayKitName() {
        #expect(CheckoutState.allNames.count == 13)
        #expect(Set(CheckoutState.allNames).count == 13)
    }
}

/// Providers with steps before their request (Afterpay's token and signing) and a settlement
/// after approval (validate, capture).
@Suite struct CheckoutMachineStepsAndSettlementTests {
    @Test func stepsBeforeTheRequestAreShownWhileNotStarted() {
        var machine = CheckoutMachine()
        #expect(machine.handle(.pay(Fixture.order(), provider: Fixture.settling, ids: Fixture.ids)) == [.prepare(Fixture.order())])
        #expect(machine.state == .notStarted)
        #expect(machine.handle(Fixture.result(.step("token"))) == [.phaseChanged(.step("token"))])
        #expect(machine.busyWithStep)
        // A second pay while the token is made is refused.
        #expect(machine.handle(.pay(Fixture.order(), provider: Fixture.settling, ids: Fixture.ids)).isEmpty)
        let signed = Fixture.attempt(id: nil, url: nil, provider: "afterpay")
        #expect(machine.handle(Fixture.result(.prepared(signed))) == [
            .notify(.creatingRequest(signed)), .create(signed, order: Fixture.order()),
        ])
        #expect(machine.phase == nil)
    }

    /// A payment cancelled before anything was sent (Square's handle, before the card is read):
    /// the prepared attempt is declined and nothing is created.
    @Test func aPreparedAttemptThatIsDeclinedEndsWithoutACreate() {
        var machine = CheckoutMachine()
        _ = machine.handle(.pay(Fixture.order(), provider: Fixture.settling, ids: Fixture.ids))
        var cancelled = Fixture.attempt(id: nil, url: nil, provider: "afterpay")
        cancelled.status = .declined
        cancelled.declineReason = "PAYMENT_CANCELED"
        #expect(machine.handle(Fixture.result(.prepared(cancelled))) == [.notify(.declined(cancelled))])
        #expect(machine.ended)
    }

    @Test func aFailedStepEndsInAnErrorState() {
        var machine = CheckoutMachine()
        _ = machine.handle(.pay(Fixture.order(), provider: Fixture.settling, ids: Fixture.ids))
        _ = machine.handle(Fixture.result(.failed(ProviderFailure(kind: .api, category: "API_ERROR", code: "SERVICE_UNAVAILABLE"))))
        #expect(machine.state.name == "apiError")
        #expect(machine.ended)
    }

    @Test func aChangedOrderIsPreparedAgainBeforeTheUpdate() {
        let attempt = Fixture.attempt(provider: "afterpay")
        var machine = Fixture.machine(.readyToAuthorize(attempt), provider: Fixture.settling)
        #expect(machine.handle(.changeOrder(Fixture.order(cents: 6274))) == [.prepare(Fixture.order(cents: 6274))])
        _ = machine.handle(Fixture.result(.step("token")))
        #expect(machine.handle(.authorize(now: Fixture.now)).isEmpty)
        let resigned = Fixture.attempt(id: nil, cents: 6274, url: nil, provider: "afterpay")
        let effects = machine.handle(Fixture.result(.prepared(resigned)))
        #expect(effects.first == .notify(.updatingRequest(attempt, to: resigned)))
    }

    @Test func anApprovalIsSettledAndOnlyThenEnded() {
        var machine = Fixture.machine(.polling(Fixture.attempt(provider: "afterpay")), provider: Fixture.settling)
        let approved = Fixture.approved()
        #expect(machine.handle(Fixture.result(.retrieved(approved))) == [.stopPolling, .notify(.approved(approved)), .settle(approved)])
        #expect(!machine.ended)
        #expect(machine.handle(Fixture.result(.step("validating"))) == [.phaseChanged(.step("validating"))])
        let receipt = SettlementReceipt(paymentID: "100200300", payer: "$shopper")
        #expect(machine.handle(Fixture.result(.settled(.completed(receipt)))) == [.phaseChanged(.completed(receipt))])
        #expect(machine.ended)
    }

    @Test func aDeclinedSettlementIsTypedNotText() {
        var machine = Fixture.machine(.approved(Fixture.approved()), provider: Fixture.settling)
        let failure = SettlementFailure(declined: true, reason: "whatever the provider says")
        _ = machine.handle(Fixture.result(.settled(.failed(failure))))
        #expect(machine.phase == .settlementFailed(failure))
        #expect(machine.ended)
    }
}
