import PaymentFlow
import Synchronization

/// Messages from tasks and other threads, waiting for the UI loop to take them.
final class Inbox: Sendable {
    private let pending = Mutex<[AppMessage]>([])

    func post(_ message: AppMessage) { pending.withLock { $0.append(message) } }

    func drain() -> [AppMessage] { pending.withLock { messages in defer { messages.removeAll() }; return messages } }
}

/// Forwards the coordinator's notifications to the UI loop (and the transcript).
final class InboxObserver: CheckoutObserver {
    let inbox: Inbox
    let recorder: TranscriptRecorder?
    init(inbox: Inbox, recorder: TranscriptRecorder? = nil) {
        self.inbox = inbox
        self.recorder = recorder
    }
    func stateDidChange(to state: CheckoutState) {
        recorder?.record(.state(state))
        inbox.post(.stateChanged(state))
    }
    func phaseDidChange(to phase: CheckoutPhase) {
        recorder?.record(.phase(phase))
        inbox.post(.phaseChanged(phase))
    }
    func attemptDidChange(_ attempt: PaymentAttempt) { inbox.post(.attemptChanged(attempt)) }
}
