import Hummingbird

/// Who may steer a shared sandbox: with a control token set (`checkout sandbox --control-token…`),
/// every route under `/sandbox/` answers only requests carrying `Authorization: Bearer <token>`,
/// compared in constant time (`SandboxControlToken`), and 401 with `WWW-Authenticate: Bearer` in
/// the sandbox's own error list otherwise.
///
/// Deny by default: a route under `/sandbox/` is guarded unless it is on the allow-list, so a
/// control route added later (the ledger, faults, webhooks, reset, a journal…) is guarded without
/// naming it here, and so is a path no route answers. The allow-list is `GET /sandbox/health` and
/// the customer's own pages each provider declares (`SandboxProvider.customerRoutes`): the
/// authorization link page and its QR images, the approve/decline buttons of that page when they
/// carry its `t=` token, the merchant logo, Afterpay's checkout page, Antom's cashier and bank
/// pages with their buttons, and Square's receipt page. Provider API routes (not under
/// `/sandbox/`) keep each provider's own credential checks and are not looked at.
struct ControlTokenMiddleware: RouterMiddleware {
    typealias Context = SandboxRequestContext

    let token: SandboxControlToken
    let open: [SandboxOpenRoute]

    /// The server's own open routes: the health check monitors and `checkout` poll.
    static let serverRoutes = [SandboxOpenRoute(.get, "/sandbox/health")]

    init(token: SandboxControlToken, providers: [any SandboxProvider]) {
        self.token = token
        open = Self.serverRoutes + providers.flatMap(\.customerRoutes)
    }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        // The provider APIs' requests (the hot path) pass after a look at their first segment.
        guard Self.isSandbox(path.drop { $0 == "/" }.prefix { $0 != "/" }) else { return try await next(request, context) }
        let segments = path.split(separator: "/")
        if let route = open.first(where: { $0.matches(request.method, segments) }) {
            if try await route.admits?(request, segments) ?? true { return try await next(request, context) }
        }
        let sent = request.headers.value(.authorization)
        if token.admits(authorization: sent) { return try await next(request, context) }
        return Self.refusal(tokenSent: sent != nil)
    }

    /// `sandbox` however the router might read it (percent-encoded, another case): deny rather
    /// than miss a spelling.
    static func isSandbox(_ segment: Substring) -> Bool {
        if segment == "sandbox" { return true }
        if segment.utf8.contains(UInt8(ascii: "%")) { return (String(segment).removingPercentEncoding ?? String(segment)).lowercased() == "sandbox" }
        return segment.utf8.count == 7 && segment.lowercased() == "sandbox"
    }

    /// 401 in the sandbox's own error list, saying what to send (never what was sent).
    static func refusal(tokenSent: Bool) -> Response {
        let message =
            tokenSent
            ? "The control token sent is not this sandbox's: send Authorization: Bearer <token> with the token `checkout sandbox` was started with."
            : "This sandbox's /sandbox/ control routes need its control token: send Authorization: Bearer <token> "
                + "(checkout and checkout run: --sandbox-token-file or CHECKOUT_SANDBOX_CONTROL_TOKEN)."
        var response = SandboxError(.unauthorized, tokenSent ? "CONTROL_TOKEN_REJECTED" : "CONTROL_TOKEN_REQUIRED", message).response
        response.headers[.wwwAuthenticate] = tokenSent ? #"Bearer realm="checkout sandbox", error="invalid_token""# : #"Bearer realm="checkout sandbox""#
        return response
    }
}
