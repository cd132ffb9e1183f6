import Synchronization
import Testing

@testable import Sandbox

/// An instance of a shared sandbox reads the fault list at most once per lifetime, and an add is
/// answered only once every view read before it has expired.
@Suite struct SharedFaultViewTests {
    private final class Reads: Sendable {
        let count = Mutex(0)
        func read(_ faults: [String]) -> [String] {
            count.withLock { $0 += 1 }
            return faults
        }
    }

    @Test func aFreshViewIsUsedWithoutAskingAgain() async {
        let view = SharedFaultView<String>(lifetime: .seconds(600))
        let reads = Reads()
        #expect(await view.faults { reads.read(["a"]) } == ["a"])
        #expect(await view.faults { reads.read(["b"]) } == ["a"])
        #expect(reads.count.withLock { $0 } == 1)
    }

    @Test func anExpiredViewIsReadAgain() async {
        let view = SharedFaultView<String>(lifetime: .zero)
        let reads = Reads()
        _ = await view.faults { reads.read(["a"]) }
        #expect(await view.faults { reads.read(["b"]) } == ["b"])
        #expect(reads.count.withLock { $0 } == 2)
    }

    @Test func anAddForgetsTheOwnViewAndWaitsOutTheOthers() async {
        let view = SharedFaultView<String>(lifetime: .milliseconds(50))
        _ = await view.faults { ["old"] }
        let clock = ContinuousClock()
        let waited = await clock.measure { await view.settle() }
        #expect(waited >= .milliseconds(50))
        #expect(await view.faults { ["new"] } == ["new"])
    }
}
