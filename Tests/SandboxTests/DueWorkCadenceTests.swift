import Testing

@testable import Sandbox

/// The due-time worker's pace on a database: every tick while requests come, once a second after
/// five quiet seconds, and every tick again from the first request.
@Suite struct DueWorkCadenceTests {
    @Test func roundsThinOutWhileQuietAndResumeOnTheFirstRequest() {
        let cadence = DueWorkCadence(idleAfter: .seconds(5), idleInterval: .seconds(1))
        let start = ContinuousClock.now
        func at(_ milliseconds: Int) -> ContinuousClock.Instant { start + .milliseconds(milliseconds) }
        cadence.served(at: start)
        // Awake: every 100 ms tick runs a round.
        #expect((0..<10).allSatisfy { cadence.roundDue(at: at(4_000 + $0 * 100)) })
        // Quiet for 5 s: one round a second.
        let idleTicks = (0..<30).map { cadence.roundDue(at: at(6_000 + $0 * 100)) }
        #expect(idleTicks.filter { $0 }.count == 3, "\(idleTicks)")
        // A request: the next tick runs a round, and every tick after it.
        cadence.served(at: at(9_050))
        #expect(cadence.roundDue(at: at(9_100)) && cadence.roundDue(at: at(9_200)) && cadence.roundDue(at: at(9_300)))
    }

    @Test func aFreshSandboxStartsAwake() {
        let cadence = DueWorkCadence()
        #expect(cadence.roundDue() && cadence.roundDue())
    }
}
