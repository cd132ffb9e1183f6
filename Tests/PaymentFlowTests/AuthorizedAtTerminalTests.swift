import Foundation
import PaymentFlow
import Testing

/// A provider whose customer authorizes at the terminal (the wallet sheet): a created attempt
/// opens the sheet at once in `readyToAuthorize`, the cart waits, and the sheet decides.
@Suite struct AuthorizedAtTerminalTests {
    private let sheet = ProviderPlan(id: "wallet", settles: true, authorizesAtTerminal: true)

    private func opened() -> (CheckoutMachine, PaymentAttempt) {
        var machine = Fixture.machine(.creatingRequest(Fixture.attempt(provider: "wallet")), provider: sheet)
        let created = Fixture.attempt(id: "wallet_1", url: nil, provider: "wallet")
        let effects = machine.handle(Fixture.result(.created(created)))
        #expect(machine.state == .readyToAuthorize(created))
        #expect(effects.contains(.authorizeAtTerminal(created, order: Fixture.order())))
        return (machine, created)
    }

    @Test func aCreatedAttemptOpensTheSheetAndAuthorizeWaitsForIt() {
        var (machine, _) = opened()
        #expect(machine.handle(.authorize(now: Fixture.now)).isEmpty)
        #expect(machine.handle(.changeOrder(Fixture.order(cents: 999))).isEmpty)
        #expect(machine.state.name == "readyToAuthorize")
    }

    @Test func anApprovedSheetSettles() {
        var (machine, _) = opened()
        let paid = Fixture.attempt(id: "PSP1", status: .approved, url: nil, grants: ["PSP1"], provider: "wallet")
        let effects = machine.handle(Fixture.result(.authorizedAtTerminal(paid)))
        #expect(machine.state == .approved(paid))
        #expect(effects.contains(.settle(paid)))
    }

    @Test func aDeclinedSheetIsDeclinedAndAFailureFails() {
        var (machine, _) = opened()
        var refused = Fixture.attempt(id: "PSP2", status: .declined, url: nil, provider: "wallet")
        refused.declineReason = "Refused"
        _ = machine.handle(Fixture.result(.authorizedAtTerminal(refused)))
        #expect(machine.state == .declined(refused))

        var (failing, _) = opened()
        _ = failing.handle(Fixture.result(.failed(.authorizationTimeout(seconds: 1))))
        #expect(failing.state.name == "unexpectedError")
    }

    @Test func theProcessingStepShowsWhileTheSheetIsOpen() {
        var (machine, _) = opened()
        #expect(machine.handle(Fixture.result(.step("processing"))) == [.phaseChanged(.step("processing"))])
    }

    @Test func otherProvidersStillWaitForAuthorize() {
        var machine = Fixture.machine(.creatingRequest(Fixture.attempt()))
        let effects = machine.handle(Fixture.result(.created(Fixture.attempt())))
        #expect(!effects.contains { if case .authorizeAtTerminal = $0 { true } else { false } })
    }
}
