import Foundation
import Hummingbird
import ProviderWire
import Synchronization

/// Square's Payments API (`/v2/payments…`, `Authorization: Bearer EAAA…`): create with the
/// sandbox's test nonces (keyed, and the emulated reader's card-present ones), delayed capture
/// with its deadline (sped up by `SandboxSettings.timeScale`), update (amount, tip, fee, delay
/// action) while APPROVED, complete, cancel, cancel by idempotency key and list; receipts at `/sandbox/square/receipts/{id}`; `square_payments` and
/// `charges` in `/sandbox/ledger`.
///
/// Afterpay also lives under `/v2/` and answers `GET /v2/payments/{reference}`: Square claims its
/// requests (`claims`) by their paths and, where the paths are shared, by the Bearer token or
/// `Square-Version` header a Square client sends.
public actor SquareSandbox: SandboxProvider {
    static let versionHeader = HTTPFields.Element.Name("Square-Version")!

    public nonisolated let id: String
    public nonisolated let payments: SquarePaymentStore
    /// The routes, once `register` has given them the server's settings.
    private nonisolated let routes = Mutex<SquarePaymentRoutes?>(nil)

    public init(id: String, settings: SandboxSettings) async {
        self.id = id
        payments = SquarePaymentStore(storage: settings.storage)
    }

    public nonisolated var summary: String {
        "Square Payments API under /v2/payments (Bearer EAAA… tokens; test nonces cnon:card-nonce-*, reader cnon:reader-*; "
            + "receipts at /sandbox/square/receipts/{id})"
    }

    /// None: Afterpay's `/v2/` holds the prefix; Square claims its requests one by one.
    public nonisolated var pathPrefixes: [String] { [] }

    /// The receipt page a COMPLETED payment's `receipt_url` points at, open to whoever holds that
    /// link (the payment id in it, 29 random characters) when the sandbox has a control token, as
    /// Square's receipt links are.
    public nonisolated var customerRoutes: [SandboxOpenRoute] { [SandboxOpenRoute(.get, "/sandbox/square/receipts/:paymentID")] }

    public nonisolated func register(on router: some RouterMethods<SandboxRequestContext>, core: SandboxCore) {
        let routes = SquarePaymentRoutes(endpoint: SquareEndpoint(store: payments, settings: core.settings, cardTokens: core.cardTokens))
        self.routes.withLock { $0 = routes }
        routes.register(on: router)
    }

    /// Square's own paths (`/v2/payments`, `/v2/payments/cancel`, `/v2/payments/{id}/complete|cancel`),
    /// `GET /v2/payments/{id}` when it carries a Bearer token or `Square-Version`, or names a
    /// payment of this sandbox (Afterpay's clients send Basic credentials), and `PUT` there from
    /// a Square client.
    public nonisolated var claimsRequests: Bool { true }

    public nonisolated func claims(_ request: Request) async throws -> Bool {
        let path = request.uri.path
        // Every request is asked: most are not under /v2/ at all, which needs no split to see.
        guard path.utf8.drop(while: { $0 == UInt8(ascii: "/") }).starts(with: "v2/".utf8) else { return false }
        let segments = path.split(separator: "/")
        guard segments.count >= 2, segments[0] == "v2", segments[1] == "payments" else { return false }
        switch segments.count {
        case 2: return true
        case 3 where segments[2] == "cancel" && request.method == .post: return true
        case 3 where request.method == .get:
            if Self.isSquareClient(request) { return true }
            guard SquareIDs.isPlausible(segments[2]) else { return false }
            return try await payments.contains(String(segments[2]))
        // UpdatePayment, from a Square client (Afterpay's PUT there is its own, not emulated).
        case 3 where request.method == .put: return Self.isSquareClient(request)
        case 4: return segments[3] == "complete" || segments[3] == "cancel"
        default: return false
        }
    }

    /// A Bearer token or `Square-Version`: what a Square client sends and an Afterpay one does not.
    private static func isSquareClient(_ request: Request) -> Bool {
        (request.headers.value(.authorization) ?? "").lowercased().hasPrefix("bearer ") || request.headers.contains(versionHeader)
    }

    public nonisolated func answer(claimed request: Request, context: SandboxRequestContext) async throws -> Response {
        guard let routes = routes.withLock({ $0 }) else {
            return SquareRejection(.serviceUnavailable, "API_ERROR", "SERVICE_UNAVAILABLE", "The Square sandbox is not registered on this server.").response
        }
        return try await routes.dispatch(request, context)
    }

    public nonisolated func faultResponse(_ fault: InjectedFault) -> Response {
        SquareRejection(fault.error.status, fault.error.category, fault.error.code, fault.error.message).response
    }

    public nonisolated func refusalResponse(_ refusal: SandboxError) -> Response {
        SquareRejection(refusal.status, refusal.category, refusal.code, refusal.message).response
    }

    /// `square_payments`: every payment, oldest first, with the money it moved.
    public nonisolated func ledgerSections(now: Date, limits: SandboxLimits) async throws -> [SandboxLedgerSection] {
        [SandboxLedgerSection(name: "square_payments", rows: try await payments.ledgerRows(now: now, limits: limits))]
    }

    /// One charge per APPROVED or COMPLETED payment (its total); CANCELED and FAILED moved nothing.
    public nonisolated func charges(now: Date) async throws -> [SandboxCharge] {
        try await payments.applyDue(now: now).filter { ["APPROVED", "COMPLETED"].contains($0.status) }.map { record in
            SandboxCharge(
                provider: id, id: record.id, reference: record.payment.referenceID, amount: record.moved,
                currency: record.payment.totalMoney?.currency ?? "")
        }
    }
}

extension RunningSandbox {
    /// The Square side of this sandbox, when it serves Square.
    public var squareSandbox: SquareSandbox? { providers.lazy.compactMap { $0 as? SquareSandbox }.first }
}
