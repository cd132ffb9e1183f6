import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import Testing

/// Every row of STATES.md's state table and PayKit's rules, with no network and no clock.
@Suite struct CashAppPayMachineTests {
    typealias Effect = CashAppPayMachine.Effect

    @Test func createFromNotStartedCallsTheAPI() {
        var machine = CashAppPayMachine()
        let effects = machine.handle(.create(Fixture.params))
        #expect(machine.state == .creatingCustomerRequest(Fixture.params))
        #expect(effects == [.notify(.creatingCustomerRequest(Fixture.params)), .createRequest(Fixture.params)])
    }

    @Test func createSuccessIsReadyToAuthorize() {
        var machine = CashAppPayMachine(state: .creatingCustomerRequest(Fixture.params))
        let request = Fixture.request()
        #expect(machine.handle(.created(request)) == [.notify(.readyToAuthorize(request))])
    }

    @Test(arguments: [
        ("API_ERROR", "INTERNAL_SERVER_ERROR", "apiError"),
        ("AUTHENTICATION_ERROR", "UNAUTHORIZED", "integrationError"),
        ("BRAND_ERROR", "BRAND_NOT_FOUND", "integrationError"),
        ("MERCHANT_ERROR", "MERCHANT_MISSING_ADDRESS_OR_SITE", "integrationError"),
        ("INVALID_REQUEST_ERROR", "VALUE_TOO_LOW", "integrationError"),
        ("RATE_LIMIT_ERROR", "RATE_LIMITED", "integrationError"),
        ("DISPUTE_ERROR", "SOMETHING", "unexpectedError"),
    ])
    func createFailureIsClassifiedByCategory(category: String, code: String, expected: String) {
        var machine = CashAppPayMachine(state: .creatingCustomerRequest(Fixture.params))
        _ = machine.handle(.failed(Fixture.apiFailure(category, code)))
        #expect(machine.state.name == expected)
        #expect(machine.state.error == CashAppPayError(category: category, code: code, detail: "d", field: "f"))
    }

    @Test(arguments: [
        (CustomerRequestFailure.transport(.timedOut(after: .seconds(5))), "NO_RESPONSE"),
        (.transport(.connectionLost("reset")), "NO_RESPONSE"),
        (.transport(.connectionFailed("refused")), "SYSTEM_ERROR"),
        (.emptyBody(status: 200), "NIL_DATA"),
        (.undecodable(status: 200, detail: "garbage"), "INVALID_JSON"),
    ])
    func transportProblemsAreNetworkErrors(failure: CustomerRequestFailure, code: String) {
        var machine = CashAppPayMachine(state: .creatingCustomerRequest(Fixture.params))
        _ = machine.handle(.failed(failure))
        guard case .networkError(let error) = machine.state else {
            Issue.record("expected networkError, got \(machine.state.name)")
            return
        }
        #expect(error.code == code)
    }

    @Test func anEmptyErrorArrayIsUnexpected() {
        var machine = CashAppPayMachine(state: .creatingCustomerRequest(Fixture.params))
        _ = machine.handle(.failed(.api(status: 500, errors: [])))
        #expect(machine.state == .unexpectedError(.emptyErrorArray))
    }

