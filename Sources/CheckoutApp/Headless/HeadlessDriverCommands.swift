import Foundation
import PaymentFlow
import ProviderClients
import Synchronization

/// `checkout run`'s interpreter of the driver's commands: it performs every one, and words
/// the notes as the lines the run prints on standard error.
final class HeadlessDriverCommands: Sendable {
    private let checkout: CheckoutRunner
    private let control: SandboxControlClient?
    private let desk: CustomerDesk
    private let stream: StateStream
    private let json: Bool
    private let writeError: @Sendable (String) -> Void
    /// The delays under way, cancelled when the run ends.
    private let waits = Mutex<[Task<Void, Never>]>([])
    /// Why the run was stopped before its end (the sandbox refused its control token), if it was.
    private let stopped = Mutex<String?>(nil)

    init(
        checkout: CheckoutRunner, control: SandboxControlClient?, desk: CustomerDesk, stream: StateStream, json: Bool,
        writeError: @escaping @Sendable (String) -> Void
    ) {
        self.checkout = checkout
        self.control = control
        self.desk = desk
        self.stream = stream
        self.json = json
        self.writeError = writeError
    }

    func perform(_ commands: [DriverCommand]) async {
        for command in commands {
            switch command {
            case .authorize:
                await checkout.authorize()
            case .retrieveAfterCustomerActs:
                await checkout.retrieveAfterCustomerActs()
            case .actAsCustomer(let decision, let id):
                // The driver acts only where the sandbox's simulated customer is.
                guard let control else { continue }
                let (checkout, writeError, stream) = (checkout, writeError, stream)
                Task {
                    do { try await control.act(decision, on: id, nudging: checkout) } catch {
                        guard (error as? SandboxControlFailure)?.isControlTokenRefusal == true else {
                            writeError("warning: the simulated customer could not \(decision.rawValue): \(error)")
                            return
                        }
                        // No decision can come: the run ends now rather than at its timeout.
                        writeError("error: the simulated customer could not \(decision.rawValue): \(error)")
                        self.stopped.withLock { $0 = "\(error)" }
                        stream.finish()
                    }
                }
            case .answerPrompt(let answer, let id):
                let desk = desk
                Task { await desk.answer(answer, to: id) }
            case .giveUp(let seconds):
                await checkout.authorizationTimedOut(seconds: seconds)
            case .wait(let timer, let seconds):
                let stream = stream
                let task = Task {
                    guard (try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))) != nil else { return }
                    stream.timerFired(timer)
                }
                waits.withLock { $0.append(task) }
            case .note(let note):
                say(note)
            case .endRun:
                stream.finish()
            }
        }
    }

    /// Why the run was stopped before its end, if it was (already said on standard error).
    var stoppedEarly: String? { stopped.withLock { $0 } }

    /// Ends the delays still under way (the run is over).
    func cancelWaits() {
        for task in waits.withLock({ $0 }) { task.cancel() }
    }

    private func say(_ note: DriverNote) {
        switch note {
        case .customerWillAct:
            break  // the run's lines say what the customer did, not what it will do
        case .customerAnswers(let id, let answer):
            if !json { writeError("customer: \(id): \(answer.words)") }
        case .customerDoesNotAnswer(let id, let title, let behaviour):
            writeError("note: waiting at the \(id) prompt (\(title)); the customer (\(behaviour)) does not answer")
        case .customerActsOnTheirDevice(let link):
            writeError("note: approve or decline on the customer's device (Cash App sandbox): \(link)")
        case .waitingForCustomer(let link):
            writeError("note: waiting for the customer; open \(link) in a browser to approve or decline")
        }
    }
}
