import Hummingbird
import ProviderWire

/// An error the sandbox answers with, before a provider's shape is put on it: an injected fault,
/// the server's own refusal (a method the path does not answer), or a control route's complaint.
/// Providers with an error shape of their own render it (`SandboxProvider.faultResponse`,
/// `refusalResponse`); everything else answers it in the sandbox's own error list.
public struct SandboxError: Error, Sendable {
    public let status: HTTPResponse.Status
    /// Upper snake case: `NOT_FOUND`, `RATE_LIMITED`, `METHOD_NOT_ALLOWED`, …
    public let code: String
    public let message: String
    /// The request field at fault, when one is.
    public let field: String?

    public init(_ status: HTTPResponse.Status, _ code: String, _ message: String, field: String? = nil) {
        self.status = status
        self.code = code
        self.message = message
        self.field = field
    }

    /// The class of error its status puts it in, as the sandbox's own list (and the providers
    /// whose errors are classed the same way) spell it.
    public var category: String {
        switch status.code {
        case 401: "AUTHENTICATION_ERROR"
        case 429: "RATE_LIMIT_ERROR"
        case 500...: "API_ERROR"
        default: "INVALID_REQUEST_ERROR"
        }
    }

    /// A method the path does not answer: 405, naming the ones it does.
    static func methodNotAllowed(_ method: HTTPRequest.Method, path: String, allowed: [String]) -> SandboxError {
        SandboxError(
            .methodNotAllowed, "METHOD_NOT_ALLOWED", "\(method.rawValue) is not allowed on \(path); use \(allowed.joined(separator: " or ")).")
    }

    /// The sandbox's own error list: `{"errors": [{category, code, detail, field}]}`.
    var response: Response { SandboxResponse.json(SandboxErrorListBody(self), status: status) }
}

extension SandboxErrorListBody {
    /// The sandbox's own error list for one error: paths no provider owns, its control routes.
    init(_ error: SandboxError) {
        self.init(errors: [Entry(category: error.category, code: error.code, detail: error.message, field: error.field)])
    }
}
