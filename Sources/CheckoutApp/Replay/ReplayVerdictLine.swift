import Foundation

/// `checkout run --replay`'s closing line: whether the re-run told the recorded story, as text
/// or, with --json, as a JSON object (Schemas/run.schema.json's `replay` line).
public enum ReplayVerdictLine {
    public static func line(_ divergence: ReplayDivergence?, recorded: [RecordedEvent], actual: [RecordedEvent], json: Bool) -> String {
        if let divergence {
            guard json else { return "replay: \(divergence)" }
            return JSONLine.encode([
                "replay": "diverged", "step": divergence.step,
                "recorded": divergence.recorded as Any? ?? NSNull(), "actual": divergence.actual as Any? ?? NSNull(),
            ])
        }
        let steps = ReplayDivergence.steps(in: recorded)
        let ending = actual.last?.signature
        guard json else { return "replay: same as the recording (\(steps) steps, ending \(ending ?? "nowhere"))" }
        return JSONLine.encode(["replay": "same", "steps": steps, "ending": ending as Any? ?? NSNull()])
    }
}
