import PaymentFlow
import Synchronization
import TerminalUI

/// Messages from tasks and other threads, waiting for the UI loop to take them.
final class Inbox: Sendable {
    private struct Pending {
        var messages: [AppMessage] = []
        /// Ends the loop's wait for input, so a message is shown at once.
        var waker: TerminalWaker?
    }

    private let pending = Mutex(Pending())

    func post(_ message: AppMessage) {
        pending.withLock { pending in
            pending.messages.append(message)
            pending.waker?.wake()
        }
    }

    func drain() -> [AppMessage] { pending.withLock { pending in defer { pending.messages.removeAll() }; return pending.messages } }

    /// Who to wake on each message (nil: nobody, before the terminal goes).
    func wakes(_ waker: TerminalWaker?) { pending.withLock { $0.waker = waker } }
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
