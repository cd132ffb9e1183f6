/// What the soak requires of every checkout, whatever its faults: it ended in a documented state
/// with the documented exit status, and without faults it ended as its customer decided.
enum SoakVerdict {
    static let states: Set<String> = [
        "notStarted", "creatingCustomerRequest", "updatingCustomerRequest", "readyToAuthorize", "redirecting", "polling",
        "refreshing", "approved", "declined", "apiError", "integrationError", "networkError", "unexpectedError",
    ]
    static let terminal: Set<String> = ["approved", "declined", "apiError", "integrationError", "networkError", "unexpectedError"]

    /// The problems with one checkout's end; empty when it is as documented.
    static func problems(_ result: SoakResult) -> [String] {
        guard let state = result.finalState else { return ["no summary line (exit \(result.exitCode))"] }
        var problems: [String] = []
        if !states.contains(state) { problems.append("final state \(state) is not one of the 13 documented states") }
        if result.reportedExitStatus.map(Int32.init) != result.exitCode {
            problems.append("exited \(result.exitCode) but the summary says exit_status \(result.reportedExitStatus.map(String.init) ?? "none")")
        }
        let expected = documentedExitStatus(result)
        if result.exitCode != expected {
            problems.append("ended \(state)\(result.finalPhase.map { ", \($0)" } ?? "") with exit \(result.exitCode); documented: \(expected)")
        }
        if result.checkout.faults.isEmpty, !result.cutByKill, let decided = withoutFaults(result.checkout), result.exitCode != decided {
            problems.append("no faults and customer \(result.checkout.customer), so exit \(decided) expected; got \(result.exitCode) (\(state))")
        }
        return problems
    }

    /// The README's exit statuses: 0 approved (for a provider that settles: completed), 1 declined
    /// or a declined settlement, 2 an error state, a failed settlement or a timeout.
    static func documentedExitStatus(_ result: SoakResult) -> Int32 {
        switch result.finalState {
        case "approved"?:
            guard result.checkout.provider.settles else { return 0 }
            if result.finalPhase == "completed" { return 0 }
            return result.settlementDeclined ? 1 : 2
        case "declined"?: return 1
        default: return 2
        }
    }

    /// How a checkout without faults must end: as its customer decided, or timed out.
    private static func withoutFaults(_ checkout: SoakCheckout) -> Int32? {
        switch checkout.customer.split(separator: " ").first {
        case "approve"?, "approve-after"?: 0
        case "decline"?, "abandon"?: 1
        case "none"?: 2
        default: nil
        }
    }
}
