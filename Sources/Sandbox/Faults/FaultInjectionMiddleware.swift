import Foundation
import Hummingbird
import ProviderWire

/// Applies the plan's faults to matching requests, before (or after) the real handler. Being the
/// first middleware of every route (and of the router's not-found answer), it is also where a
/// request a provider claims by more than its path (`SandboxProvider.claims`) goes to that
/// provider, whichever route the router picked.
struct FaultInjectionMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    let plan: FaultPlan
    let settings: SandboxSettings
    let providers: [any SandboxProvider]

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        let path = request.uri.path
        let run = request.headers.sandboxRun
        guard !path.hasPrefix("/sandbox/"), let kind = try await plan.take(method: request.method.rawValue, path: path, run: run) else {
            return try await forward(request, context, next)
        }
        context.journalNote?.fault = kind.rawValue
        switch kind {
        case .internalServerError, .serviceUnavailable, .gatewayTimeout, .rateLimited:
            return await FaultResponses.error(kind, request: request, providers: providers)
        case .timeout:
            try? await Task.sleep(for: .seconds(settings.faultTimeoutSeconds))
            return await FaultResponses.error(.gatewayTimeout, request: request, providers: providers)
        case .slow:
            try? await Task.sleep(for: .seconds(settings.faultSlowSeconds))
            return try await forward(request, context, next)
        case .reset:
            _ = try await forward(request, context, next)
            try? await context.channel.close()
            return Response(status: .ok)
        case .drop:
            // Nothing of the request is handled: the connection closes before any route runs.
            try? await context.channel.close()
            return Response(status: .ok)
        case .malformed:
            _ = try await forward(request, context, next)
            return Response(
                status: .ok, headers: [.contentType: "application/json"],
                body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"request": {"id": "GRR_"#)))
        }
    }

    /// The request's handler: the provider that claims it, else the route the router picked.
    private func forward(_ request: Request, _ context: Context, _ next: (Request, Context) async throws -> Response) async throws -> Response {
        if let claimant = try await providers.claimant(of: request) {
            context.journalNote?.claimant = claimant.id
            return try await claimant.answer(claimed: request, context: context)
        }
        return try await next(request, context)
    }
}

/// Error bodies in the shape of the provider the request belongs to.
enum FaultResponses {
    static func error(_ kind: FaultKind, request: Request, providers: [any SandboxProvider]) async -> Response {
        let (status, code): (HTTPResponse.Status, String) =
            switch kind {
            case .rateLimited: (.tooManyRequests, "RATE_LIMITED")
            case .serviceUnavailable: (.serviceUnavailable, "SERVICE_UNAVAILABLE")
            case .gatewayTimeout, .timeout: (.gatewayTimeout, "GATEWAY_TIMEOUT")
            default: (.internalServerError, "INTERNAL_SERVER_ERROR")
            }
        let fault = InjectedFault(kind: kind, error: SandboxError(status, code, "Injected sandbox fault \(kind.rawValue) on \(request.uri.path)."))
        // The provider whose path it is answers in its shape; a path no provider serves, in the sandbox's own list.
        return await providers.owner(of: request)?.faultResponse(fault) ?? fault.error.response
    }
}
