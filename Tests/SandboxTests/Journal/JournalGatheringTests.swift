import Foundation
import Hummingbird
@testable import Sandbox
import Testing

/// The journal's writer pauses while requests gather into one batch. Nobody waits that pause
/// out: a reader asking for the journal, and the sandbox stopping, both cut it short. The pause
/// here is an hour, so a test that waited it out would fail at its 30 s limit instead.
@Suite struct JournalGatheringTests {
    static let hour = Duration.seconds(3600)

    static func capture(_ target: String) -> JournalCapture {
        JournalCapture(
            time: Date(), duration: .milliseconds(1), method: "GET", target: target, requestHeaders: HTTPFields(), requestBody: nil,
            requestBodyBytes: 0, status: 200, responseHeaders: HTTPFields(), responseBody: [], responseBodyBytes: 0, endpoint: nil,
            claimant: nil, fault: nil)
    }

    /// True when `work` ends within `seconds` (left running when it does not: a task group
    /// would wait for it).
    static func ends(within seconds: Double, _ work: @escaping @Sendable () async -> Void) async -> Bool {
        let (outcomes, outcome) = AsyncStream.makeStream(of: Bool.self)
        Task {
            await work()
            outcome.yield(true)
        }
        let timer = Task {
            try? await Task.sleep(for: .seconds(seconds))
            outcome.yield(false)
        }
        defer { timer.cancel() }
        for await ended in outcomes { return ended }
        return false
    }

    /// Waits (up to 30 s) until the writer is in its pause.
    static func untilGathering(_ journal: SandboxJournal) async throws {
        let deadline = ContinuousClock.now + .seconds(30)
        while !journal.isGathering {
            try #require(ContinuousClock.now < deadline, "the writer never paused to gather")
            await Task.yield()
        }
    }

    @Test func aReaderDoesNotWaitOutTheGatheringPause() async throws {
        let journal = SandboxJournal(settings: SandboxSettings(), providers: [], gathering: Self.hour)
        let writer = Task { try await journal.run() }
        defer { writer.cancel() }
        journal.record(Self.capture("/sandbox/health"))
        try await Self.untilGathering(journal)
        let read = await Self.ends(within: 30) { await journal.flush() }
        try #require(read, "a flush waited out the writer's gathering pause")
        let page = try await journal.page(JournalFilter())
        #expect(page.entries.map(\.path) == ["/sandbox/health"])
    }

    @Test func stoppingDoesNotWaitOutTheGatheringPauseAndKeepsWhatWasBuffered() async throws {
        let journal = SandboxJournal(settings: SandboxSettings(), providers: [], gathering: Self.hour)
        let writer = Task { try await journal.run() }
        journal.record(Self.capture("/sandbox/health"))
        journal.record(Self.capture("/customer-request/v1/requests"))
        try await Self.untilGathering(journal)
        writer.cancel()
        let stopped = await Self.ends(within: 30) { _ = try? await writer.value }
        try #require(stopped, "the journal's end waited out the writer's gathering pause")
        let page = try await journal.page(JournalFilter())
        #expect(page.entries.map(\.path) == ["/sandbox/health", "/customer-request/v1/requests"])
    }
}
