import Foundation
import TestSupport

/// What one `checkout run` of the soak printed and how it exited.
struct SoakResult: Sendable {
    let checkout: SoakCheckout
    let exitCode: Int32
    let finalState: String?
    let finalPhase: String?
    /// The exit status the summary line claims.
    let reportedExitStatus: Int?
    let amount: Int?
    /// A settlement the provider declined (exit 1 rather than 2).
    let settlementDeclined: Bool
    let stdout: String
    let stderr: String
    let scenarioPath: String
    let transcriptPath: String
    /// The authorization was voided (the summary's `charged: false`: cancelled as asked, through
    /// the payment handle, or by the delay action): it ended 0 with no money moved.
    var voided = false
    /// One of its requests was on its way into the instance the soak killed, and its connection
    /// closed unanswered: a fault of the soak's own, so its end need only be documented.
    var cutByKill = false

    /// Whether this checkout ran as `run` (its transcript carries the run's header).
    func ran(as run: String) -> Bool {
        guard let transcript = try? String(contentsOfFile: transcriptPath, encoding: .utf8) else { return false }
        return transcript.contains("\"\(run)\"")
    }
}

/// Runs one checkout of the soak as a user would: `checkout run SCENARIO --json --record`.
enum SoakRun {
    static func run(_ checkout: SoakCheckout, sandboxURL: String, directory: URL) async throws -> SoakResult {
        let scenarioPath = directory.appendingPathComponent("checkout-\(checkout.index).json").path
        let transcriptPath = directory.appendingPathComponent("checkout-\(checkout.index).har").path
        try JSONSerialization.data(withJSONObject: checkout.scenario, options: [.sortedKeys]).write(to: URL(fileURLWithPath: scenarioPath))
        let arguments = [
            CheckoutBinary.url.path, "run", scenarioPath, "--sandbox-url", sandboxURL, "--json", "--record", transcriptPath,
            "--retry-base-ms", "5", "--timeout", String(checkout.timeout),
        ]
        let child = try ChildProcess(arguments)
        let exitCode = await child.exit(timeout: Double(checkout.timeout) + 120)
        let stdout = child.stdout
        let lines = stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let summary = lines.last { $0["summary"] as? Bool == true }
        return SoakResult(
            checkout: checkout, exitCode: exitCode, finalState: summary?["final_state"] as? String,
            finalPhase: summary?["final_phase"] as? String, reportedExitStatus: summary?["exit_status"] as? Int,
            amount: summary?["amount"] as? Int, settlementDeclined: lines.contains { $0["declined"] as? Bool == true },
            stdout: stdout, stderr: child.stderr, scenarioPath: scenarioPath, transcriptPath: transcriptPath,
            voided: summary?["charged"] as? Bool == false)
    }
}
