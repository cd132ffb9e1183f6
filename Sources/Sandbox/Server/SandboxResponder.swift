import Hummingbird

/// The router, behind the one check it cannot make: a path it knows, asked with a method it
/// does not answer, gets 405 with `Allow` in the error shape of the provider owning the path, and
/// a path no route knows under a provider's prefix gets 404 in that provider's shape (as its API
/// answers an unknown path: a JSON error, never an empty body). It is also the one place a store
/// failure (`SandboxStoreUnavailable`, thrown up through a provider's routes) becomes 503 in the
/// error shape of the provider the request belongs to, as an injected 503 fault would answer.
struct SandboxResponder: HTTPResponder {
    typealias Context = SandboxRequestContext

    let router: RouterResponder<SandboxRequestContext>
    let methods: RouteMethods
    let providers: [any SandboxProvider]
    /// Told why a request was answered 503 (what the store threw, never its password).
    var reportProblem: (@Sendable (String) -> Void)? = nil
    /// Where every request served is recorded (but the journal's own reads); nil records nothing.
    var journal: SandboxJournal? = nil
    /// Told of every request, so the due-time worker keeps its pace while the sandbox is in use.
    var cadence: DueWorkCadence? = nil

    func respond(to request: Request, context: Context) async throws -> Response {
        cadence?.served()
        guard let journal, !journal.skips(request) else { return try await route(request, context: context) }
        return try await journal.capture(request, context: context) { request, context in try await route(request, context: context) }
    }

    private func route(_ request: Request, context: Context) async throws -> Response {
        // Routed first: the method check only runs for what the router does not know (it
        // walks every route, a seventh of a create's time when it ran for each request).
        let routed: Response
        do { routed = try await router.respond(to: request, context: context) } catch let error as HTTPError where error.status == .notFound {
            return try methodNotAllowed(request) ?? notFound(request) ?? { throw error }()
        } catch let failure as SandboxStoreUnavailable {
            reportProblem?("\(request.method) \(request.uri.path): 503, the store failed: \(failure.underlying)")
            return await Self.unavailable(failure, request: request, providers: providers)
        }
        // A 404 without a Content-Type is the router's own (every route's 404 is a JSON error).
        guard routed.status == .notFound, !routed.headers.contains(.contentType) else { return routed }
        return methodNotAllowed(request) ?? notFound(request) ?? routed
    }

    /// 404 in the error shape of the provider whose paths these are; nil when no provider owns the path.
    private func notFound(_ request: Request) -> Response? {
        let path = request.uri.path
        guard let owner = providers.owner(of: path) else { return nil }
        return owner.refusalResponse(SandboxError(.notFound, "NOT_FOUND", "No endpoint answers \(request.method.rawValue) \(path.prefix(128)).", field: nil))
    }

    /// 405 for a path some route answers, asked with a method none does; nil otherwise.
    private func methodNotAllowed(_ request: Request) -> Response? {
        let path = request.uri.path
        guard let allowed = methods.allowed(on: path), !allowed.contains(request.method.rawValue) else { return nil }
        let refusal = SandboxError.methodNotAllowed(request.method, path: path, allowed: allowed)
        var response = providers.owner(of: path)?.refusalResponse(refusal) ?? refusal.response
        response.headers[.allow] = allowed.joined(separator: ", ")
        return response
    }

    /// 503 in the error shape of the provider `request` belongs to (the sandbox's own list elsewhere).
    static func unavailable(_ failure: SandboxStoreUnavailable, request: Request, providers: [any SandboxProvider]) async -> Response {
        let fault = InjectedFault(kind: .serviceUnavailable, error: failure.error)
        return await providers.owner(of: request)?.faultResponse(fault) ?? fault.error.response
    }
}
