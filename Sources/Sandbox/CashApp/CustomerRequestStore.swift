import Foundation
import ProviderWire
import Synchronization

/// The sandbox's customer requests and idempotency keys, shared by every connection.
public final class CustomerRequestStore: Sendable {
    struct StoredRequest: Sendable {
        var request: CustomerRequest
        let clientID: String
        /// Mixed into trigger tokens so links cannot be guessed from the id alone.
        let triggerSeed: String
        /// Its idempotency record's key, forgotten with it.
        let scopedKey: String
    }

    struct IdempotencyRecord: Sendable {
        let params: CreateCustomerRequestParams
        let requestID: String
    }

    private struct State: Sendable {
        var requests: [String: StoredRequest] = [:]
        var idempotency: [String: IdempotencyRecord] = [:]
        var age = RetentionQueue()

        /// Forgets requests past the retention age, then the oldest beyond `capacity`.
        mutating func evict(now: Date, limits: SandboxLimits, capacity: Int) {
            for id in age.evict(now: now, retention: limits.requestRetention, capacity: capacity) {
                if let gone = requests.removeValue(forKey: id) { idempotency.removeValue(forKey: gone.scopedKey) }
            }
        }

        /// What every read and change sees: nothing past its retention.
        mutating func evictDue(now: Date, limits: SandboxLimits) {
            evict(now: now, limits: limits, capacity: limits.maxStoredRequests)
        }
    }

    let settings: SandboxSettings
    private let state = Mutex(State())

    public init(settings: SandboxSettings) {
        self.settings = settings
    }

    /// The request holding grant `id`, and the grant: what Afterpay's validation checks.
    func grant(id: String) -> (CustomerRequest, Grant)? {
        let now = settings.now()
        return state.withLock { state in
            state.evictDue(now: now, limits: settings.limits)
            for stored in state.requests.values {
                if let grant = stored.request.grants?.first(where: { $0.id == id }) { return (stored.request, grant) }
            }
            return nil
        }
    }

    /// How many customer requests exist: tests check retries never create twice.
    public var requestCount: Int { state.withLock { $0.requests.count } }

    enum CreateOutcome {
        case created(CustomerRequest)
        case replayed(CustomerRequest)
        case keyReused
    }

    /// Creates a request, or replays the one made earlier with the same key and body.
    func create(
        params: CreateCustomerRequestParams, idempotencyKey: String, clientID: String, baseURL: String
    ) -> CreateOutcome {
        let now = settings.now()
        return state.withLock { state in
            state.evictDue(now: now, limits: settings.limits)
            let scopedKey = clientID + "\u{0}" + idempotencyKey
            if let record = state.idempotency[scopedKey] {
                guard record.params == params, let stored = state.requests[record.requestID] else { return .keyReused }
                return .replayed(present(stored, now: now, baseURL: baseURL, state: &state))
            }
            let id = SandboxIDs.make("GRR_")
            let request = CustomerRequest(
                id: id, status: .PENDING, actions: params.actions, authFlowTriggers: nil,
                redirectURL: params.redirectURL, createdAt: now, updatedAt: now,
                expiresAt: now.addingTimeInterval(settings.requestLifetime),
                origin: .init(type: "DIRECT"), channel: params.channel, referenceID: params.referenceID,
                requesterProfile: .init(name: settings.merchantName, logoURL: nil),
                customerProfile: nil, metadata: params.metadata, grants: nil)
            // Room for this one: the oldest go first.
            state.evict(now: now, limits: settings.limits, capacity: settings.limits.maxStoredRequests - 1)
            let stored = StoredRequest(request: request, clientID: clientID, triggerSeed: SandboxIDs.make("", length: 8), scopedKey: scopedKey)
            state.requests[id] = stored
            state.age.append(id, createdAt: now)
            state.idempotency[scopedKey] = IdempotencyRecord(params: params, requestID: id)
            return .created(present(stored, now: now, baseURL: baseURL, state: &state))
        }
    }

