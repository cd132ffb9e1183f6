import Foundation
import ProviderWire

/// The sandbox's customer requests and idempotency keys, shared by every connection.
public final class CustomerRequestStore: Sendable {
    struct StoredRequest: StoredRecord, Codable, Equatable {
        var request: CustomerRequest
        let clientID: String
        /// Mixed into trigger tokens so links cannot be guessed from the id alone.
        let triggerSeed: String
        /// Its idempotency key, scoped by client.
        let scopedKey: String
        /// What it was created with: the same key with other params is refused.
        let params: CreateCustomerRequestParams

        var storeKey: String { request.id }
        var storeIdempotencyKey: String? { scopedKey }
        static var storeBodyOmitsSequence: Bool { true }
        var storedJSON: String? { StoredRequestJSON.text(self) }
    }

    let settings: SandboxSettings
    private let records: ProviderStore<StoredRequest>

    public init(settings: SandboxSettings) {
        self.settings = settings
        records = ProviderStore("cashapp.requests", in: settings.storage)
    }

    /// What every read and change sees: nothing past its retention.
    private func moment(_ now: Date) -> StoreMoment { StoreMoment(now: now, limits: settings.limits) }

    /// The request holding grant `id`, and the grant: what Afterpay's validation checks.
    func grant(id: String) async throws(SandboxStoreUnavailable) -> (CustomerRequest, Grant)? {
        let holder = try await records.first(at: moment(settings.now())) { stored in stored.request.grants?.contains { $0.id == id } == true }
        guard let request = holder?.request, let grant = request.grants?.first(where: { $0.id == id }) else { return nil }
        return (request, grant)
    }

    /// How many customer requests exist: tests check retries never create twice.
    public var requestCount: Int { get async throws { try await records.count() } }

    enum CreateOutcome {
        case created(CustomerRequest)
        case replayed(CustomerRequest)
        case keyReused
    }

    /// Creates a request, or replays the one made earlier with the same key and body.
    func create(
        params: CreateCustomerRequestParams, idempotencyKey: String, clientID: String, baseURL: String
    ) async throws(SandboxStoreUnavailable) -> CreateOutcome {
        let now = settings.now()
        let scopedKey = clientID + "\u{0}" + idempotencyKey
        let outcome = try await records.create(idempotencyKey: scopedKey, at: moment(now), sameRequest: { $0.params == params }) { _ in
            let request = CustomerRequest(
                id: SandboxIDs.make("GRR_"), status: .PENDING, actions: params.actions, authFlowTriggers: nil,
                redirectURL: params.redirectURL, createdAt: now, updatedAt: now,
                expiresAt: now.addingTimeInterval(settings.requestLifetime),
                origin: .init(type: "DIRECT"), channel: params.channel, referenceID: params.referenceID,
                requesterProfile: .init(name: settings.merchantName, logoURL: baseURL + MerchantLogoRoute.path),
                customerProfile: nil, metadata: params.metadata, grants: nil)
            return StoredRequest(
                request: request, clientID: clientID, triggerSeed: SandboxIDs.make("", length: 8), scopedKey: scopedKey, params: params)
        }
        switch outcome {
        case .created(let stored): return .created(presentExpiring(stored, now: now, baseURL: baseURL))
        case .replayed(let stored): return .replayed(presentExpiring(stored, now: now, baseURL: baseURL))
        case .keyReused, .claimTaken: return .keyReused
        }
    }

    /// The request as its owner sees it now (expired requests are declined on read).
    func retrieve(id: String, clientID: String?, baseURL: String) async throws(SandboxStoreUnavailable) -> CustomerRequest? {
        let now = settings.now()
        // A read, unless the request's expiry has come: only then is the record changed (a
        // read costs the store no copy written back, and a database no row lock).
        guard let stored = try await records.record(.key(id), at: moment(now)) else { return nil }
        guard clientID == nil || stored.clientID == clientID else { return nil }
        guard isExpiryDue(stored, now: now) else { return present(stored, now: now, baseURL: baseURL) }
        return try await records.update(.key(id), at: moment(now)) { stored -> CustomerRequest? in
            guard clientID == nil || stored.clientID == clientID else { return nil }
            expireIfDue(&stored, now: now)
            return present(stored, now: now, baseURL: baseURL)
        }.value ?? nil
    }

