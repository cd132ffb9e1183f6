import PaymentFlow

/// The exit statuses of `checkout run`, documented in `--help` and the README.
public enum ExitStatus: Int32, Sendable {
    case approved = 0
    case declined = 1
    case failed = 2
    case usage = 64

    public init(finalState: CashAppPayState) {
        switch finalState.kind {
        case .success: self = .approved
        case .declined: self = .declined
        case .idle, .inProgress, .error: self = .failed
        }
    }
}
