import ProviderClients

/// The scenario the screen was opened with, and what a transcript of the session needs:
/// the first checkout as a scenario and what its customer did.
public struct SessionRecording: Hashable, Sendable {
    /// The scenario the screen was opened with: its amount, reference, metadata and customer.
    public var scenario: Scenario?
    /// The first checkout paid in this session, as a scenario (for transcripts).
    public var paidScenario: Scenario?
    /// What the customer did in the first checkout, and how long after polling began.
    public var firstCustomerDecision: CustomerDecisionRecord?
    /// Flags prompts of the checkout in flight have recorded (a later prompt may add to them).
    public var promptFlagsThisCheckout: Set<String> = []

    public init() {}
}

/// What the customer did and when, for the transcript's scenario.
public struct CustomerDecisionRecord: Hashable, Sendable {
    public var decision: SandboxControlClient.CustomerDecision
    public var afterSeconds: Double
}
