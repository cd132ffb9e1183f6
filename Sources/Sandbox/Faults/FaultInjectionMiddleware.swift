import Foundation
import Hummingbird
import ProviderWire

/// Applies the plan's faults to matching requests, before (or after) the real handler.
struct FaultInjectionMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    let plan: FaultPlan
    let settings: SandboxSettings
    let providers: [any SandboxProvider]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        let run = request.headers.first { $0.name.canonicalName == SandboxRunHeader.name.lowercased() }?.value
        guard !path.hasPrefix("/sandbox/"), let kind = plan.take(method: request.method.rawValue, path: path, run: run) else {
            return try await next(request, context)
        }
        switch kind {
        case .internalServerError, .serviceUnavailable, .gatewayTimeout, .rateLimited:
            return FaultResponses.error(kind, path: path, providers: providers)
        case .timeout:
            try? await Task.sleep(for: .seconds(settings.faultTimeoutSeconds))
            return FaultResponses.error(.gatewayTimeout, path: path, providers: providers)
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
    static func error(_ kind: FaultKind, path: String, providers: [any SandboxProvider]) -> Response {
        let (status, category, code): (HTTPResponse.Status, String, String) =
            switch kind {
            case .rateLimited: (.tooManyRequests, "RATE_LIMIT_ERROR", "RATE_LIMITED")
            case .serviceUnavailable: (.serviceUnavailable, "API_ERROR", "SERVICE_UNAVAILABLE")
            case .gatewayTimeout, .timeout: (.gatewayTimeout, "API_ERROR", "GATEWAY_TIMEOUT")
            default: (.internalServerError, "API_ERROR", "INTERNAL_SERVER_ERROR")
            }
        let fault = InjectedFault(kind: kind, status: status, category: category, code: code, detail: "Injected sandbox fault \(kind.rawValue) on \(path).")
        if let owner = providers.owner(of: path) {
            return owner.faultResponse(fault)
        }
        // A path no provider serves: the sandbox's own error list.
        return SandboxResponse.cashAppError(status, CashAppErrorDetail(category: category, code: code, detail: fault.detail))
    }
}
