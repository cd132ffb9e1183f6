import Foundation

/// A transcript as messages for the screen, each at its recorded offset: states and phases
/// when they happened, HTTP exchanges when their answer arrived.
struct ReplayTimeline: Sendable {
    struct Step: Sendable {
        let atMilliseconds: Int
        let message: AppMessage
    }

    let steps: [Step]
    let startedAt: Date

    init(steps: [Step], startedAt: Date) {
        self.steps = steps
        self.startedAt = startedAt
    }

    init(_ document: HAR.Document) {
        let started = document.log.terminalCheckout?.startedDateTime ?? document.log.entries.first?.startedDateTime ?? Date()
        startedAt = started
        var steps: [Step] = []
        for event in document.log.terminalCheckout?.events ?? [] {
            if let notice = event.sdkLogNotice {
                let at = started.addingTimeInterval(Double(event.atMilliseconds) / 1000)
                steps.append(Step(atMilliseconds: event.atMilliseconds, message: .notice(notice, at: at)))
                continue
            }
            switch event.flowEvent {
            case .state(let state)?: steps.append(Step(atMilliseconds: event.atMilliseconds, message: .stateChanged(state)))
            case .phase(let phase)?: steps.append(Step(atMilliseconds: event.atMilliseconds, message: .phaseChanged(phase)))
            case .notice?, nil: continue
            }
        }
        for entry in document.log.entries {
            let answered = Int((entry.startedDateTime.timeIntervalSince(started) * 1000).rounded()) + entry.time
            steps.append(Step(atMilliseconds: max(0, answered), message: .exchange(entry.exchange)))
        }
        // Stable: at equal times states keep their recorded order before the exchanges.
        self.steps = steps.enumerated().sorted { ($0.element.atMilliseconds, $0.offset) < ($1.element.atMilliseconds, $1.offset) }.map(\.element)
    }
}
