/// The header a checkout sends to a sandbox (never to a real provider) naming its run, so that
/// the faults it injected into a shared sandbox hit only its own requests.
public enum SandboxRunHeader {
    public static let name = "TerminalCheckout-Run"
}
