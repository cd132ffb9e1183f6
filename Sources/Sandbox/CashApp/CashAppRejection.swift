import Hummingbird
import ProviderWire

/// A Cash App error with the HTTP status it is sent with: `{"errors": [{category, code, detail, field}]}`.
struct CashAppRejection: Error {
    let status: HTTPResponse.Status
    let error: CashAppErrorDetail

    init(_ status: HTTPResponse.Status, _ category: String, _ code: String, _ detail: String, field: String? = nil) {
        self.status = status
        self.error = CashAppErrorDetail(category: category, code: code, detail: detail, field: field)
    }

    /// A sandbox error in Cash App's shape.
    init(_ error: SandboxError) {
        self.init(error.status, error.category, error.code, error.message, field: error.field)
    }

    var response: Response { SandboxResponse.json(CashAppErrorBody(errors: [error]), status: status) }
}
