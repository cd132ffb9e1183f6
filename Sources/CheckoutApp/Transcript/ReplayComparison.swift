/// Where a re-run checkout first differs from its recording. Request ids, links and times
/// differ on every run, so steps are compared by state, phase and error code; `refreshing`
/// (and the polling that follows it) depends on timing, so it is left out of the comparison.
public struct ReplayDivergence: Hashable, Sendable, CustomStringConvertible {
    /// From 1.
    public let step: Int
    public let recorded: String?
    public let actual: String?

    public var description: String {
        "diverged at step \(step): recorded \(recorded.map { "`\($0)`" } ?? "nothing more"), now \(actual.map { "`\($0)`" } ?? "nothing more")"
    }

    /// nil when both tell the same story.
    public static func first(recorded: [RecordedEvent], actual: [RecordedEvent]) -> ReplayDivergence? {
        let expected = comparable(firstCheckout(recorded))
        let got = comparable(actual)
        for step in 0..<max(expected.count, got.count) {
            let left = step < expected.count ? expected[step] : nil
            let right = step < got.count ? got[step] : nil
            if left != right { return ReplayDivergence(step: step + 1, recorded: left, actual: right) }
        }
        return nil
    }

    /// How many steps of the recording a re-run is compared with.
    public static func steps(in recorded: [RecordedEvent]) -> Int {
        comparable(firstCheckout(recorded)).count
    }

    /// A screen session may hold several checkouts (r starts a new one); a re-run is the first.
    public static func firstCheckout(_ events: [RecordedEvent]) -> [RecordedEvent] {
        let starts = events.indices.filter { events[$0].state == "notStarted" }
        return starts.count > 1 ? Array(events[..<starts[1]]) : events
    }

    public static func comparable(_ events: [RecordedEvent]) -> [String] {
        var signatures: [String] = []
        // Notices (webhooks) arrive when they arrive: not part of the story compared.
        for event in events where event.state != "refreshing" && event.notice == nil {
            if signatures.last == event.signature, event.state == "polling" { continue }
            signatures.append(event.signature)
        }
        return signatures
    }
}
