import Foundation
import Hummingbird
import NIOCore
import ProviderWire

/// A Square error answer: `{"errors": [{category, code, detail, field}]}` with its HTTP status,
/// and for a decline the FAILED payment beside the errors.
struct SquareRejection: Error {
    let status: HTTPResponse.Status
    let errors: [SquareError]
    var payment: SquarePayment?

    init(_ status: HTTPResponse.Status, _ category: String, _ code: String, _ detail: String, field: String? = nil) {
        self.status = status
        errors = [SquareError(category: category, code: code, detail: detail, field: field)]
    }

    var response: Response { SquareJSON.response(SquarePaymentResponse(payment: payment, errors: errors), status: status) }

    /// 400 INVALID_REQUEST_ERROR naming the field at fault.
    static func invalid(_ code: String, _ detail: String, field: String? = nil) -> SquareRejection {
        SquareRejection(.badRequest, "INVALID_REQUEST_ERROR", code, detail, field: field)
    }

    static func missing(_ field: String) -> SquareRejection {
        invalid("MISSING_REQUIRED_PARAMETER", "Missing required parameter.", field: field)
    }

    /// No `Authorization` header, as Square words it.
    static let noAuthorization = SquareRejection(
        .unauthorized, "AUTHENTICATION_ERROR", "UNAUTHORIZED",
        "Your request did not include an `Authorization` http header with an access token. The header value is expected to be of the "
            + "format \"Bearer TOKEN\" (without quotation marks), where TOKEN is to be replaced with your access token (e.g. \"Bearer "
            + "ABC123def456GHI789jkl0\"). This sandbox accepts any token starting EAAA.")

    /// A token the sandbox does not accept.
    static let unauthorized = SquareRejection(
        .unauthorized, "AUTHENTICATION_ERROR", "UNAUTHORIZED", "This request could not be authorized. This sandbox accepts Bearer tokens starting EAAA.")

    static func notFound(_ detail: String, field: String? = nil) -> SquareRejection {
        SquareRejection(.notFound, "INVALID_REQUEST_ERROR", "NOT_FOUND", detail, field: field)
    }

    /// A request body over the sandbox's limit; the connection is closed after the answer.
    static func tooLarge(_ problem: BodyTooLarge) -> SquareRejection {
        SquareRejection(.contentTooLarge, "INVALID_REQUEST_ERROR", "REQUEST_ENTITY_TOO_LARGE", "The \(problem).")
    }
}

/// Square's JSON: snake_case keys from the wire types, nothing left null.
enum SquareJSON {
    static func data<Value: Encodable>(_ value: Value) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)) ?? Data("{}".utf8)
    }

    static func response<Value: Encodable>(_ value: Value, status: HTTPResponse.Status = .ok) -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        // A body too large was left unread: closing beats draining it.
        if status == .contentTooLarge { headers[.connection] = "close" }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data(value))))
    }

    /// `{}`: what CancelPaymentByIdempotencyKey and an empty ListPayments answer.
    struct Empty: Encodable {}
}

/// Runs a handler, answering its rejection in Square's shape.
func squareAnswer(_ handler: () async throws -> Response) async throws -> Response {
    do { return try await handler() } catch let rejection as SquareRejection { return rejection.response }
}
