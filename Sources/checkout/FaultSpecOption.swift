import ArgumentParser
import Sandbox

/// The `--fault SPEC` option's help and validation, shared by `checkout`, `checkout run` and
/// `checkout sandbox`.
enum FaultSpecOption {
    static let help = ArgumentHelp(
        "Inject a sandbox fault: 'METHOD PATH-PREFIX KIND[*N]', METHOD one of \(FaultRule.methods.joined(separator: ", ")), "
            + "KIND one of \(FaultKind.allCases.map(\.rawValue).joined(separator: ", ")), N from \(FaultRule.counts.lowerBound) to "
            + "\(FaultRule.counts.upperBound) (default 1). Repeatable.",
        valueName: "spec")

    /// The rules the specs name, or the usage error for the first that is not one.
    static func rules(_ specs: [String]) throws -> [FaultRule] {
        try specs.map { spec in
            do { return try FaultRule(spec: spec) } catch { throw ValidationError("--fault: \(error)") }
        }
    }
}
