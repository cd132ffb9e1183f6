import Foundation
import ProviderClients
import Sandbox
import Testing
import TestSupport

/// Idle, slow and surplus connections cannot starve the sandbox: each is closed on a short,
/// configured timeout or at once, and `/sandbox/health` keeps answering.
@Suite struct ConnectionBoundsTests {
    private static func limits(idle: Double = 60, read: Double = 10, connections: Int = 256) -> SandboxLimits {
        var limits = SandboxLimits()
        limits.idleTimeout = idle
        limits.requestReadTimeout = read
        limits.maxConnections = connections
        return limits
    }

    /// Generous: each wait ends as soon as its condition holds, and in CI the whole suite beside
    /// this one once held the sandbox's handlers back for over 10 s on two cores.
    private static let patience = 30.0

    private func healthy(_ harness: SandboxHarness) async throws -> Bool {
        let connection = try RawConnection(port: harness.sandbox.port)
        connection.send("GET /sandbox/health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        let answered = await connection.readResponse(timeout: Self.patience)?.status == 200
        // Its place is given back once the server has closed it.
        return await connection.waitForClose(timeout: Self.patience) && answered
    }

    /// Waits until the server counts `count` open connections: a closed one is given back just
    /// after the client sees it close.
    private func waitForOpenConnections(_ harness: SandboxHarness, _ count: Int) async throws -> Bool {
        let deadline = ContinuousClock.now + .seconds(Self.patience)
        while harness.sandbox.openConnections != count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        return harness.sandbox.openConnections == count
    }

    // The timeouts leave room for a loaded CI machine: a 0.2 s idle timeout once closed the kept
    // connection before its request was read.
    @Test func anIdleConnectionIsClosedAfterTheIdleTimeout() async throws {
        try await SandboxHarness.with(limits: Self.limits(idle: 1)) { harness in
            let silent = try RawConnection(port: harness.sandbox.port)
            let kept = try RawConnection(port: harness.sandbox.port)
            kept.send("GET /sandbox/health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await kept.readResponse()?.status == 200)
            #expect(await silent.waitForClose(timeout: Self.patience))
            #expect(await kept.waitForClose(timeout: Self.patience))
            #expect(try await healthy(harness))
        }
    }

    @Test func aHalfSentHeaderIsCutOffAtTheRequestDeadline() async throws {
        try await SandboxHarness.with(limits: Self.limits(read: 0.2)) { harness in
            let slow = try RawConnection(port: harness.sandbox.port)
            slow.send("GET /sandbox/health HTTP/1.1\r\nHost: x\r\n")
            #expect(await slow.waitForClose(timeout: Self.patience))
            #expect(try await healthy(harness))
        }
    }

    @Test func aTrickledBodyIsCutOffAtTheRequestDeadline() async throws {
        try await SandboxHarness.with(limits: Self.limits(read: 0.3)) { harness in
            let slow = try RawConnection(port: harness.sandbox.port)
            // A body that would take 50 s at this pace, so only the deadline can end it sooner.
            slow.send("POST /sandbox/faults HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{")
            let started = ContinuousClock.now
            // Each byte comes well within the idle timeout; only the whole-request deadline ends it.
            while slow.send(" "), ContinuousClock.now - started < .seconds(Self.patience) {
                if await slow.waitForClose(timeout: 0.05) { break }
            }
            #expect(await slow.waitForClose(timeout: Self.patience))
            #expect(ContinuousClock.now - started < .seconds(Self.patience))
            #expect(try await healthy(harness))
        }
    }

    @Test func aKeptConnectionsNextRequestHasADeadlineOfItsOwn() async throws {
        try await SandboxHarness.with(limits: Self.limits(read: 0.3)) { harness in
            let connection = try RawConnection(port: harness.sandbox.port)
            connection.send("GET /sandbox/health HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await connection.readResponse()?.status == 200)
            connection.send("GET /sandbox/health HTTP/1.1\r\nHost: x\r\n")
            #expect(await connection.waitForClose(timeout: Self.patience))
            #expect(try await healthy(harness))
        }
    }

    @Test func aKeptConnectionAskingQuicklyOutlivesManyDeadlines() async throws {
        try await SandboxHarness.with(limits: Self.limits(read: 0.2)) { harness in
            let connection = try RawConnection(port: harness.sandbox.port)
            let started = ContinuousClock.now
            var answered = 0
            // Each request is whole at once: no deadline may be held over from the one before.
            while ContinuousClock.now - started < .seconds(1) {
                connection.send("GET /sandbox/health HTTP/1.1\r\nHost: x\r\n\r\n")
                guard await connection.readResponse(timeout: Self.patience)?.status == 200 else { break }
                answered += 1
            }
            #expect(ContinuousClock.now - started >= .seconds(1))
            #expect(answered > 1)
            #expect(!(await connection.waitForClose(timeout: 0.05)))
        }
    }

    @Test func aRequestWithinTheDeadlineIsAnswered() async throws {
        try await SandboxHarness.with(faultDelaySeconds: 2, limits: Self.limits(read: 1)) { harness in
            let connection = try RawConnection(port: harness.sandbox.port)
            // A slow handler (the slow fault) is not held against the client's deadline.
            try await harness.inject("GET /v2/ slow")
            connection.send("GET /v2/nowhere HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(await connection.readResponse()?.status == 404)
        }
    }

    @Test func connectionsOverTheCapAreClosedAtOnceAndTheOthersStillWork() async throws {
        try await SandboxHarness.with(limits: Self.limits(connections: 4)) { harness in
            let held = try (0..<3).map { _ in try RawConnection(port: harness.sandbox.port) }
            // Under the cap: health answers on the fourth.
            #expect(try await healthy(harness))
            #expect(try await waitForOpenConnections(harness, 3))
            let fourth = try RawConnection(port: harness.sandbox.port)
            // Accepted connections start on several event loops: let the fourth take its place first.
            #expect(try await waitForOpenConnections(harness, 4))
            let surplus = try (0..<20).map { _ in try RawConnection(port: harness.sandbox.port) }
            for connection in surplus { #expect(await connection.waitForClose(timeout: Self.patience)) }
            for connection in held + [fourth] {
                connection.send("GET /sandbox/health HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(await connection.readResponse()?.status == 200)
                #expect(!connection.closedByPeer)
            }
        }
    }

    @Test func aClosedConnectionGivesItsPlaceBack() async throws {
        try await SandboxHarness.with(limits: Self.limits(connections: 1)) { harness in
            for round in 1...5 {
                let answered = try await healthy(harness)
                #expect(answered, "round \(round): health was not answered on the only place")
                let givenBack = try await waitForOpenConnections(harness, 0)
                #expect(givenBack, "round \(round): \(harness.sandbox.openConnections) still open")
            }
        }
    }
}
