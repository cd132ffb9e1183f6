import Hummingbird
import ProviderWire

/// The Customer Request API under its real paths, and the customer requests it keeps: Afterpay's
/// and Adyen's sandboxes are handed this one when made, and find their checkouts' grants in it.
public struct CashAppSandbox: SandboxProvider {
    public let id: String
    public let requests: CustomerRequestStore

    public init(id: String, settings: SandboxSettings) {
        self.id = id
        requests = CustomerRequestStore(settings: settings)
    }

    public var summary: String { "Cash App Pay under /customer-request/v1/requests" }
    public var pathPrefixes: [String] { ["/customer-request/"] }

    public func register(on router: some RouterMethods<SandboxRequestContext>, core: SandboxCore) {
        CustomerRequestRoutes(store: requests).register(on: router)
        CustomerSimulatorRoutes(store: requests).register(on: router)
        QRCodeRoutes(store: requests).register(on: router)
        MerchantLogoRoute().register(on: router)
    }

    /// The customer's side of a request, open to whoever holds its link when the sandbox has a
    /// control token: the authorization page (the `mobile_url`) and its QR images (each checks
    /// its `t=` itself), that page's Approve and Decline buttons when they carry a `t=` of the
    /// request (anything else there needs the token), and the merchant logo the page's app shows.
    public var customerRoutes: [SandboxOpenRoute] {
        let requests = self.requests
        let holdsLink: @Sendable (Request, [Substring]) async throws -> Bool = { request, path in
            try await requests.holdsLink(id: String(path[2]), token: request.uri.queryParameters.get("t"))
        }
        return [
            SandboxOpenRoute(.get, "/sandbox/customer-requests/:id/authorize"),
            SandboxOpenRoute(.get, "/sandbox/customer-requests/:id/qr.svg"),
            SandboxOpenRoute(.get, "/sandbox/customer-requests/:id/qr.png"),
            SandboxOpenRoute(.post, "/sandbox/customer-requests/:id/approve", admits: holdsLink),
            SandboxOpenRoute(.post, "/sandbox/customer-requests/:id/decline", admits: holdsLink),
            SandboxOpenRoute(.get, MerchantLogoRoute.path),
        ]
    }

    public func customerActs(approve: Bool, on id: String, request: Request, core: SandboxCore) async throws -> Response? {
        try await CustomerSimulatorRoutes(store: requests).act(approve: approve, request: request, id: id)
    }

    public func faultResponse(_ fault: InjectedFault) -> Response {
        CashAppRejection(fault.error).response
    }
}

extension RunningSandbox {
    /// The Cash App side of this sandbox, when it serves Cash App (or Afterpay or Adyen, which depend on it).
    public var cashAppSandbox: CashAppSandbox? { providers.lazy.compactMap { $0 as? CashAppSandbox }.first }
}
