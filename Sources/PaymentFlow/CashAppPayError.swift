/// An error as the Cash App API reports it: category, code, detail and the field at fault.
public struct CashAppPayError: Error, Hashable, Sendable, CustomStringConvertible {
    public var category: String
    public var code: String
    public var detail: String?
    public var field: String?

    public init(category: String, code: String, detail: String? = nil, field: String? = nil) {
        self.category = category
        self.code = code
        self.detail = detail
        self.field = field
    }

    public var description: String {
        var text = "\(category) \(code)"
        if let field { text += " (\(field))" }
        if let detail { text += ": \(detail)" }
        return text
    }

    /// PayKit's error for updating or authorizing a request that is already decided.
    public static let terminalStateError = CashAppPayError(
        category: "INVALID_REQUEST_ERROR", code: "INVALID_STATE_TRANSITION",
        detail: "The request provided was already in a terminal state.")

    public static let emptyErrorArray = CashAppPayError(
        category: "API_ERROR", code: "EMPTY_ERROR_ARRAY",
        detail: "The API returned an error, but the `errors` array was empty.", field: "errors")

    public static func noRedirectURL(requestID: String) -> CashAppPayError {
        CashAppPayError(
            category: "API_ERROR", code: "NO_REDIRECT_URL",
            detail: "The customer request \(requestID) has no mobile_url to send the customer to.",
            field: "auth_flow_triggers.mobile_url")
    }

    public static func authorizationTimeout(seconds: Int) -> CashAppPayError {
        CashAppPayError(
            category: "CLIENT_TIMEOUT", code: "AUTHORIZATION_TIMEOUT",
            detail: "The customer did not decide within \(seconds) s; start a new checkout or raise the timeout.")
    }
}

/// A transport failure, no response, no body, or a body that is not the JSON expected.
public enum NetworkError: Error, Hashable, Sendable, CustomStringConvertible {
    case noResponse(String)
    case nilData(status: Int)
    case invalidJSON(String)
    case systemError(String)

    public var code: String {
        switch self {
        case .noResponse: "NO_RESPONSE"
        case .nilData: "NIL_DATA"
        case .invalidJSON: "INVALID_JSON"
        case .systemError: "SYSTEM_ERROR"
        }
    }

    public var detail: String {
        switch self {
        case .noResponse(let detail), .invalidJSON(let detail), .systemError(let detail): detail
        case .nilData(let status): "HTTP \(status) arrived with no body"
        }
    }

    public var description: String { "\(code): \(detail)" }

    var asPayError: CashAppPayError { CashAppPayError(category: "NETWORK_ERROR", code: code, detail: detail) }
}
