@testable import CheckoutApp
import Foundation
import PaymentFlow
import Testing

/// The driver on its own: events in, commands out, no session and no sleeping.
@Suite struct CheckoutDriverTests {
    private let start = Screens.start
    private let cashApp = ProviderDescriptor.cashApp.method
    private let square = ProviderDescriptor.square.method

    private func driver(_ mode: DriverMode, _ customer: CustomerBehaviour? = .approve, simulated: Bool = true, timeout: Int = 60) -> CheckoutDriver {
        CheckoutDriver(mode: mode, customer: customer, customerSimulated: simulated, authorizationTimeoutSeconds: timeout)
    }

    private func reader(loading: Bool = false) -> CustomerPrompt {
        CustomerPrompt(
            id: "reader", title: "Total $45.05", choices: [PromptChoice(id: "ok", label: "Visa", mark: loading ? .busy : nil)],
            actions: [PromptAction(key: "t", label: "tap", id: "tap")],
            scripted: ["approve": PromptAnswer(action: "tap", choice: "ok"), "approve-after": PromptAnswer(action: "tap", choice: "ok")])
    }

    private var tip: CustomerPrompt {
        CustomerPrompt(
            id: "tip", title: "Add a tip?", choices: [PromptChoice(id: "0", label: "No tip")], actions: [PromptAction(key: "Enter", label: "choose", id: "add")],
            scripted: ["approve": PromptAnswer(action: "add", choice: "0"), "approve-after": PromptAnswer(action: "add", choice: "0")])
    }

    @Test func nobodyAtTheKeyboardAuthorizesTheReadyRequest() {
        var headless = driver(.headless)
        var screen = driver(.screen)
        let ready = DriverEvent.stateChanged(.readyToAuthorize(Screens.request()), at: start)
        #expect(headless.handle(ready) == [.authorize])
        #expect(screen.handle(ready).isEmpty, "the person presses p")
    }

    @Test func theScenarioCustomerActsOncePerAttempt() {
        var driver = driver(.screen)
        let polling = DriverEvent.stateChanged(.polling(Screens.request()), at: start)
        #expect(driver.handle(polling) == [.note(.customerWillAct(.approve, afterSeconds: 0)), .actAsCustomer(.approve, attemptID: Screens.requestID)])
        _ = driver.handle(.stateChanged(.refreshing(Screens.request()), at: start))
        #expect(driver.handle(polling).isEmpty)
    }

