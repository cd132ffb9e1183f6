import Foundation
import Hummingbird
import ProviderWire

/// Adyen's Checkout API (v71/v72, any `/vNN/` but Afterpay's `/v2/`) for Cash App Pay:
/// payment methods, payments, details, modifications and stored methods, with signed webhooks
/// (through `/sandbox/webhooks`) and its rows in `/sandbox/ledger`.
public struct AdyenSandbox: SandboxProvider {
    public let id: String
    public let payments: AdyenPaymentStore
    public let storedMethods: AdyenStoredMethodStore
    public let sessions: AdyenSessionStore
    let idempotency: AdyenIdempotencyStore
    /// Cash App's requests, where the grants Adyen's Cash App Pay payments are funded by live.
    public let cashApp: CashAppSandbox

    public init(id: String, cashApp: CashAppSandbox, settings: SandboxSettings) async {
        self.id = id
        payments = AdyenPaymentStore(storage: settings.storage)
        storedMethods = AdyenStoredMethodStore(storage: settings.storage)
        sessions = AdyenSessionStore(storage: settings.storage)
        idempotency = AdyenIdempotencyStore(storage: settings.storage)
        self.cashApp = cashApp
    }

    public var summary: String { "Adyen Checkout under /v71/ (any /vNN/ but /v2/; sessions' component calls under /checkoutshopper/v1/; webhooks at /sandbox/webhooks)" }
    /// The client-key host's paths (the sessions flow's component calls); the Checkout API's
    /// are claimed by pattern (`claims(path:)`), after Afterpay's `/v2/`.
    public var pathPrefixes: [String] { ["/checkoutshopper/"] }

    /// `/v<digits>/…`: the version segment Adyen's paths start with.
    public func claims(path: String) -> Bool {
        let segments = path.split(separator: "/", maxSplits: 2)
        return segments.count >= 2 && AdyenRequestReader.isVersion(String(segments[0]))
    }

    public func register(on router: some RouterMethods<SandboxRequestContext>, core: SandboxCore) {
        let endpoint = AdyenEndpoint(
            payments: payments, storedMethods: storedMethods, idempotency: idempotency, customerRequests: cashApp.requests,
            notifier: AdyenNotifier(webhooks: core.webhooks, settings: core.settings), settings: core.settings, cardTokens: core.cardTokens)
        // A Received payment decided by time: its AUTHORISATION, from the instance that decided it.
        payments.setSink { decided in
            Task {
                for payment in decided { try? await AdyenPayments(endpoint: endpoint).authorisation(payment) }
            }
        }
        AdyenPaymentRoutes(endpoint: endpoint).register(on: router)
        AdyenModificationRoutes(endpoint: endpoint).register(on: router)
        AdyenStoredMethodRoutes(endpoint: endpoint).register(on: router)
        AdyenSessionRoutes(endpoint: endpoint, sessions: sessions).register(on: router)
    }

    public func faultResponse(_ fault: InjectedFault) -> Response {
        let (code, type) =
            switch fault.kind {
            case .rateLimited: ("000", "throttling")
            default: ("000", "internal")
            }
        return AdyenRejection(fault.error.status, code, fault.error.message, type: type, pspReference: AdyenIDs.pspReference()).response
    }

    public func refusalResponse(_ refusal: SandboxError) -> Response {
        AdyenRejection(refusal.status, "000", refusal.message, type: "validation").response
    }

    /// Received payments whose decision is due are decided (and their AUTHORISATION sent).
    public func applyDue(now: Date) async throws {
        try await payments.applyDue(now: now)
    }

    /// `adyen_payments` (Authorised payments) and `adyen_captures`.
    public func ledgerSections(now: Date, limits: SandboxLimits) async throws -> [SandboxLedgerSection] {
        try await payments.evictDue(now: now, limits: limits)
        return [
            SandboxLedgerSection(name: "adyen_payments", rows: try await payments.paymentRows),
            SandboxLedgerSection(name: "adyen_captures", rows: try await payments.captureRows),
        ]
    }

    /// One charge per Authorised payment (what `adyen_payments` lists).
    public func charges(now: Date) async throws -> [SandboxCharge] {
        try await payments.paymentRows.map {
            SandboxCharge(provider: id, id: $0.pspReference, reference: $0.merchantReference, amount: $0.amount, currency: $0.currency)
        }
    }
}

extension RunningSandbox {
    /// The Adyen side of this sandbox, when it serves Adyen.
    public var adyenSandbox: AdyenSandbox? { providers.lazy.compactMap { $0 as? AdyenSandbox }.first }
}
