import Foundation
import PaymentFlow

/// The screen's interpreter of the driver's commands: what the session performs becomes its
/// command; a note becomes the notice under the banner, or nothing where the person at the
/// keyboard is the one to act.
enum ScreenDriverCommands {
    static func perform(_ commands: [DriverCommand], on state: inout AppState) -> [AppCommand] {
        var performed: [AppCommand] = []
        for command in commands {
            switch command {
            case .authorize: performed.append(.session(.authorize))
            case .retrieveAfterCustomerActs: performed.append(.session(.retrieveAfterCustomerActs))
            case .actAsCustomer(let decision, let id): performed.append(.session(.actAsCustomer(decision, attemptID: id)))
            case .answerPrompt(let answer, let id): performed.append(.session(.answerPrompt(answer, promptID: id)))
            case .giveUp(let seconds): performed.append(.session(.giveUp(afterSeconds: seconds)))
            case .wait(let timer, let seconds): performed.append(.session(.wait(timer, seconds: seconds)))
            case .note(let note): show(note, on: &state)
            case .endRun: break  // only a run has a deadline (DriverMode.screen's clock runs while polling); the person quits
            }
        }
        return performed
    }

    private static func show(_ note: DriverNote, on state: inout AppState) {
        switch note {
        case .customerWillAct(let decision, let delay):
            if state.recording.firstCustomerDecision == nil {
                state.recording.firstCustomerDecision = CustomerDecisionRecord(decision: decision, afterSeconds: delay)
            }
            state.inform("Scenario: the customer will \(decision.rawValue)\(delay > 0 ? " in \(delay.plainText) s" : "").")
        case .customerAnswers(let id, let answer):
            state.inform("Scenario: the customer answers the \(id) prompt: \(answer.words).")
        case .customerDoesNotAnswer, .customerActsOnTheirDevice, .waitingForCustomer:
            break  // the person at the keyboard answers or acts (a, x); the banner already says what waits
        }
    }
}

extension AppState {
    /// Feeds the driver `event` and performs what it asks.
    mutating func drive(_ event: DriverEvent) -> [AppCommand] {
        ScreenDriverCommands.perform(driver.handle(event), on: &self)
    }
}
