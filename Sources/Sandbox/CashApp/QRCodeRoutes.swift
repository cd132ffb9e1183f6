import Foundation
import Hummingbird
import QRCode

/// The images behind `auth_flow_triggers.qr_code_svg_url` / `qr_code_image_url`:
/// `GET /sandbox/customer-requests/{id}/qr.svg|qr.png?t=TOKEN`, a QR code of the
/// request's current `mobile_url`.
///
/// Stricter than the authorize page, which still opens from a rotated link: an image
/// carries no notice, so serving an old token's URL would show a code the client should
/// already have replaced. Old tokens and decided requests are 410 Gone, a missing token
/// 404, each telling the caller to fetch the request again for fresh triggers.
struct QRCodeRoutes {
    let store: CustomerRequestStore

    private enum Format {
        case svg, png
        var contentType: String { self == .svg ? "image/svg+xml" : "image/png" }
    }

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        let customer = router.group("sandbox/customer-requests")
        customer.get(":id/qr.svg") { request, context in try await serve(.svg, request, context) }
        customer.get(":id/qr.png") { request, context in try await serve(.png, request, context) }
    }

    private func serve(_ format: Format, _ request: Request, _ context: SandboxRequestContext) async throws(SandboxStoreUnavailable) -> Response {
        var response: Response
        let id = context.parameters.get("id") ?? ""
        let trigger = try await store.currentTrigger(id: id, baseURL: request.baseURL)
        do throws(CashAppRejection) {
            let code = try currentCode(id: id, token: request.uri.queryParameters.get("t"), trigger: trigger)
            let body = format == .svg ? Data(QRImage.svg(code).utf8) : QRImage.png(code)
            response = SandboxResponse.image(body, contentType: format.contentType)
        } catch {
            response = error.response
        }
        // Codes rotate every few seconds: no cache may keep an image or a refusal.
        response.headers[.cacheControl] = "no-store"
        return response
    }

    private func currentCode(id: String, token: String?, trigger: CustomerRequestStore.TriggerLookup) throws(CashAppRejection) -> QRCode {
        let mobileURL: String
        let current: String
        switch trigger {
        case .notFound:
            throw notFound(id)
        case .notPending(let status):
            throw CashAppRejection(
                .gone, "INVALID_REQUEST_ERROR", "NOT_FOUND",
                "The request is already \(status); QR codes exist only while it is PENDING.")
        case .pending(let url, let token):
            (mobileURL, current) = (url, token)
        }
        guard let token, !token.isEmpty else {
            throw CashAppRejection(
                .notFound, "INVALID_REQUEST_ERROR", "NOT_FOUND",
                "No QR code without its t token; fetch the request again (GET /customer-request/v1/requests/\(id)) "
                    + "and use qr_code_svg_url or qr_code_image_url from its auth_flow_triggers.", field: "t")
        }
        guard token == current else {
            throw CashAppRejection(
                .gone, "INVALID_REQUEST_ERROR", "NOT_FOUND",
                "This QR code link has rotated; fetch the request again (GET /customer-request/v1/requests/\(id)) "
                    + "for fresh auth_flow_triggers.", field: "t")
        }
        do {
            return try QRCode(encoding: mobileURL)
        } catch {
            throw CashAppRejection(.internalServerError, "API_ERROR", "INTERNAL_SERVER_ERROR", "The QR code could not be drawn: \(error).")
        }
    }
}
