import Foundation
import Hummingbird
import ProviderWire

/// What every Adyen route shares: its stores, the request checks, the webhooks, and the
/// `Idempotency-Key` handling of POSTs.
struct AdyenEndpoint: Sendable {
    let payments: AdyenPaymentStore
    let storedMethods: AdyenStoredMethodStore
    let idempotency: AdyenIdempotencyStore
    let customerRequests: CustomerRequestStore
    let notifier: AdyenNotifier
    let settings: SandboxSettings
    /// Reads the Apple Pay tokens a device wallet issues; nil when the sandbox has no wallet.
    let cardTokens: (any CardTokenReader)?

    var reader: AdyenRequestReader { AdyenRequestReader(limits: settings.limits) }

    /// A POST answer before it becomes a response, so an idempotent one can be kept and replayed.
    struct Answer: Sendable {
        let status: HTTPResponse.Status
        let body: Data

        init<Value: Encodable>(_ value: Value, status: HTTPResponse.Status = .ok) {
            self.status = status
            body = AdyenJSON.data(value)
        }
    }

    /// Authenticates, reads the body, and runs `handler` once per `Idempotency-Key`: the same
    /// key and body again replays the first answer; another body, or the first still running,
    /// gets `704`. Refused requests keep no record, so their key can be retried.
    func post(
        _ request: Request, _ context: SandboxRequestContext,
        _ handler: @escaping @Sendable (_ body: Data, _ idempotencyKey: String?) async throws -> Answer
    ) async throws -> Response {
        try await adyenAnswer { () throws -> Response in
            let apiKey = try reader.authenticate(request, context)
            let key = try reader.idempotencyKey(request)
            let data = try await reader.body(request)
            // Each operation is one transaction: its payments, stored methods, webhook log and
            // idempotent answer are kept together or not at all.
            guard let key else {
                let answer = try await settings.storage.atomically { try await handler(data, nil) }
                return AdyenJSON.response(data: answer.body, status: answer.status)
            }
            let fingerprint = AdyenIdempotencyStore.fingerprint(path: request.uri.path, body: data)
            switch try await idempotency.begin(scope: apiKey, key: key, fingerprint: fingerprint, now: settings.now(), limits: settings.limits) {
            case .replay(let status, let body):
                return AdyenJSON.response(data: body, status: HTTPResponse.Status(code: status))
            case .inProgress:
                var rejection = AdyenRejection(.conflict, "704", "request already processed or in progress")
                rejection.headers[HTTPFields.Element.Name("transient-error")!] = "true"
                throw rejection
            case .mismatch:
                var rejection = AdyenRejection(
                    .unprocessableContent, "704", "request already processed or in progress: this Idempotency-Key was used with another request")
                rejection.headers[HTTPFields.Element.Name("transient-error")!] = "false"
                throw rejection
            case .fresh:
                let answer: Answer
                do {
                    // The answer is kept in the operation's transaction: a payment made is never
                    // without the answer a retry replays.
                    answer = try await settings.storage.atomically {
                        let answer = try await handler(data, key)
                        try await idempotency.finish(scope: apiKey, key: key, status: Int(answer.status.code), body: answer.body)
                        return answer
                    }
                } catch let rejection as AdyenRejection {
                    // Refused before anything moved: the key is free for a corrected request.
                    try? await idempotency.release(scope: apiKey, key: key)
                    throw rejection
                }
                // Any other failure (the store) leaves the key in progress (a commit that failed may
                // still have been kept): a retry hears 704 (transient) rather than paying twice,
                // until the in-progress mark's lease runs out.
                return AdyenJSON.response(data: answer.body, status: answer.status)
            }
        }
    }

    /// A GET or DELETE: authenticated, no body.
    func read(
        _ request: Request, _ context: SandboxRequestContext, _ handler: @escaping @Sendable () async throws -> Response
    ) async throws -> Response {
        try await adyenAnswer { () throws -> Response in
            _ = try reader.authenticate(request, context)
            return try await settings.storage.atomically { try await handler() }
        }
    }

    /// A required merchantAccount, checked.
    static func merchant(_ account: String?) throws -> String {
        guard let account else { throw AdyenRejection(.badRequest, "702", "Required field 'merchantAccount' is not provided.") }
        try AdyenRequestReader.checkMerchant(account)
        return account
    }
}
