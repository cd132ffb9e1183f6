import Hummingbird
import ProviderWire

/// The Customer Request API under its real paths.
public struct CashAppSandbox: SandboxProvider {
    public let id: String
    public init(id: String) { self.id = id }

    public var summary: String { "Cash App Pay under /customer-request/v1/requests" }
    public var pathPrefixes: [String] { ["/customer-request/"] }

    public func register(on router: Router<SandboxRequestContext>, core: SandboxCore) {
        CustomerRequestRoutes(store: core.customerRequests).register(on: router)
        CustomerSimulatorRoutes(store: core.customerRequests).register(on: router)
    }

    public func customerActs(approve: Bool, on id: String, request: Request, core: SandboxCore) -> Response? {
        CustomerSimulatorRoutes(store: core.customerRequests).act(approve: approve, request: request, id: id)
    }

    public func faultResponse(_ fault: InjectedFault) -> Response {
        SandboxResponse.cashAppError(fault.status, CashAppErrorDetail(category: fault.category, code: fault.code, detail: fault.detail))
    }
}
