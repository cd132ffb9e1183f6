import Foundation
import ProviderWire

/// The transcript's `_terminalCheckout` field: which checkout ran (as a scenario), every state
/// transition and phase with its time, and how it ended.
public struct TranscriptRecord: Codable, Sendable {
    /// 2 since states carry the provider-neutral attempt.
    public static let currentFormat = 2
    public var format = TranscriptRecord.currentFormat
    public var startedDateTime: Date
    /// The checkout as a scenario file's object: what `checkout run --replay` runs again.
    public var scenario: JSONValue
    public var events: [RecordedEvent]
    /// `checkout run`'s last line (`result: approved after …`), when a run recorded it.
    public var summary: String?
    public var finalState: String?
    public var finalPhase: String?
    /// The status `checkout run` exited with (an expectation's verdict when it had one).
    public var exitStatus: Int32?

    enum CodingKeys: String, CodingKey {
        case format, startedDateTime, scenario, events, summary
        case finalState = "final_state", finalPhase = "final_phase", exitStatus = "exit_status"
    }
}
