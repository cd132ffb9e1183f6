import ProviderClients

/// Why a provider step failed, in one shape for every provider: which of the four error
/// states it leads to, and the category, code, detail and field the banner shows.
public struct ProviderFailure: Error, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The error state a failure leads to (STATES.md).
    public enum Kind: String, Hashable, Sendable, Codable {
        /// Provider degradation: hide the method for a while.
        case api
        /// A fixable integration bug: credentials, merchant, invalid request, rate limit.
        case integration
        /// No response, no body, or a body that is not the JSON expected.
        case network
        case unexpected
    }

    public var kind: Kind
    public var category: String
    public var code: String
    public var detail: String?
    public var field: String?
    /// The HTTP status, when one arrived.
    public var httpStatus: Int?

    public init(kind: Kind, category: String, code: String, detail: String? = nil, field: String? = nil, httpStatus: Int? = nil) {
        self.kind = kind
        self.category = category
        self.code = code
        self.detail = detail
        self.field = field
        self.httpStatus = httpStatus
    }

    public var description: String {
        var text = "\(category) \(code)"
        if let field { text += " (\(field))" }
        if let detail { text += ": \(detail)" }
        return text
    }

    enum CodingKeys: String, CodingKey {
        case kind, category, code, detail, field, httpStatus = "status"
    }

    // MARK: Classified the same way for every provider

    /// No usable response: a timeout or a lost connection is NO_RESPONSE, the rest SYSTEM_ERROR.
    public static func transport(_ failure: TransportFailure) -> ProviderFailure {
        switch failure {
        case .timedOut, .connectionLost: network("NO_RESPONSE", failure.description)
        case .connectionFailed, .cancelled, .other: network("SYSTEM_ERROR", failure.description)
        }
    }

    /// A response without the body it needed. A bodiless 4xx is not a flaky network but a URL
    /// where no provider API answers (a wrong base URL), so it is the integration's to fix.
    public static func emptyBody(status: Int) -> ProviderFailure {
        if (400..<500).contains(status) {
            return ProviderFailure(
                kind: .integration, category: "INVALID_REQUEST_ERROR", code: "HTTP_\(status)",
                detail: "HTTP \(status) with no body: no provider API answers at this URL; check the base URL "
                    + "(--sandbox-url takes the URL `checkout sandbox` printed, with no path)",
                httpStatus: status)
        }
        return ProviderFailure(kind: .network, category: "NETWORK_ERROR", code: "NIL_DATA", detail: "HTTP \(status) arrived with no body", httpStatus: status)
    }

    /// A body that is not the JSON the provider documents.
    public static func undecodable(status: Int, detail: String) -> ProviderFailure {
        ProviderFailure(kind: .network, category: "NETWORK_ERROR", code: "INVALID_JSON", detail: "HTTP \(status): \(detail)", httpStatus: status)
    }

    private static func network(_ code: String, _ detail: String) -> ProviderFailure {
        ProviderFailure(kind: .network, category: "NETWORK_ERROR", code: code, detail: detail)
    }

    // MARK: The flow's own

    /// PayKit's error for updating or authorizing a request that is already decided.
    public static let terminalState = ProviderFailure(
        kind: .integration, category: "INVALID_REQUEST_ERROR", code: "INVALID_STATE_TRANSITION",
        detail: "The request provided was already in a terminal state.")

    public static let emptyErrorArray = ProviderFailure(
        kind: .unexpected, category: "API_ERROR", code: "EMPTY_ERROR_ARRAY",
        detail: "The API returned an error, but the `errors` array was empty.", field: "errors")

    public static func noRedirectURL(attemptID: String) -> ProviderFailure {
        ProviderFailure(
            kind: .unexpected, category: "API_ERROR", code: "NO_REDIRECT_URL",
            detail: "The customer request \(attemptID) has no mobile_url to send the customer to.",
            field: "auth_flow_triggers.mobile_url")
    }

    public static func authorizationTimeout(seconds: Int) -> ProviderFailure {
        ProviderFailure(
            kind: .unexpected, category: "CLIENT_TIMEOUT", code: "AUTHORIZATION_TIMEOUT",
            detail: "The customer did not decide within \(seconds) s; start a new checkout or raise the timeout.")
    }

    /// A second payment started while one is in progress (the Mobile Payments SDK's
    /// `paymentAlreadyInProgress`); the first goes on.
    public static let paymentAlreadyInProgress = ProviderFailure(
        kind: .integration, category: "INVALID_REQUEST_ERROR", code: "paymentAlreadyInProgress",
        detail: "A payment is already in progress; finish it or abandon it (Esc) before starting another.")

    /// The person at the terminal walked away from a prompt (the reader, the tip screen).
    public static let promptWithdrawn = ProviderFailure(
        kind: .unexpected, category: "CLIENT_CANCELED", code: "PROMPT_WITHDRAWN", detail: "The prompt was taken away before it was answered.")

    /// A provider this checkout has no adapter for (a configuration mistake, not the provider's).
    public static func unknownProvider(_ id: String) -> ProviderFailure {
        ProviderFailure(kind: .integration, category: "INVALID_REQUEST_ERROR", code: "UNKNOWN_PROVIDER", detail: "no provider \"\(id)\" is registered")
    }
}
