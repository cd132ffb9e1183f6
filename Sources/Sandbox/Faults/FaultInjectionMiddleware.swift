import Foundation
import Hummingbird
import ProviderWire

/// Applies the plan's faults to matching requests, before (or after) the real handler.
struct FaultInjectionMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    let plan: FaultPlan
    let settings: SandboxSettings

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        guard !path.hasPrefix("/sandbox/"), let kind = plan.take(method: request.method.rawValue, path: path) else {
            return try await next(request, context)
        }
        switch kind {
        case .internalServerError, .serviceUnavailable, .gatewayTimeout, .rateLimited:
            return FaultResponses.error(kind, path: path)
        case .timeout:
            try? await Task.sleep(for: .seconds(settings.faultTimeoutSeconds))
            return FaultResponses.error(.gatewayTimeout, path: path)
        case .slow:
            try? await Task.sleep(for: .seconds(settings.faultSlowSeconds))
            return try await next(request, context)
        case .reset:
            _ = try await next(request, context)
            try? await context.channel.close()
            return Response(status: .ok)
        case .malformed:
            _ = try await next(request, context)
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"request": {"id": "GRR_"#)))
        }
    }
}

/// Error bodies in the shape of the provider the path belongs to.
enum FaultResponses {
    static func error(_ kind: FaultKind, path: String) -> Response {
        let (status, category, code): (HTTPResponse.Status, String, String) =
            switch kind {
            case .rateLimited: (.tooManyRequests, "RATE_LIMIT_ERROR", "RATE_LIMITED")
            case .serviceUnavailable: (.serviceUnavailable, "API_ERROR", "SERVICE_UNAVAILABLE")
            case .gatewayTimeout, .timeout: (.gatewayTimeout, "API_ERROR", "GATEWAY_TIMEOUT")
            default: (.internalServerError, "API_ERROR", "INTERNAL_SERVER_ERROR")
            }
        let detail = "Injected sandbox fault \(kind.rawValue) on \(path)."
        if path.hasPrefix("/v2/") {
            let afterpayCode = kind == .rateLimited ? "too_many_requests" : (status == .internalServerError ? "error" : code.lowercased())
            return SandboxResponse.json(
                AfterpayError(errorCode: afterpayCode, errorId: SandboxIDs.make("", length: 16), message: detail, httpStatusCode: Int(status.code)),
                status: status)
        }
        return SandboxResponse.cashAppError(status, CashAppErrorDetail(category: category, code: code, detail: detail))
    }
}
