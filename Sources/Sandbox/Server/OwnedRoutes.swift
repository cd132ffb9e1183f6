import HTTPTypes
import Hummingbird

/// The sandbox's router as one provider registers on it: every route goes to the router as it
/// would, and is noted as that provider's (the journal names the provider that served a
/// request). Asking Hummingbird's router for its routes walks its whole tree: twice per provider,
/// that was 7% of a headless checkout.
final class OwnedRoutes: RouterMethods {
    typealias Context = SandboxRequestContext

    private let router: Router<SandboxRequestContext>
    /// Each route registered through this: its method and the router's spelling of its path.
    private(set) var routes: [RouteMethods.Entry] = []
    /// `METHOD /path` of each, as the journal names it.
    var registered: [String] { routes.map { Self.name($0.method, $0.path) } }

    init(_ router: Router<SandboxRequestContext>) {
        self.router = router
    }

    @discardableResult
    func on<Responder: HTTPResponder>(_ path: RouterPath, method: HTTPRequest.Method, responder: Responder) -> Self
    where Responder.Context == SandboxRequestContext {
        router.on(path, method: method, responder: responder)
        routes.append(RouteMethods.Entry(method: method, path: path.description))
        return self
    }

    /// A route as the journal names it: "METHOD /pattern", the router's own spelling of each.
    static func name(_ method: HTTPRequest.Method, _ path: RouterPath) -> String {
        name(method, path.description)
    }

    static func name(_ method: HTTPRequest.Method, _ path: String) -> String {
        "\(method.rawValue) \(path)"
    }

    @discardableResult
    func add(middleware: any MiddlewareProtocol<Request, Response, SandboxRequestContext>) -> Self {
        router.add(middleware: middleware)
        return self
    }
}
