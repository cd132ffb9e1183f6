import Foundation
import Hummingbird
import NIOCore
import ProviderWire

/// An Adyen `ServiceError` with the HTTP status it is sent with:
/// `{status, errorCode, message, errorType, pspReference?}`.
struct AdyenRejection: Error {
    let error: AdyenServiceError
    /// Extra headers, e.g. `transient-error: true` on an idempotent request still in progress.
    var headers: HTTPFields = [:]

    init(_ status: HTTPResponse.Status, _ errorCode: String, _ message: String, type: String = "validation", pspReference: String? = nil) {
        error = AdyenServiceError(status: Int(status.code), errorCode: errorCode, message: message, errorType: type, pspReference: pspReference)
    }

    var response: Response {
        var response = AdyenJSON.response(error, status: HTTPResponse.Status(code: error.status))
        response.headers.append(contentsOf: headers)
        if let psp = error.pspReference { response.headers[HTTPFields.Element.Name("pspReference")!] = psp }
        return response
    }

    /// 401: no key, or one that is not an Adyen API key. Adyen sends no pspReference here.
    static let unauthorized = AdyenRejection(.unauthorized, "000", "HTTP Status Response - Unauthorized", type: "security")

    static func invalidMerchant() -> AdyenRejection {
        AdyenRejection(.forbidden, "901", "Invalid Merchant Account", type: "security", pspReference: AdyenIDs.pspReference())
    }

    /// 400 `702`: a body that is not JSON, or not the JSON this endpoint takes.
    static func malformed(_ detail: String) -> AdyenRejection {
        AdyenRejection(.badRequest, "702", "Structure of request is invalid: \(detail)", pspReference: AdyenIDs.pspReference())
    }

    /// 422 validation: a field missing or out of range.
    static func invalid(_ errorCode: String, _ message: String) -> AdyenRejection {
        AdyenRejection(.unprocessableContent, errorCode, message, pspReference: AdyenIDs.pspReference())
    }
}

/// Adyen's JSON: its own camelCase keys, nothing left null.
enum AdyenJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    static func data<Value: Encodable>(_ value: Value) -> Data {
        (try? encoder().encode(value)) ?? Data("{}".utf8)
    }

    static func response<Value: Encodable>(_ value: Value, status: HTTPResponse.Status = .ok) -> Response {
        response(data: data(value), status: status)
    }

    static func response(data: Data, status: HTTPResponse.Status) -> Response {
        var headers: HTTPFields = [.contentType: "application/json"]
        if status == .contentTooLarge { headers[.connection] = "close" }
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }
}

/// Runs a handler, answering its rejection in Adyen's shape.
func adyenAnswer(_ handler: () async throws -> Response) async throws -> Response {
    do { return try await handler() } catch let rejection as AdyenRejection { return rejection.response }
}
