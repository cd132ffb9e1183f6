import Foundation
import TestSupport

/// What the soak prints: the ends by provider, the ledger, memory and time; and for each failure
/// the seed, the checkout and its transcript.
enum SoakReport {
    static func print(results: [SoakResult], ledger: SoakLedger, memory: SandboxMemory, elapsed: Duration, seed: UInt64) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        Swift.print("soak: \(results.count) checkouts in \(String(format: "%.1f", seconds)) s (seed \(seed))")
        for (provider, ofProvider) in Dictionary(grouping: results, by: \.checkout.provider.id).sorted(by: { $0.key < $1.key }) {
            let ends = Dictionary(grouping: ofProvider) { "\($0.finalState ?? "none")\($0.finalPhase.map { "/\($0)" } ?? "") → \($0.exitCode)" }
                .map { "\($0.key) ×\($0.value.count)" }.sorted().joined(separator: ", ")
            let faulted = ofProvider.filter { !$0.checkout.faults.isEmpty }.count
            Swift.print("  \(provider): \(ofProvider.count) checkouts (\(faulted) with faults): \(ends)")
        }
        Swift.print(
            "  ledger: \(ledger.captures.count) Afterpay checkouts with capture calls, \(ledger.captureRequestCount) capture requests, "
                + "\(ledger.capturedCount) captures (\(String(format: "%.2f", Double(ledger.capturedCents) / 100)) moved), "
                + "max captures per payment \(ledger.captures.map(\.captures).max() ?? 0)")
        Swift.print("  sandbox memory: \(memory.description)")
    }

    static func printFailures(_ failures: [(SoakResult?, String)], seed: UInt64) async {
        Swift.print("soak: FAILED with seed \(seed) (rerun: make soak SOAK_SEED=\(seed)); \(failures.count) problems")
        for (result, problem) in failures.prefix(10) {
            guard let result else {
                Swift.print("- \(problem)")
                continue
            }
            Swift.print("- checkout \(result.checkout.index) (\(result.checkout.summary)): \(problem)")
            Swift.print("  scenario: \(result.scenarioPath)\n  transcript: \(result.transcriptPath)")
            if let replay = try? await CheckoutBinary.run(["replay", "--headless", result.transcriptPath]) {
                Swift.print(replay.stdout.split(separator: "\n").map { "    \($0)" }.joined(separator: "\n"))
            }
            let errors = result.stderr.split(separator: "\n").suffix(5)
            if !errors.isEmpty { Swift.print(errors.map { "    stderr: \($0)" }.joined(separator: "\n")) }
        }
    }
}
