import Foundation
import Hummingbird
import JWTKit
import ProviderWire

/// Afterpay's checkout, sign, validate and capture endpoints under /v2/, and the capture ledger.
public struct AfterpaySandbox: SandboxProvider {
    public let id: String
    public let store: AfterpayStore
    /// Cash App's requests, where the grants Afterpay's checkouts are paid with live.
    public let cashApp: CashAppSandbox
    public let signer: AfterpaySigner
    /// The merchant account the endpoints know.
    public let merchant: AfterpayMerchant

    public init(id: String, cashApp: CashAppSandbox, settings: SandboxSettings, merchant: AfterpayMerchant = .sandbox) async {
        self.id = id
        store = AfterpayStore(storage: settings.storage)
        self.cashApp = cashApp
        self.merchant = merchant
        signer = await AfterpaySigner()
    }

    public var summary: String { "Afterpay under /v2/ (capture ledger at /sandbox/ledger)" }
    public var pathPrefixes: [String] { ["/v2/"] }

    public func register(on router: some RouterMethods<SandboxRequestContext>, core: SandboxCore) {
        AfterpayRoutes(
            merchant: merchant, store: store, customerRequests: cashApp.requests, signer: signer,
            settings: core.settings
        ).register(on: router)
        AfterpayCheckoutPage(store: store, settings: core.settings).register(on: router)
    }

    /// The checkout page a `redirectCheckoutUrl` points at, open to whoever holds that link
    /// (its `token=` is the checkout's) when the sandbox has a control token.
    public var customerRoutes: [SandboxOpenRoute] { [SandboxOpenRoute(.get, "/sandbox/afterpay/checkout")] }

    public func faultResponse(_ fault: InjectedFault) -> Response {
        let code =
            fault.kind == .rateLimited ? "too_many_requests" : (fault.error.status == .internalServerError ? "error" : fault.error.code.lowercased())
        return AfterpayRejection(fault.error.status, code, fault.error.message).response
    }

    public func refusalResponse(_ refusal: SandboxError) -> Response {
        AfterpayRejection(refusal.status, refusal.code.lowercased(), refusal.message).response
    }

    /// `captures`: one row per checkout a capture was asked for.
    public func ledgerSections(now: Date, limits: SandboxLimits) async throws -> [SandboxLedgerSection] {
        try await store.evictDue(now: now, limits: limits)
        return [SandboxLedgerSection(name: "captures", rows: try await store.ledger)]
    }

    /// One charge per capture that moved money: a token captured twice shows twice.
    public func charges(now: Date) async throws -> [SandboxCharge] { try await store.charges(provider: id) }
}

extension RunningSandbox {
    /// The Afterpay side of this sandbox, when it serves Afterpay.
    public var afterpaySandbox: AfterpaySandbox? { providers.lazy.compactMap { $0 as? AfterpaySandbox }.first }
    /// Afterpay's checkouts and capture ledger.
    public var afterpay: AfterpayStore { afterpaySandbox?.store ?? AfterpayStore(storage: MemoryStorage()) }
    /// Verifies the JWTs sign-payment hands out.
    public var afterpaySigningKey: ES256PublicKey? { afterpaySandbox?.signer.publicKey }
}
