import Hummingbird

/// The router, behind the one check it cannot make: a path it knows, asked with a method it
/// does not answer, gets 405 with `Allow` in the error shape of the provider owning the path.
struct SandboxResponder: HTTPResponder {
    typealias Context = SandboxRequestContext

    let router: RouterResponder<SandboxRequestContext>
    let methods: RouteMethods
    let providers: [any SandboxProvider]

    func respond(to request: Request, context: Context) async throws -> Response {
        let path = request.uri.path
        guard let allowed = methods.allowed(on: path), !allowed.contains(request.method.rawValue) else {
            return try await router.respond(to: request, context: context)
        }
        let refusal = SandboxRefusal.methodNotAllowed(request.method, path: path, allowed: allowed)
        var response = providers.owner(of: path)?.refusalResponse(refusal) ?? SandboxResponse.sandboxRefusal(refusal)
        response.headers[.allow] = allowed.joined(separator: ", ")
        return response
    }
}
