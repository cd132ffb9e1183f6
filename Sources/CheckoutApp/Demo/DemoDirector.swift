import Foundation
import TerminalUI

/// Plays a demo script on the live screen, loop after loop: the checkout is real (embedded
/// sandbox), only the keys are scripted. Any key pauses and resumes; q ends the demo.
struct DemoDirector: ScreenDirector {
    let script: DemoScript
    private var index = 0
    private var stepStarted: Date?
    private var pausedAt: Date?
    private(set) var loopsCompleted = 0

    init(script: DemoScript) {
        self.script = script
    }

    mutating func due(now: Date, state: inout AppState) -> [AppMessage] {
        defer { state.director = status }
        guard pausedAt == nil else {
            state.layout.notice = Notice(text: Self.pausedNotice, kind: .info, shownAt: state.now)
            return []
        }
        var messages: [AppMessage] = []
        // Several instant steps may run in one turn; timed ones hold the script.
        while true {
            let step = script.steps[index]
            let started = stepStarted ?? now
            stepStarted = started
            switch step {
            case .say(let text):
                state.layout.notice = Notice(text: text, kind: .info, shownAt: state.now)
            case .press(let key):
                messages.append(.key(key))
            case .pause(let seconds):
                guard now.timeIntervalSince(started) >= seconds else { return messages }
            case .waitUntil(let condition, let seconds):
                // Keys sent this turn have not been handled yet: look again next turn.
                guard messages.isEmpty else { return messages }
                guard condition.holds(in: state) || now.timeIntervalSince(started) >= seconds else { return messages }
            case .startCart where state.checkout.idle:
                // Each loop is a checkout of its own, its HTTP log too: a demo left running all day
                // keeps one loop's exchanges (about 13), not every loop's (a few KB each, to 100,000).
                state.exchanges.removeAll()
                state.layout.logCursor = nil
                state.cart = script.startingCart
                state.layout.cartCursor = 0
                state.layout.shippingCursor = state.cart.shippingMethods.firstIndex { $0.id == state.cart.selectedShippingID } ?? 0
                state.selectedPaymentIndex = 0
                state.layout.paymentCursor = 0
                state.layout.focus = .cart
            case .startCart:
                break
            case .loopDone:
                loopsCompleted += 1
            }
            index = (index + 1) % script.steps.count
            stepStarted = nil
        }
    }

    mutating func intercept(_ key: Key, state: inout AppState) -> Key? {
        switch key {
        case .character("q"), .control("c"):
            state.quitRequested = true
        default:
            if let pausedAt {
                // Resume where the script was: a pause keeps its remaining time.
                if let started = stepStarted { stepStarted = started.addingTimeInterval(Date().timeIntervalSince(pausedAt)) }
                self.pausedAt = nil
                state.layout.notice = nil
            } else {
                pausedAt = Date()
                state.layout.notice = Notice(text: Self.pausedNotice, kind: .info, shownAt: state.now)
            }
        }
        state.director = status
        return nil
    }

    static let pausedNotice = "Demo paused for questions: any key resumes, q ends the demo."

    private var status: DirectorStatus {
        let label = pausedAt == nil ? "▶ demo · loop \(loopsCompleted + 1)" : "⏸ demo paused · loop \(loopsCompleted + 1)"
        return DirectorStatus(label: label, hints: [.init(key: "any key", action: pausedAt == nil ? "pause" : "resume"), .init(key: "q", action: "end demo")])
    }
}
