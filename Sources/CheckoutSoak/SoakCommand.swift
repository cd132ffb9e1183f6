import ArgumentParser
import Foundation
import TestSupport

/// `make soak`: many checkouts across every provider against one shared sandbox, with random
/// faults on random calls, checking every end, the capture ledger and the sandbox's memory.
@main
struct SoakCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "checkout-soak",
        abstract: "Run many seeded checkouts with random faults against one sandbox and check every end and the ledger.",
        discussion: """
            Every provider `checkout providers --json` lists joins, with faults on its own endpoints. \
            The same --seed runs the same checkouts. On a failure it prints the seed, the checkout \
            and its transcript, and exits 1.
            """)

    @Option(help: "How many checkouts (1 to 100000).")
    var checkouts = 1000

    @Option(help: "The seed that decides every checkout; default: from the clock (printed).")
    var seed: UInt64?

    @Option(help: "How many checkouts run at once (1 to 64).")
    var concurrency = 8

    func validate() throws {
        guard (1...100_000).contains(checkouts) else { throw ValidationError("--checkouts must be 1 to 100000, got \(checkouts)") }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be 1 to 64, got \(concurrency)") }
    }

    func run() async throws {
        let seed = seed ?? UInt64(Date().timeIntervalSince1970 * 1000)
        let started = ContinuousClock.now
        let listing = try await CheckoutBinary.run(["providers", "--json"])
        let providers = try JSONDecoder().decode([String: [SoakProvider]].self, from: Data(listing.stdout.utf8))["providers"] ?? []
        let plan = SoakPlan.checkouts(count: checkouts, seed: seed, providers: providers)
        say("soak: seed \(seed), \(checkouts) checkouts across \(providers.map(\.id).joined(separator: ", ")), \(concurrency) at a time")

        let (sandbox, baseURL) = try await CheckoutBinary.start(["sandbox", "--port", "0"])
        defer { sandbox.signal(SIGTERM) }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("soak-\(seed)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

        var memory = SandboxMemory(pid: sandbox.pid)
        let results = try await runAll(plan, sandboxURL: baseURL, directory: directory) { done in
            if done == checkouts / 10 || done == checkouts { memory.sample(after: done) }
        }
        let ledger = try JSONDecoder().decode(SoakLedger.self, from: try await CheckoutBinary.fetch(baseURL + "/sandbox/ledger"))

        var failures: [(SoakResult?, String)] = results.flatMap { result in SoakVerdict.problems(result).map { (result, $0) } }
        failures += ledger.problems(with: results)
        if let problem = memory.problem { failures.append((nil, problem)) }
        let elapsed = ContinuousClock.now - started

        SoakReport.summarize(results: results, ledger: ledger, memory: memory, elapsed: elapsed, seed: seed)
        guard failures.isEmpty else {
            await SoakReport.printFailures(failures, seed: seed)
            throw ExitCode(1)
        }
        try? FileManager.default.removeItem(at: directory)
        say("soak: passed (seed \(seed))")
    }

    /// Runs the checkouts `concurrency` at a time, in plan order of starting.
    private func runAll(
        _ plan: [SoakCheckout], sandboxURL: String, directory: URL, progress: (Int) -> Void
    ) async throws -> [SoakResult] {
        try await withThrowingTaskGroup(of: SoakResult.self) { group in
            var pending = plan.makeIterator()
            for _ in 0..<concurrency {
                guard let next = pending.next() else { break }
                group.addTask { try await SoakRun.run(next, sandboxURL: sandboxURL, directory: directory) }
            }
            var results: [SoakResult] = []
            while let result = try await group.next() {
                results.append(result)
                progress(results.count)
                if results.count % 100 == 0 { say("soak: \(results.count)/\(plan.count) checkouts done") }
                if let next = pending.next() {
                    group.addTask { try await SoakRun.run(next, sandboxURL: sandboxURL, directory: directory) }
                }
            }
            return results.sorted { $0.checkout.index < $1.checkout.index }
        }
    }
}
