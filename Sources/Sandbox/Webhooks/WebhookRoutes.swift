import Foundation
import Hummingbird

/// `POST /sandbox/webhooks {"url": …}` registers a receiver, `GET` lists them, `DELETE
/// /sandbox/webhooks/{id}` removes one; `GET /sandbox/webhooks/deliveries` shows the latest
/// deliveries. Errors use the sandbox's own error list.
struct WebhookRoutes {
    let dispatcher: WebhookDispatcher
    let limits: SandboxLimits

    private struct Registration: Decodable { let url: String }

    func register(on router: some RouterMethods<SandboxRequestContext>) {
        router.post("sandbox/webhooks") { request, _ in try await add(request) }
        router.get("sandbox/webhooks") { _, _ in SandboxResponse.json(["receivers": try await dispatcher.receivers.all]) }
        router.get("sandbox/webhooks/deliveries") { _, _ in SandboxResponse.json(["deliveries": try await dispatcher.log.all]) }
        router.delete("sandbox/webhooks/:id") { _, context in
            let id = context.parameters.get("id") ?? ""
            guard try await dispatcher.receivers.remove(id: id) else {
                return SandboxError(.notFound, "NOT_FOUND", "No webhook receiver \(id).").response
            }
            return Response(status: .noContent)
        }
    }

    private func add(_ request: Request) async throws -> Response {
        let data: Data
        do { data = try await request.readBody(limit: limits.maxBodyBytes) } catch {
            return SandboxError(.contentTooLarge, "VALUE_TOO_LONG", "The request body is too large.").response
        }
        guard let body = try? JSONDecoder().decode(Registration.self, from: data) else {
            return SandboxError(
                .badRequest, "INVALID_JSON", #"The body must be JSON {"url": "http://…"}."#, field: "url").response
        }
        do {
            return SandboxResponse.json(try await dispatcher.receivers.add(body.url), status: .created)
        } catch let refusal as WebhookReceivers.Refusal {
            switch refusal {
            case .invalid(let message):
                return SandboxError(.badRequest, "INVALID_URL", message, field: "url").response
            }
        }
    }
}
