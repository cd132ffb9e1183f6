import Foundation
import ProviderWire
import Synchronization

/// Collects a session's state transitions and phases as they happen, timed from the
/// session's start, for the transcript and for `run --replay`'s comparison.
final class TranscriptRecorder: Sendable {
    let startedAt: Date
    private let start: ContinuousClock.Instant
    private let recorded = Mutex<[RecordedEvent]>([])

    init(startedAt: Date = Date()) {
        self.startedAt = startedAt
        start = ContinuousClock.now
    }

    var elapsedMilliseconds: Int {
        let elapsed = ContinuousClock.now - start
        return Int(elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000)
    }

    var events: [RecordedEvent] { recorded.withLock { $0 } }

    /// Records `event` now and returns the record (with the lines `checkout run` prints).
    @discardableResult
    func record(_ event: FlowEvent) -> RecordedEvent {
        let entry = RecordedEvent(event, atMilliseconds: elapsedMilliseconds)
        recorded.withLock { $0.append(entry) }
        return entry
    }

    func record(
        scenario: Scenario, summary: String? = nil, finalState: String?, finalPhase: String?, exitStatus: Int32? = nil
    ) -> TranscriptRecord {
        TranscriptRecord(
            startedDateTime: startedAt, scenario: (try? JSONValue(serialized: scenario.jsonObject)) ?? .null,
            events: events, summary: summary, finalState: finalState, finalPhase: finalPhase, exitStatus: exitStatus)
    }
}
