import PaymentFlow

/// The exit statuses of `checkout run`, documented in `--help` and the README.
public enum ExitStatus: Int32, Sendable {
    case approved = 0
    case declined = 1
    case failed = 2
    case usage = 64

    /// How a checkout ended: 0 only when it reached its end (`approved`, or for a provider that
    /// settles, `completed`); a declined approval or settlement 1; anything else 2.
    public init(final: CheckoutState, phase: CheckoutPhase?, settles: Bool) {
        guard final.isTerminal else {
            self = .failed
            return
        }
        switch final.kind {
        case .success where settles:
            switch phase {
            case .completed?: self = .approved
            case .settlementFailed(let failure)? where failure.declined: self = .declined
            default: self = .failed
            }
        case .success: self = .approved
        case .declined: self = .declined
        case .idle, .inProgress, .error: self = .failed
        }
    }
}
