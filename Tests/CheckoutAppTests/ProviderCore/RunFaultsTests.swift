@testable import CheckoutApp
import Foundation
import Sandbox
import Synchronization
import Testing
import TestSupport

/// Defect: a run's faults outlived it in a shared sandbox. Faults a checkout names belong to
/// it and what is left of them is removed when it ends; the sandbox's own stay.
@Suite struct RunFaultsTests {
    private func run(_ options: HeadlessOptions) async -> CheckoutApp.ExitStatus {
        await HeadlessCheckout(options: options, write: { _ in }, writeError: { _ in }).run()
    }

    @Test func aRunsLeftoverFaultsAreRemovedFromASharedSandbox() async throws {
        try await SandboxHarness.with { harness in
            try await harness.inject("POST /sandbox/never 500*3")  // a standing fault, owned by the sandbox
            var session = SessionOptions(sandboxURL: harness.baseURL, retryBaseDelay: .milliseconds(5))
            session.faults = [try FaultRule(spec: "GET /customer-request 503*50")]
            let failed = await run(HeadlessOptions(session: session, timeoutSeconds: 20))
            #expect(failed == .failed)
            #expect(try await harness.sandbox.faults.pendingWithOwners.map(\.owner) == ["sandbox"])
            // The next plain run by anyone else goes through.
            let next = await run(HeadlessOptions(session: SessionOptions(sandboxURL: harness.baseURL), timeoutSeconds: 20))
            #expect(next == .approved)
        }
    }

    @Test func whileItRunsTheSandboxSaysWhoseTheFaultsAre() async throws {
        try await SandboxHarness.with { harness in
            var session = SessionOptions(sandboxURL: harness.baseURL)
            session.faults = [try FaultRule(spec: "POST /sandbox/never 500")]
            var scenario = Scenario(name: "waiting")
            scenario.customer = .none
            let owners = Mutex<[String]>([])
            // No customer ever answers: the run waits until it is stopped (a starved machine may
            // take seconds to start it, so no short timeout races the look).
            let run = Task { await self.run(HeadlessOptions(session: session, scenario: scenario, timeoutSeconds: 120)) }
            let deadline = ContinuousClock.now + .seconds(60)
            while owners.withLock({ $0.isEmpty }), ContinuousClock.now < deadline {
                let pending = try await harness.sandbox.faults.pendingWithOwners.map(\.owner)
                owners.withLock { $0 = pending }
                try await Task.sleep(for: .milliseconds(5))
            }
            let seen = owners.withLock { $0 }
            #expect(seen.count == 1 && seen[0].hasPrefix("run-"), "\(seen)")
            run.cancel()
            _ = await run.value
            #expect(try await harness.sandbox.faults.pendingWithOwners.isEmpty)
        }
    }
}
