/// Everything `checkout run` needs to run one checkout without a screen.
public struct HeadlessOptions: Sendable {
    public var session: SessionOptions
    /// What is bought, how, and what should come of it.
    public var scenario: Scenario
    public var json: Bool
    /// Give up (exit 2) when the flow has not ended after this many seconds.
    public var timeoutSeconds: Int
    /// Write a HAR transcript of the run here.
    public var recordPath: String?
    /// Print the provider's receipt (Square's) once paid.
    public var printReceipt: Bool

    public init(
        session: SessionOptions = SessionOptions(), scenario: Scenario = Scenario(name: "default cart"),
        json: Bool = false, timeoutSeconds: Int = 300, recordPath: String? = nil, printReceipt: Bool = false
    ) {
        self.printReceipt = printReceipt
        self.session = session
        self.scenario = scenario
        self.json = json
        self.timeoutSeconds = timeoutSeconds
        self.recordPath = recordPath
    }
}
