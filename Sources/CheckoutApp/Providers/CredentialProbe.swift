import ProviderClients

/// A provider's harmless authenticated call, for `checkout config check`: it reads (never
/// writes) something the credentials must unlock, so a wrong key shows before a checkout.
public struct CredentialProbe: Sendable {
    /// What it calls, for the user: "GET /v2/payments?limit=1 (lists at most one payment)".
    public var call: String
    /// Makes the call; the exchange it leaves in the connection's log is shown.
    public var run: @Sendable (ProviderConnection) async -> CredentialProbeResult

    public init(call: String, run: @escaping @Sendable (ProviderConnection) async -> CredentialProbeResult) {
        self.call = call
        self.run = run
    }
}

/// What the provider said of the credentials.
public enum CredentialProbeResult: Hashable, Sendable {
    /// It accepted them; the words say how we know.
    case accepted(String)
    /// It refused them (HTTP 401 or 403, a bad signature, an unknown key).
    case rejected(String)
    /// No answer that says either way (unreachable, a server error).
    case inconclusive(String)

    /// How an HTTP status reads as a verdict, when the call did not simply succeed.
    public static func judging(status: Int?, detail: String, notFoundMeansAccepted: Bool = false) -> CredentialProbeResult {
        switch status {
        case 401?, 403?: .rejected(detail)
        case 404? where notFoundMeansAccepted: .accepted("it looked up a made-up id and answered 404: the credentials got past its authentication")
        case nil: .inconclusive(detail)
        default: .inconclusive(detail)
        }
    }
}

extension ProviderHTTPClient {
    /// The status of the last attempt this client recorded, if any answered.
    var lastStatus: Int? { log.entries.last?.status }
}
