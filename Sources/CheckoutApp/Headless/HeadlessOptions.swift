/// What the simulated customer does when the request reaches them.
public enum CustomerBehaviour: String, Sendable, CaseIterable {
    case approve, decline, none
}

/// Which payment provider a headless checkout uses.
public enum CheckoutProvider: String, Sendable, CaseIterable {
    /// Cash App Pay's Customer Request API directly.
    case cashapp
    /// Cash App Pay through an Afterpay merchant account.
    case afterpay
}

/// Everything `checkout run` needs to run one checkout without a screen.
public struct HeadlessOptions: Sendable {
    public var session: SessionOptions
    public var provider: CheckoutProvider = .cashapp
    public var customer: CustomerBehaviour
    public var json: Bool
    /// Charge this many minor units instead of the cart total (for sandbox magic values).
    public var amountOverride: Int?
    /// Give up (exit 2) when the flow has not ended after this many seconds.
    public var timeoutSeconds: Int

    public init(
        session: SessionOptions = SessionOptions(), customer: CustomerBehaviour = .approve,
        json: Bool = false, amountOverride: Int? = nil, timeoutSeconds: Int = 300
    ) {
        self.session = session
        self.customer = customer
        self.json = json
        self.amountOverride = amountOverride
        self.timeoutSeconds = timeoutSeconds
    }
}