    /// The request as its owner sees it now (expired requests are declined on read).
    func retrieve(id: String, clientID: String?, baseURL: String) -> CustomerRequest? {
        let now = settings.now()
        return state.withLock { state in
            state.evictDue(now: now, limits: settings.limits)
            guard let stored = state.requests[id], clientID == nil || stored.clientID == clientID else { return nil }
            return present(stored, now: now, baseURL: baseURL, state: &state)
        }
    }

    enum ChangeOutcome {
        case changed(CustomerRequest)
        case notFound
        case notPending(CustomerRequest.Status)
    }

    /// Changes a pending request; anything decided (or expired) is left alone.
    func change(
        id: String, clientID: String?, baseURL: String, _ body: (inout CustomerRequest, Date) -> Void
    ) -> ChangeOutcome {
        let now = settings.now()
        return state.withLock { state in
            state.evictDue(now: now, limits: settings.limits)
            guard var stored = state.requests[id], clientID == nil || stored.clientID == clientID else { return .notFound }
            expireIfDue(&stored, now: now)
            guard stored.request.status == .PENDING else {
                state.requests[id] = stored
                return .notPending(stored.request.status)
            }
            body(&stored.request, now)
            stored.request.updatedAt = now
            state.requests[id] = stored
            return .changed(present(stored, now: now, baseURL: baseURL, state: &state))
        }
    }

    /// The current trigger token for a pending request, to check a scanned link is fresh.
    func currentTriggerToken(id: String) -> String? {
        let now = settings.now()
        return state.withLock { state in
            state.evictDue(now: now, limits: settings.limits)
            return state.requests[id].map { triggerToken(for: $0, now: now) }
        }
    }

    enum TriggerLookup {
        case pending(mobileURL: String, token: String)
        case notFound
        case notPending(CustomerRequest.Status)
    }

    /// A request's current `mobile_url` and trigger token, read together so a rotation
    /// between the two cannot pair an old link with a new token (for the QR images).
    func currentTrigger(id: String, baseURL: String) -> TriggerLookup {
        let now = settings.now()
        return state.withLock { state in
            state.evictDue(now: now, limits: settings.limits)
            guard let stored = state.requests[id] else { return .notFound }
            let request = present(stored, now: now, baseURL: baseURL, state: &state)
            guard let mobileURL = request.authFlowTriggers?.mobileURL else { return .notPending(request.status) }
            return .pending(mobileURL: mobileURL, token: triggerToken(for: stored, now: now))
        }
    }

    /// Applies expiry and computes the triggers for `now`.
    private func present(_ stored: StoredRequest, now: Date, baseURL: String, state: inout State) -> CustomerRequest {
        var stored = stored
        expireIfDue(&stored, now: now)
        state.requests[stored.request.id] = stored
        var request = stored.request
        if request.status == .PENDING {
            let link = "\(baseURL)/sandbox/customer-requests/\(request.id)"
            let token = triggerToken(for: stored, now: now)
            request.authFlowTriggers = .init(
                qrCodeImageURL: "\(link)/qr.png?t=\(token)",
                qrCodeSVGURL: "\(link)/qr.svg?t=\(token)",
                mobileURL: "\(link)/authorize?t=\(token)",
                refreshesAt: refreshesAt(for: stored.request, now: now))
        } else {
            request.authFlowTriggers = nil
        }
        return request
    }

    private func rotation(for request: CustomerRequest, now: Date) -> Int {
        max(0, Int((now.timeIntervalSince(request.createdAt) / settings.triggerRotation).rounded(.down)))
    }

    private func refreshesAt(for request: CustomerRequest, now: Date) -> Date {
        request.createdAt.addingTimeInterval(Double(rotation(for: request, now: now) + 1) * settings.triggerRotation)
    }

    private func triggerToken(for stored: StoredRequest, now: Date) -> String {
        "\(rotation(for: stored.request, now: now))-\(stored.triggerSeed)"
    }

    private func expireIfDue(_ stored: inout StoredRequest, now: Date) {
        guard stored.request.status == .PENDING, now >= stored.request.expiresAt else { return }
        stored.request.status = .DECLINED
        stored.request.updatedAt = stored.request.expiresAt
    }
}
