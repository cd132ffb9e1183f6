import Foundation
import Hummingbird
import ProviderWire

/// The Customer Request API under its real paths (`/customer-request/v1/requests…`).
struct CustomerRequestRoutes {
    let store: CustomerRequestStore

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        let requests = router.group("customer-request/v1/requests")
        requests.post { request, context in try await answer {
            try await create(request, context)
        } }
        requests.get(":id") { request, context in try await answer {
            let clientID = try CustomerRequestValidation.authenticate(request.headers.value(.authorization))
            let id = context.parameters.get("id") ?? ""
            guard let found = try await store.retrieve(id: id, clientID: clientID, baseURL: request.baseURL) else {
                throw notFound(id)
            }
            return SandboxResponse.customerRequest(found)
        } }
        requests.patch(":id") { request, context in try await answer {
            try await update(request, context)
        } }
    }

    private func create(_ request: Request, _ context: SandboxRequestContext) async throws -> Response {
        let clientID = try CustomerRequestValidation.authenticate(request.headers.value(.authorization))
        let body = try CustomerRequestValidation.decodeCreate(try await collect(request, context))
        try CustomerRequestValidation.checkScopes(body.request.actions)
        if CustomerRequestValidation.isMagicServerError(body.request.actions) {
            throw CashAppRejection(.internalServerError, "API_ERROR", "INTERNAL_SERVER_ERROR", "Sandbox magic amount 6670: the API failed.")
        }
        switch try await store.create(params: body.request, idempotencyKey: body.idempotencyKey, clientID: clientID, baseURL: request.baseURL) {
        case .created(let created), .replayed(let created):
            return SandboxResponse.customerRequest(created, status: .created)
        case .keyReused:
            throw CashAppRejection(
                .badRequest, "INVALID_REQUEST_ERROR", "IDEMPOTENCY_KEY_REUSED",
                "This idempotency_key was already used with a different request; use a new key for a new request.",
                field: "idempotency_key")
        }
    }

    private func update(_ request: Request, _ context: SandboxRequestContext) async throws -> Response {
        let clientID = try CustomerRequestValidation.authenticate(request.headers.value(.authorization))
        let id = context.parameters.get("id") ?? ""
        let params = try CustomerRequestValidation.decodeUpdate(try await collect(request, context))
        if let actions = params.actions {
            try CustomerRequestValidation.checkScopes(actions)
            if CustomerRequestValidation.isMagicServerError(actions) {
                throw CashAppRejection(.internalServerError, "API_ERROR", "INTERNAL_SERVER_ERROR", "Sandbox magic amount 6670: the API failed.")
            }
        }
        let outcome = try await store.change(id: id, clientID: clientID, baseURL: request.baseURL) { stored, _ in
            if let actions = params.actions { stored.actions = actions }
            stored.referenceID = params.referenceID
            stored.metadata = params.metadata
        }
        switch outcome {
        case .changed(let changed): return SandboxResponse.customerRequest(changed)
        case .notFound: throw notFound(id)
        case .notPending(let status):
            throw CashAppRejection(
                .badRequest, "INVALID_REQUEST_ERROR", "INVALID_STATE_TRANSITION",
                "The request is already \(status) and can no longer be updated.")
        }
    }

    private func collect(_ request: Request, _ context: SandboxRequestContext) async throws(CashAppRejection) -> Data {
        do { return try await request.readBody(limit: store.settings.limits.maxBodyBytes) } catch let error as BodyTooLarge {
            throw CashAppRejection(.contentTooLarge, "INVALID_REQUEST_ERROR", "VALUE_TOO_LONG", "The \(error).")
        } catch {
            throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_REGEX_MISMATCH", "The body could not be read.")
        }
    }
}

func notFound(_ id: String) -> CashAppRejection {
    CashAppRejection(.notFound, "INVALID_REQUEST_ERROR", "NOT_FOUND", "No customer request \(id).", field: "id")
}

/// Runs a handler, turning its rejection into the Cash App error response; a store failure goes
/// on up (`SandboxResponder` answers it).
func answer(_ handler: () async throws -> Response) async throws -> Response {
    do { return try await handler() } catch let rejection as CashAppRejection { return rejection.response }
}
