import Hummingbird

/// The router, behind the one check it cannot make: a path it knows, asked with a method it
/// does not answer, gets 405 with `Allow` in the error shape of the provider owning the path.
struct SandboxResponder: HTTPResponder {
    typealias Context = SandboxRequestContext

    let router: RouterResponder<SandboxRequestContext>
    let methods: RouteMethods
    let providers: [any SandboxProvider]

    func respond(to request: Request, context: Context) async throws -> Response {
        // Routed first: the method check only runs for what the router does not know (it
        // walks every route, a seventh of a create's time when it ran for each request).
        let routed: Response
        do { routed = try await router.respond(to: request, context: context) } catch let error as HTTPError where error.status == .notFound {
            return try methodNotAllowed(request) ?? { throw error }()
        }
        guard routed.status == .notFound, let refused = methodNotAllowed(request) else { return routed }
        return refused
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
}
