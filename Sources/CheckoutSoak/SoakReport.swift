import Foundation
import TestSupport

/// What the soak prints: the ends by provider, the ledger, memory and time; and for each failure
/// the seed, the checkout and its transcript.
enum SoakReport {
    static func summarize(results: [SoakResult], ledger: SoakLedger, memory: [SandboxMemory], elapsed: Duration, seed: UInt64) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        say("soak: \(results.count) checkouts in \(String(format: "%.1f", seconds)) s (seed \(seed))")
        for (provider, ofProvider) in Dictionary(grouping: results, by: \.checkout.provider.id).sorted(by: { $0.key < $1.key }) {
            let ends = Dictionary(grouping: ofProvider) { "\($0.finalState ?? "none")\($0.finalPhase.map { "/\($0)" } ?? "") → \($0.exitCode)" }
                .map { "\($0.key) ×\($0.value.count)" }.sorted().joined(separator: ", ")
            let faulted = ofProvider.filter { !$0.checkout.faults.isEmpty }.count
            say("  \(provider): \(ofProvider.count) checkouts (\(faulted) with faults): \(ends)")
        }
        say(
            "  ledger: \(ledger.captures.count) Afterpay checkouts with capture calls, \(ledger.captureRequestCount) capture requests; charges by provider "
                + Dictionary(grouping: ledger.charges, by: \.provider).sorted { $0.key < $1.key }.map { "\($0.key) \($0.value.count)" }.joined(separator: ", ")
                + "; \(ledger.capturedCount) charges "
                + "(\(String(format: "%.2f", Double(ledger.capturedCents) / 100)) moved), "
                + "max charges per reference \(Dictionary(grouping: ledger.charges) { $0.reference ?? $0.id }.values.map(\.count).max() ?? 0)")
        say("  sandbox memory: \(memory.map(\.description).joined(separator: "; "))")
        // Timeouts are documented ends, but each is worth a look: name them.
        for result in results where !SoakVerdict.terminal.contains(result.finalState ?? "") {
            say("  timed out in \(result.finalState ?? "?")\(result.finalPhase.map { "/\($0)" } ?? ""): checkout \(result.checkout.index) (\(result.checkout.summary))")
        }
    }

    static func printFailures(_ failures: [(SoakResult?, String)], seed: UInt64) async {
        say("soak: FAILED with seed \(seed) (rerun: make soak SOAK_SEED=\(seed)); \(failures.count) problems")
        for (result, problem) in failures.prefix(10) {
            guard let result else {
                say("- \(problem)")
                continue
            }
            say("- checkout \(result.checkout.index) (\(result.checkout.summary)): \(problem)")
            say("  scenario: \(result.scenarioPath)\n  transcript: \(result.transcriptPath)")
            if let replay = try? await CheckoutBinary.run(["replay", "--headless", result.transcriptPath]) {
                say(replay.stdout.split(separator: "\n").map { "    \($0)" }.joined(separator: "\n"))
            }
            let errors = result.stderr.split(separator: "\n").suffix(5)
            if !errors.isEmpty { say(errors.map { "    stderr: \($0)" }.joined(separator: "\n")) }
        }
    }
}

/// Prints a line at once (unbuffered), so progress shows as it happens, also in a CI log.
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
