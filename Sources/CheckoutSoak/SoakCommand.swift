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
            and its transcript, and exits 1. With --store and --instances N, the sandbox is N \
            processes on one PostgreSQL database, each checkout's calls alternating between them.
            """)

    @Option(help: "How many checkouts (1 to 100000).")
    var checkouts = 1000

    @Option(help: "The seed that decides every checkout; default: from the clock (printed).")
    var seed: UInt64?

    @Option(help: "How many checkouts run at once (1 to 64).")
    var concurrency = 8

    @Option(name: .customLong("store"), help: ArgumentHelp(
        "Run the sandboxes on this PostgreSQL database, which must hold no charges yet: postgres://USER:PASSWORD@HOST:PORT/DB "
            + "(never printed with its password). In memory when left out.",
        valueName: "url"))
    var store: String?

    @Option(help: ArgumentHelp(
        "How many `checkout sandbox --store` processes serve the checkouts (1 to 8); more than one needs --store. A balancer "
            + "in front sends each checkout's calls to them in turn.",
        valueName: "n"))
    var instances = 1

    @Flag(inversion: .prefixedNo, help: ArgumentHelp(
        "With several instances: once half the checkouts have ended, kill the last instance with SIGKILL as the next provider "
            + "API request with a body reaches it, and start it again on the same database (needs --checkouts of at least 10)."))
    var kill = true

    /// Whether this run kills and restarts an instance.
    var kills: Bool { kill && instances > 1 }

    func validate() throws {
        guard (1...100_000).contains(checkouts) else { throw ValidationError("--checkouts must be 1 to 100000, got \(checkouts)") }
        guard (1...64).contains(concurrency) else { throw ValidationError("--concurrency must be 1 to 64, got \(concurrency)") }
        guard (1...8).contains(instances) else { throw ValidationError("--instances must be 1 to 8, got \(instances)") }
        if instances > 1, store == nil {
            throw ValidationError("--instances \(instances) needs --store: instances in memory share nothing (make soak SOAK_STORE=postgres starts a database)")
        }
        if kills, checkouts < 10 { throw ValidationError("the kill of an instance needs --checkouts of at least 10 (or --no-kill), got \(checkouts)") }
    }

    func run() async throws {
        let seed = seed ?? UInt64(Date().timeIntervalSince1970 * 1000)
        let started = ContinuousClock.now
        let listing = try await CheckoutBinary.run(["providers", "--json"])
        let providers = try JSONDecoder().decode([String: [SoakProvider]].self, from: Data(listing.stdout.utf8))["providers"] ?? []
        let plan = SoakPlan.checkouts(count: checkouts, seed: seed, providers: providers)
        say("soak: seed \(seed), \(checkouts) checkouts across \(providers.map(\.id).joined(separator: ", ")), \(concurrency) at a time"
            + (store.map { ", on \(instances) sandbox instance\(instances == 1 ? "" : "s") sharing \(redactedStore($0))" } ?? ""))

        let sandboxes = try await SoakInstances.start(count: instances, store: store)
        defer { sandboxes.stop() }
        if store != nil {
            let before = try JSONDecoder().decode(SoakLedger.self, from: try await CheckoutBinary.fetch(sandboxes.all[0].url + "/sandbox/ledger"))
            guard before.charges.isEmpty else {
                say("soak: the store already holds \(before.charges.count) charges; give the soak an empty database (make soak SOAK_STORE=postgres starts one)")
                throw ExitCode(1)
            }
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("soak-\(seed)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)

        var memory: [SandboxMemory] = []
        let sampleMemory = { (done: Int) in
            guard done == checkouts / 10 || done == checkouts else { return }
            for (index, instance) in sandboxes.all.enumerated() {
                if !memory.contains(where: { $0.pid == instance.process.pid }) {
                    let label = instances == 1 ? nil : "instance \(index + 1)" + (memory.count > index ? " (restarted)" : "")
                    memory.append(SandboxMemory(pid: instance.process.pid, label: label))
                }
                memory[memory.firstIndex { $0.pid == instance.process.pid }!].sample(after: done)
            }
        }
        let results: [SoakResult]
        var failures: [(SoakResult?, String)] = []
        var notes: [String] = []
        if instances == 1 {
            results = try await runAll(plan, sandboxURL: sandboxes.all[0].url, directory: directory, progress: sampleMemory)
        } else {
            let balancer = SoakBalancer(instances: sandboxes.all.map(\.url))
            let kills = kills
            let (ran, restart) = try await balancer.serve { url in
                let (halfway, reached) = AsyncStream<Void>.makeStream()
                let restarting = Task { kills ? await Self.killAndRestart(sandboxes, balancer, after: halfway) : nil }
                let ran = try await runAll(plan, sandboxURL: url, directory: directory) { done in
                    sampleMemory(done)
                    if done == checkouts / 2 { reached.yield() }
                }
                reached.finish()
                balancer.disarm()
                return (ran, await restarting.value)
            }
            var marked = ran
            notes.append("instances: requests served " + balancer.served.map(String.init).joined(separator: ", "))
            if let restart {
                switch restart {
                case .restarted(let note):
                    notes.append(note)
                    notes += balancer.cutRuns.map { Self.markCut(run: $0, in: &marked) }
                case .failed(let problem): failures.append((nil, problem))
                }
            }
            results = marked
        }
        let ledgers = try await sandboxes.all.asyncMap { instance in
            try JSONDecoder().decode(SoakLedger.self, from: try await CheckoutBinary.fetch(instance.url + "/sandbox/ledger"))
        }
        let ledger = ledgers[0]
        if instances > 1 {
            let seen = ledgers.map { Set($0.charges.map { "\($0.provider) \($0.id) \($0.reference ?? "") \($0.cents ?? 0)" }) }
            if seen.allSatisfy({ $0 == seen[0] }) && ledgers.allSatisfy({ $0.charges.count == ledger.charges.count }) {
                notes.append("ledger: the same \(ledger.charges.count) charges read from each of the \(instances) instances")
            } else {
                failures.append((nil, "the instances' ledgers differ: \(ledgers.map { "\($0.charges.count) charges" }.joined(separator: " vs "))"))
            }
        }

        failures += results.flatMap { result in SoakVerdict.problems(result).map { (result, $0) } }
        failures += ledger.problems(with: results)
        failures += memory.compactMap(\.problem).map { (nil, $0) }
        let elapsed = ContinuousClock.now - started

        SoakReport.summarize(results: results, ledger: ledger, memory: memory, elapsed: elapsed, seed: seed)
        for note in notes { say("  \(note)") }
        guard failures.isEmpty else {
            await SoakReport.printFailures(failures, seed: seed)
            throw ExitCode(1)
        }
        try? FileManager.default.removeItem(at: directory)
        say("soak: passed (seed \(seed))")
    }

    enum Restart: Sendable {
        case restarted(String)
        case failed(String)
    }

    /// Marks a checkout whose request the kill cut (found by its run's id in its transcript) and
    /// says how it ended: its connection closed unanswered, so it need only end as documented.
    private static func markCut(run: String, in results: inout [SoakResult]) -> String {
        guard let index = results.firstIndex(where: { $0.ran(as: run) }) else {
            return "cut: no checkout's transcript names \(run), whose request the kill cut"
        }
        results[index].cutByKill = true
        let result = results[index]
        return "cut: checkout \(result.checkout.index) (\(result.checkout.summary)) had that request cut; "
            + "it ended \(result.finalState ?? "without a summary")\(result.finalPhase.map { "/\($0)" } ?? "") → \(result.exitCode)"
    }

    /// Once `halfway` comes: the last instance is killed (SIGKILL) with the next provider API
    /// request with a body that reaches it (after which the balancer sends it nothing), started again on the
    /// same database, and put back in the rotation. Nil when no such request came in time.
    private static func killAndRestart(_ sandboxes: SoakInstances, _ balancer: SoakBalancer, after halfway: AsyncStream<Void>) async -> Restart? {
        var reached = false
        for await _ in halfway {
            reached = true
            break
        }
        let victim = sandboxes.all.count - 1
        guard reached, let killed = await balancer.killOnNextRequest(at: victim, { sandboxes.kill(victim) }) else {
            return .failed("instance \(victim + 1) was not killed: no provider API request with a body reached it after half the checkouts had ended")
        }
        let down = ContinuousClock.now
        do {
            let url = try await sandboxes.restart(victim)
            balancer.rejoin(victim, at: url)
            let seconds = (ContinuousClock.now - down).components
            let text = String(format: "%.1f", Double(seconds.seconds) + Double(seconds.attoseconds) / 1e18)
            say("soak: instance \(victim + 1) killed (SIGKILL) with \(killed.request) on its way in, \(killed.inFlight) request(s) there; back in \(text) s")
            return .restarted(
                "restart: instance \(victim + 1) killed with SIGKILL once half the checkouts had ended, as \(killed.request) reached it "
                    + "(\(killed.inFlight) request(s) in flight there, their connections closed unanswered); started again on the same database "
                    + "in \(text) s and back in the rotation")
        } catch {
            return .failed("instance \(victim + 1) was killed but could not be started again: \(error)")
        }
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

extension Array where Element: Sendable {
    /// Each element's `transform`, one after another.
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var mapped: [T] = []
        for element in self { mapped.append(try await transform(element)) }
        return mapped
    }
}
