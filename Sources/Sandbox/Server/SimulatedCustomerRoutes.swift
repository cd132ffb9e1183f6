import Hummingbird

/// `POST /sandbox/customer-requests/{id}/approve|decline|abandon`: the simulated customer acts on
/// an attempt of whichever provider owns the id.
struct SimulatedCustomerRoutes {
    let providers: [any SandboxProvider]
    let core: SandboxCore

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        let customer = router.group("sandbox/customer-requests")
        customer.post(":id/approve") { request, context in try await act(approve: true, request: request, id: context.parameters.get("id") ?? "") }
        customer.post(":id/decline") { request, context in try await act(approve: false, request: request, id: context.parameters.get("id") ?? "") }
        customer.post(":id/abandon") { request, context in try await abandon(request: request, id: context.parameters.get("id") ?? "") }
    }

    /// Leaving the provider's page unpaid; only providers with such a page (Antom's bank) take it.
    /// Each act is one transaction of the sandbox's store.
    private func abandon(request: Request, id: String) async throws -> Response {
        try await core.settings.storage.atomically {
            for provider in providers {
                if let answer = try await provider.customerAbandons(id, request: request, core: core) { return answer }
            }
            return notFound(id).response
        }
    }

    private func act(approve: Bool, request: Request, id: String) async throws -> Response {
        try await core.settings.storage.atomically {
            for provider in providers {
                if let answer = try await provider.customerActs(approve: approve, on: id, request: request, core: core) { return answer }
            }
            return notFound(id).response
        }
    }
}
