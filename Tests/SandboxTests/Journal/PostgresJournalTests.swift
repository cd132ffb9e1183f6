import CheckoutApp
import Foundation
import ProviderWire
import Sandbox
import Testing
import TestSupport

/// The journal of a sandbox on PostgreSQL is the sandbox's, not an instance's: two instances on
/// one database list each other's requests, with one numbering, and its bounds hold in SQL.
@Suite(.enabled(if: TestPostgres.isEnabled, TestPostgres.skipReason), .serialized)
struct PostgresJournalTests {
    /// Two sandboxes on one fresh database, both stopped when `body` ends.
    private func withTwoInstances(limits: SandboxLimits = SandboxLimits(), _ body: (_ a: RunningSandbox, _ b: RunningSandbox) async throws -> Void)
        async throws
    {
        let url = try await TestPostgres.freshDatabase()
        var settings = SandboxSettings()
        settings.limits = limits
        var first = settings
        try await first.useStore(.postgres(url: url, poolSize: 4))
        var second = settings
        try await second.useStore(.postgres(url: url, poolSize: 4))
        try await SandboxServer.withRunning(first) { a in
            try await SandboxServer.withRunning(second) { b in try await body(a, b) }
        }
    }

    @Test func aRequestServedByOneInstanceIsListedByTheOther() async throws {
        try await withTwoInstances { a, b in
            let id = try await JournalTests.create(a.baseURL, run: "run-shared")
            let throughB = try await JournalTests.journal(b.baseURL, "reference=\(id)")
            // A read flushes only its own instance's buffer: A's entry may take a moment to reach B.
            var entries = throughB.entries
            let deadline = ContinuousClock.now + .seconds(10)
            while entries.isEmpty, ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(50))
                entries = try await JournalTests.journal(b.baseURL, "reference=\(id)").entries
            }
            let entry = try #require(entries.first, "B does not list the create A served")
            #expect(entry.provider == "cashapp")
            #expect(entry.run == "run-shared")
            #expect(entry.status == 201)
            let throughA = try await JournalTests.journal(a.baseURL, "reference=\(id)")
            #expect(throughA.entries.first?.id == entry.id)
            #expect(throughA.entries.first?.instance == entry.instance)
            _ = try await CheckoutBinary.fetch(b.baseURL + "/sandbox/health")
            let both = try await JournalTests.journal(b.baseURL)
            #expect(Set(both.entries.map(\.instance)).count == 2, "the entries name the instance that served each")
        }
    }

    @Test func requestsThroughBothInstancesAreNumberedOnceInOrder() async throws {
        try await withTwoInstances { a, b in
            try await withThrowingTaskGroup(of: Void.self) { group in
                for index in 0..<40 {
                    let base = index.isMultiple(of: 2) ? a.baseURL : b.baseURL
                    group.addTask { _ = try await CheckoutBinary.fetch(base + "/sandbox/health") }
                }
                try await group.waitForAll()
            }
            // Each instance's own read flushes its own buffer.
            _ = try await JournalTests.journal(a.baseURL)
            let listed = try await JournalTests.journal(b.baseURL)
            #expect(listed.entries.map(\.id) == Array(1...40), "\(listed.entries.map(\.id))")
        }
    }

    @Test func theCountBoundHoldsInSQL() async throws {
        var limits = SandboxLimits()
        limits.maxJournalEntries = 3
        try await withTwoInstances(limits: limits) { a, b in
            for index in 0..<6 { _ = try await CheckoutBinary.fetch((index < 3 ? a : b).baseURL + "/sandbox/health") }
            _ = try await JournalTests.journal(a.baseURL)
            // A's batch and B's may race; the listing holds the bound even before the next trim.
            let ids = try await JournalTests.journal(b.baseURL).entries.map(\.id)
            #expect(ids == [4, 5, 6])
        }
    }
}
