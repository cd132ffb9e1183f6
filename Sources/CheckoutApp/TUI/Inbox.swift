import PaymentFlow
import ProviderWire
import Synchronization

/// Messages from tasks and other threads, waiting for the UI loop to take them.
final class Inbox: Sendable {
    private let pending = Mutex<[AppMessage]>([])

    func post(_ message: AppMessage) { pending.withLock { $0.append(message) } }

    func drain() -> [AppMessage] { pending.withLock { messages in defer { messages.removeAll() }; return messages } }
}

/// Forwards state-machine notifications to the UI loop.
final class InboxObserver: CashAppPayObserver {
    let inbox: Inbox
    let recorder: TranscriptRecorder?
    init(inbox: Inbox, recorder: TranscriptRecorder? = nil) {
        self.inbox = inbox
        self.recorder = recorder
    }
    func stateDidChange(to state: CashAppPayState) {
        recorder?.record(.state(state))
        inbox.post(.stateChanged(state))
    }
    func requestDidChange(_ request: CustomerRequest) { inbox.post(.requestChanged(request)) }
}
