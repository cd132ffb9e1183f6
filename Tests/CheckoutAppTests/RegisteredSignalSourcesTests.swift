import CheckoutApp
import Foundation
import Synchronization
import Testing

/// A signal sent the moment a command says it is ready (a sandbox printing its address) is heard:
/// the sources are registered before `install` returns, not some time after.
@Suite struct RegisteredSignalSourcesTests {
    @Test func aSignalSentAsSoonAsInstallReturnsIsHeard() async throws {
        let heard = HeardSignal()
        // SIGUSR2: no other test sends it, and dispatch keeps its handler for it afterwards.
        let sources = await RegisteredSignalSources.install([SIGUSR2]) { heard.record($0) }
        defer { for source in sources { source.cancel() } }
        kill(getpid(), SIGUSR2)
        let deadline = ContinuousClock.now + .seconds(10)
        while heard.signal == 0, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(heard.signal == SIGUSR2)
    }
}

private final class HeardSignal: Sendable {
    private let number = Atomic<Int32>(0)
    var signal: Int32 { number.load(ordering: .acquiring) }
    func record(_ signal: Int32) { number.store(signal, ordering: .releasing) }
}
