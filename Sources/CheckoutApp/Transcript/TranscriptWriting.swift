import PaymentFlow
import ProviderClients

extension TranscriptRecorder {
    /// Writes the session's transcript to `path` and says so (the screen on quitting, `checkout
    /// run` at its end or on a signal); false, the error said, when it cannot be written.
    func write(
        to path: String, scenario: Scenario, title: String, summary: String? = nil, final: CheckoutState, phase: CheckoutPhase?,
        status: ExitStatus, exchanges: [HTTPExchange], say: (String) -> Void
    ) -> Bool {
        let record = record(scenario: scenario, summary: summary, finalState: final.name, finalPhase: phase?.name, exitStatus: status.rawValue)
        do {
            try Transcript.write(Transcript.document(record: record, exchanges: exchanges, title: title), to: path)
            say("transcript: wrote \(path) (\(exchanges.count) HTTP exchanges, \(record.events.count) states and phases)")
            return true
        } catch {
            say("error: \(error)")
            return false
        }
    }
}