    @Test func aDelayComesBackAsAnEvent() {
        var driver = driver(.headless, .approveAfter(seconds: 4))
        let timer = DriverTimer.customerActs(.approve, attemptID: Screens.requestID)
        #expect(driver.handle(.stateChanged(.polling(Screens.request()), at: start)) == [
            .note(.customerWillAct(.approve, afterSeconds: 4)), .wait(timer, seconds: 4),
        ])
        #expect(driver.handle(.timerFired(timer)) == [.actAsCustomer(.approve, attemptID: Screens.requestID)])
    }

    @Test func withoutASimulatedCustomerOrWithOneThatWaitsItSaysSo() {
        let polling = DriverEvent.stateChanged(.polling(Screens.request()), at: start)
        var real = driver(.headless, simulated: false)
        #expect(real.handle(polling) == [.note(.customerActsOnTheirDevice(link: Screens.link))])
        var waiting = driver(.headless, CustomerBehaviour.none)
        #expect(waiting.handle(polling) == [.note(.waitingForCustomer(link: Screens.link))])
        var unscripted = driver(.screen, nil)
        #expect(unscripted.handle(polling).isEmpty, "no scenario: the person acts")
    }

    @Test func aPromptIsAnsweredOnceItNoLongerWaitsOnTheProvider() {
        var driver = driver(.headless)
        let answer = PromptAnswer(action: "tap", choice: "ok")
        #expect(driver.handle(.promptChanged(reader(loading: true))).isEmpty, "still loading")
        #expect(driver.handle(.promptChanged(reader())) == [.note(.customerAnswers(promptID: "reader", answer)), .answerPrompt(answer, promptID: "reader")])
        #expect(driver.handle(.promptChanged(reader())).isEmpty, "answered once")
        #expect(driver.handle(.promptChanged(nil)).isEmpty)
        #expect(driver.handle(.promptChanged(reader())).count == 2, "a new appearance is answered again")
    }

    @Test func aPersonWatchingSeesThePromptForASecond() {
        var driver = driver(.screen)
        let answer = PromptAnswer(action: "tap", choice: "ok")
        let timer = DriverTimer.customerAnswers(answer, promptID: "reader")
        #expect(driver.handle(.promptChanged(reader())) == [.note(.customerAnswers(promptID: "reader", answer)), .wait(timer, seconds: 1)])
        #expect(driver.handle(.timerFired(timer)) == [.answerPrompt(answer, promptID: "reader")])
    }

    @Test func theProviderSaysWhichPromptsTheBehavioursDelaySkips() {
        var driver = driver(.headless, .approveAfter(seconds: 3))
        _ = driver.handle(.paying(square))
        #expect(driver.handle(.promptChanged(tip)).last == .answerPrompt(PromptAnswer(action: "add", choice: "0"), promptID: "tip"))
        #expect(driver.handle(.promptChanged(reader())).last == .wait(.customerAnswers(PromptAnswer(action: "tap", choice: "ok"), promptID: "reader"), seconds: 3))
    }

    @Test func aPromptTheBehaviourDoesNotAnswerIsNoted() {
        var driver = driver(.headless, .decline)
        #expect(driver.handle(.promptChanged(tip)) == [.note(.customerDoesNotAnswer(promptID: "tip", title: "Add a tip?", behaviour: "decline"))])
    }

    @Test func providerStepsEndWithTheRequestOrTheDecision() {
        var driver = driver(.headless)
        _ = driver.handle(.paying(square))
        _ = driver.handle(.phaseChanged(.step("reader")))
        _ = driver.handle(.stateChanged(.notStarted, at: start))
        #expect(driver.phase == .step("reader"))
        _ = driver.handle(.stateChanged(.creatingRequest(Screens.request()), at: start))
        #expect(driver.phase == nil)
        _ = driver.handle(.phaseChanged(.step("processing")))
        _ = driver.handle(.stateChanged(.approved(Screens.request(status: .APPROVED, approved: true)), at: start))
        #expect(driver.phase == nil)
        #expect(!driver.ended, "Square settles: approved is not the end")
    }

    @Test func theScreenGivesUpOnceWhenPollingOutlastsTheTimeout() {
        var driver = driver(.screen, nil)
        _ = driver.handle(.stateChanged(.polling(Screens.request()), at: start))
        #expect(driver.handle(.timePassed(start.addingTimeInterval(59))).isEmpty)
        #expect(driver.handle(.timePassed(start.addingTimeInterval(60.1))) == [.giveUp(afterSeconds: 60)])
        #expect(driver.handle(.timePassed(start.addingTimeInterval(61))).isEmpty)
    }

    @Test func aRunGivesUpAtItsDeadlineThenEnds() {
        var driver = driver(.headless, .approveAfter(seconds: 2))
        #expect(driver.handle(.paying(cashApp)) == [.wait(.runDeadline, seconds: 60)])
        #expect(driver.handle(.timePassed(start.addingTimeInterval(600))).isEmpty, "a run's clock is its own delay")
        #expect(driver.handle(.timerFired(.runDeadline)) == [.giveUp(afterSeconds: 60), .wait(.afterGivingUp, seconds: 1)])
        #expect(driver.handle(.timerFired(.afterGivingUp)) == [.endRun])
    }

    @Test func onlyASimulatedCustomerWhoActsAtOnceIsWaitedForBeforeTheFirstRetrieval() {
        for customer: CustomerBehaviour in [.approve, .decline, .abandon] {
            var screen = driver(.screen, customer)
            #expect(screen.handle(.paying(cashApp)) == [.retrieveAfterCustomerActs], "\(customer.spelling)")
            var run = driver(.headless, customer)
            #expect(run.handle(.paying(cashApp)) == [.retrieveAfterCustomerActs, .wait(.runDeadline, seconds: 60)], "\(customer.spelling)")
        }
        for customer: CustomerBehaviour? in [nil, CustomerBehaviour.none, .approveAfter(seconds: 2)] {
            var screen = driver(.screen, customer)
            #expect(screen.handle(.paying(cashApp)).isEmpty, "\(customer?.spelling ?? "nobody")")
        }
        var onTheirDevice = driver(.screen, .approve, simulated: false)
        #expect(onTheirDevice.handle(.paying(cashApp)).isEmpty, "a real customer acts on their own device, in their own time")
    }

    @Test func aCheckoutEndsAsItsProviderSettles() {
        var driver = driver(.headless)
        _ = driver.handle(.paying(cashApp))
        _ = driver.handle(.stateChanged(.approved(Screens.request(status: .APPROVED, approved: true)), at: start))
        #expect(driver.ended)
    }
}