    @Test func updateWhileReadyGoesThroughUpdatingBackToReady() {
        let request = Fixture.request()
        let params = UpdateCustomerRequestParams(actions: [.oneTimePayment(scopeID: "BRAND_test", amount: 5505, currency: "USD")])
        var machine = CashAppPayMachine(state: .readyToAuthorize(request))
        #expect(machine.handle(.update(params)) == [
            .notify(.updatingCustomerRequest(request: request, params: params)),
            .updateRequest(id: request.id, params: params),
        ])
        var updated = request
        updated.actions = params.actions!
        #expect(machine.handle(.updated(updated)) == [.notify(.readyToAuthorize(updated))])
    }

    @Test func updateFailureIsAnErrorState() {
        let request = Fixture.request()
        var machine = CashAppPayMachine(state: .updatingCustomerRequest(request: request, params: .init(actions: nil)))
        _ = machine.handle(.failed(Fixture.apiFailure("API_ERROR", "SERVICE_UNAVAILABLE", status: 503)))
        #expect(machine.state.name == "apiError")
    }

    @Test(arguments: [CustomerRequest.Status.APPROVED, .DECLINED])
    func updatingADecidedRequestIsAnIntegrationError(status: CustomerRequest.Status) {
        var machine = CashAppPayMachine(state: .readyToAuthorize(Fixture.request(status: status)))
        _ = machine.handle(.update(.init(actions: nil)))
        #expect(machine.state == .integrationError(.terminalStateError))
        #expect(machine.state.error?.code == "INVALID_STATE_TRANSITION")
    }

    @Test func authorizingADeclinedRequestIsAnIntegrationError() {
        var machine = CashAppPayMachine(state: .readyToAuthorize(Fixture.request(status: .DECLINED)))
        _ = machine.handle(.authorize(now: Fixture.now))
        #expect(machine.state == .integrationError(.terminalStateError))
    }

    @Test func authorizingAnApprovedRequestGoesStraightToRedirecting() {
        let request = Fixture.approved()
        var machine = CashAppPayMachine(state: .readyToAuthorize(request))
        let effects = machine.handle(.authorize(now: Fixture.now))
        #expect(effects == [.notify(.redirecting(request)), .notify(.polling(request)), .startPolling(requestID: request.id)])
    }

    @Test func authorizingHandsOutTheLinkAndPollsAtOnce() {
        let request = Fixture.request(refreshesIn: 11)
        var machine = CashAppPayMachine(state: .readyToAuthorize(request))
        let effects = machine.handle(.authorize(now: Fixture.now))
        #expect(effects == [
            .notify(.redirecting(request)),
            .presentAuthorization(url: "https://cash.example/authorize/1"),
            .notify(.polling(request)),
            .startPolling(requestID: request.id),
        ])
        #expect(machine.state == .polling(request))
    }

    @Test(arguments: [10.0, 5.0, 0.0, -30.0])
    func triggersExpiringWithinTenSecondsAreRefreshedFirst(refreshesIn: TimeInterval) {
        let request = Fixture.request(refreshesIn: refreshesIn)
        var machine = CashAppPayMachine(state: .readyToAuthorize(request))
        #expect(machine.handle(.authorize(now: Fixture.now)) == [.notify(.refreshing(request)), .refreshRequest(id: request.id)])
    }

    @Test func refreshSuccessRedirectsWithTheFreshLink() {
        var machine = CashAppPayMachine(state: .refreshing(Fixture.request(refreshesIn: 0)))
        let fresh = Fixture.request(refreshesIn: 30, mobileURL: "https://cash.example/authorize/2")
        let effects = machine.handle(.refreshed(fresh))
        #expect(effects.contains(.presentAuthorization(url: "https://cash.example/authorize/2")))
        #expect(effects.first == .notify(.redirecting(fresh)))
        #expect(machine.state == .polling(fresh))
    }

    @Test func refreshFailureIsAnErrorState() {
        var machine = CashAppPayMachine(state: .refreshing(Fixture.request(refreshesIn: 0)))
        _ = machine.handle(.failed(.transport(.timedOut(after: .seconds(5)))))
        #expect(machine.state.name == "networkError")
    }

    @Test func aRequestWithoutALinkIsUnexpected() {
        let request = Fixture.request(mobileURL: nil)
        var machine = CashAppPayMachine(state: .readyToAuthorize(request))
        _ = machine.handle(.authorize(now: Fixture.now))
        #expect(machine.state == .unexpectedError(.noRedirectURL(requestID: request.id)))
    }

    @Test func theReturnEventAdvancesOnlyRedirectingOrReady() {
        let request = Fixture.request()
        for start in [CashAppPayState.redirecting(request), .readyToAuthorize(request)] {
            var machine = CashAppPayMachine(state: start)
            #expect(machine.handle(.customerReturned) == [.notify(.polling(request)), .startPolling(requestID: request.id)])
        }
        for start in [CashAppPayState.notStarted, .polling(request), .declined(request), .approved(request: request, grants: [])] {
            var machine = CashAppPayMachine(state: start)
            #expect(machine.handle(.customerReturned).isEmpty)
            #expect(machine.state == start)
        }
    }

    @Test func approvedWithGrantsStopsPolling() {
        var machine = CashAppPayMachine(state: .polling(Fixture.request()))
        let approved = Fixture.approved()
        #expect(machine.handle(.retrieved(approved)) == [.stopPolling, .notify(.approved(request: approved, grants: [Fixture.grant]))])
    }

    @Test(arguments: [nil, [Grant]()])
    func approvedWithoutGrantsIsDeclined(grants: [Grant]?) {
        var machine = CashAppPayMachine(state: .polling(Fixture.request()))
        let approved = Fixture.request(status: .APPROVED, refreshesIn: nil, grants: grants)
        #expect(machine.handle(.retrieved(approved)) == [.stopPolling, .notify(.declined(approved))])
    }

    @Test func declinedStopsPolling() {
        var machine = CashAppPayMachine(state: .polling(Fixture.request()))
        let declined = Fixture.request(status: .DECLINED, refreshesIn: nil)
        #expect(machine.handle(.retrieved(declined)) == [.stopPolling, .notify(.declined(declined))])
    }

    @Test(arguments: [CustomerRequest.Status.PENDING, .PROCESSING])
    func undecidedKeepsPollingQuietly(status: CustomerRequest.Status) {
        let request = Fixture.request(status: status)
        var machine = CashAppPayMachine(state: .polling(request))
        #expect(machine.handle(.retrieved(request)).isEmpty)
        #expect(machine.state == .polling(request))
    }

    @Test func rotatedTriggersWhilePollingAreReportedWithoutATransition() {
        var machine = CashAppPayMachine(state: .polling(Fixture.request()))
        let rotated = Fixture.request(refreshesIn: 60, mobileURL: "https://cash.example/authorize/rotated")
        #expect(machine.handle(.retrieved(rotated)) == [.requestChanged(rotated)])
        #expect(machine.state == .polling(rotated))
    }

    @Test func aPollFailureStopsPollingInAnErrorState() {
        var machine = CashAppPayMachine(state: .polling(Fixture.request()))
        let effects = machine.handle(.failed(Fixture.apiFailure("RATE_LIMIT_ERROR", "RATE_LIMITED", status: 429)))
        #expect(effects.first == .stopPolling)
        #expect(machine.state.name == "integrationError")
    }

    @Test func lateResultsAfterADecisionAreIgnored() {
        let approved = Fixture.approved()
        var machine = CashAppPayMachine(state: .approved(request: approved, grants: [Fixture.grant]))
        #expect(machine.handle(.retrieved(Fixture.request(status: .DECLINED))).isEmpty)
        #expect(machine.handle(.failed(.transport(.cancelled))).isEmpty)
        #expect(machine.handle(.create(Fixture.params)).isEmpty)
        #expect(machine.state.name == "approved")
    }

    @Test func resetStartsOverAndStopsPolling() {
        var machine = CashAppPayMachine(state: .polling(Fixture.request()))
        #expect(machine.handle(.reset) == [.stopPolling, .notify(.notStarted)])
        #expect(machine.handle(.reset).isEmpty)
        #expect(machine.handle(.create(Fixture.params)).count == 2)
    }

    @Test func aTimeoutEndsAStuckFlow() {
        var machine = CashAppPayMachine(state: .polling(Fixture.request()))
        let effects = machine.handle(.authorizationTimedOut(seconds: 300))
        #expect(effects.first == .stopPolling)
        #expect(machine.state == .unexpectedError(.authorizationTimeout(seconds: 300)))
        var idle = CashAppPayMachine()
        #expect(idle.handle(.authorizationTimedOut(seconds: 1)).isEmpty)
    }

    @Test func everyStateHasItsPayKitName() {
        #expect(CashAppPayState.allNames.count == 13)
        #expect(Set(CashAppPayState.allNames).count == 13)
    }
}