    enum ChangeOutcome {
        case changed(CustomerRequest)
        case notFound
        case notPending(CustomerRequest.Status)
    }

    /// Changes a pending request; anything decided (or expired) is left alone.
    func change(
        id: String, clientID: String?, baseURL: String, _ body: (inout CustomerRequest, Date) -> Void
    ) async throws(SandboxStoreUnavailable) -> ChangeOutcome {
        let now = settings.now()
        return try await records.update(.key(id), at: moment(now)) { stored -> ChangeOutcome in
            guard clientID == nil || stored.clientID == clientID else { return .notFound }
            expireIfDue(&stored, now: now)
            guard stored.request.status == .PENDING else { return .notPending(stored.request.status) }
            body(&stored.request, now)
            stored.request.updatedAt = now
            return .changed(present(stored, now: now, baseURL: baseURL))
        }.value ?? .notFound
    }

    /// The current trigger token for a pending request, to check a scanned link is fresh.
    func currentTriggerToken(id: String) async throws(SandboxStoreUnavailable) -> String? {
        let now = settings.now()
        return try await records.record(.key(id), at: moment(now)).map { triggerToken(for: $0, now: now) }
    }

    /// Whether `token` is a `t=` of request `id`'s links (this rotation's or an earlier one's: the
    /// page still opens from a rotated link): whoever scanned its code or opened its link holds it.
    func holdsLink(id: String, token: String?) async throws(SandboxStoreUnavailable) -> Bool {
        guard let token, let current = try await currentTriggerToken(id: id) else { return false }
        return Self.sameLink(token, current)
    }

    /// Whether two trigger tokens (`ROTATION-SEED`) are of one request: the same seed.
    static func sameLink(_ token: String, _ current: String) -> Bool {
        func seed(_ token: String) -> Substring? {
            guard let dash = token.firstIndex(of: "-"), token.startIndex < dash, token[..<dash].allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return token[token.index(after: dash)...]
        }
        guard let given = seed(token), let known = seed(current), !known.isEmpty else { return false }
        return given == known
    }

    enum TriggerLookup {
        case pending(mobileURL: String, token: String)
        case notFound
        case notPending(CustomerRequest.Status)
    }

    /// A request's current `mobile_url` and trigger token, read together so a rotation
    /// between the two cannot pair an old link with a new token (for the QR images).
    func currentTrigger(id: String, baseURL: String) async throws(SandboxStoreUnavailable) -> TriggerLookup {
        let now = settings.now()
        return try await records.update(.key(id), at: moment(now)) { stored -> TriggerLookup in
            expireIfDue(&stored, now: now)
            let request = present(stored, now: now, baseURL: baseURL)
            guard let mobileURL = request.authFlowTriggers?.mobileURL else { return .notPending(request.status) }
            return .pending(mobileURL: mobileURL, token: triggerToken(for: stored, now: now))
        }.value ?? .notFound
    }

    /// The request with its expiry applied and its triggers for `now`.
    private func presentExpiring(_ stored: StoredRequest, now: Date, baseURL: String) -> CustomerRequest {
        var stored = stored
        expireIfDue(&stored, now: now)
        return present(stored, now: now, baseURL: baseURL)
    }

    /// The request with its triggers for `now` (expiry already applied).
    private func present(_ stored: StoredRequest, now: Date, baseURL: String) -> CustomerRequest {
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

    private func isExpiryDue(_ stored: StoredRequest, now: Date) -> Bool {
        stored.request.status == .PENDING && now >= stored.request.expiresAt
    }

    private func expireIfDue(_ stored: inout StoredRequest, now: Date) {
        guard isExpiryDue(stored, now: now) else { return }
        stored.request.status = .DECLINED
        stored.request.updatedAt = stored.request.expiresAt
    }
}
