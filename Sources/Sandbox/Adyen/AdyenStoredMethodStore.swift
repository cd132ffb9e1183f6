import Foundation
import ProviderWire

/// Shoppers' stored Cash App Pay methods (tokens made from an EXTENDED grant), by id. A method
/// the shopper disabled in Cash App, or the merchant deleted, is no longer listed or payable.
public final class AdyenStoredMethodStore: Sendable {
    struct Method: StoredRecord, Codable, Equatable {
        let id: String
        let shopperReference: String
        let merchantAccount: String
        let cashtag: String
        let customerID: String
        let grantID: String
        var disabled = false

        var storeKey: String { id }
        /// While active, the grant is stored once for the shopper.
        var storeClaims: [String] { disabled ? [] : [Method.claim(grantID: grantID, shopperReference: shopperReference, merchantAccount: merchantAccount)] }

        static func claim(grantID: String, shopperReference: String, merchantAccount: String) -> String {
            grantID + "\u{0}" + shopperReference + "\u{0}" + merchantAccount
        }

        /// As `/paymentMethods` lists it (Adyen's `StoredPaymentMethod`, with the $cashtag).
        var listed: AdyenStoredPaymentMethod {
            AdyenStoredPaymentMethod(id: id, type: AdyenCashAppDetails.type, name: AdyenCashAppConfiguration.name, cashtag: cashtag)
        }

        /// As `GET /storedPaymentMethods` lists it (Adyen's `StoredPaymentMethodResource`): no
        /// $cashtag and no shopper interactions, which that resource does not have (Adyen gives
        /// the $cashtag in the payment's additionalData and in `/paymentMethods`).
        var resource: AdyenStoredPaymentMethod {
            AdyenStoredPaymentMethod(
                id: id, type: AdyenCashAppDetails.type, name: AdyenCashAppConfiguration.name, cashtag: nil, supportedShopperInteractions: nil)
        }
    }

    private let methods: ProviderStore<Method>

    init(storage: any SandboxStorage) {
        methods = ProviderStore("adyen.stored-methods", in: storage)
    }

    /// How many methods it holds, disabled ones included.
    public var count: Int { get async throws { try await methods.count() } }

    /// Stores the grant as a method for the shopper: "created", or "alreadyExisting" when this
    /// grant is stored for them already.
    func store(
        shopperReference: String, merchantAccount: String, cashtag: String, customerID: String, grantID: String, now: Date,
        limits: SandboxLimits
    ) async throws(SandboxStoreUnavailable) -> (method: Method, operation: String) {
        let claim = Method.claim(grantID: grantID, shopperReference: shopperReference, merchantAccount: merchantAccount)
        let outcome = try await methods.create(requiring: [claim], at: StoreMoment(now: now, limits: limits)) { _ in
            Method(
                id: AdyenIDs.storedPaymentMethodID(), shopperReference: shopperReference, merchantAccount: merchantAccount, cashtag: cashtag,
                customerID: customerID, grantID: grantID)
        }
        switch outcome {
        case .created(let method), .replayed(let method), .keyReused(let method): return (method, "created")
        case .claimTaken(let existing): return (existing, "alreadyExisting")
        }
    }

    /// The shopper's methods that can still be paid with.
    func active(shopperReference: String, merchantAccount: String) async throws(SandboxStoreUnavailable) -> [Method] {
        try await methods.records().filter { $0.shopperReference == shopperReference && $0.merchantAccount == merchantAccount && !$0.disabled }
            .sorted { $0.id < $1.id }
    }

    func method(id: String) async throws(SandboxStoreUnavailable) -> Method? { try await methods.record(.key(id)) }

    /// The merchant deletes the shopper's method: false when the shopper has no such method.
    func delete(id: String, shopperReference: String, merchantAccount: String) async throws(SandboxStoreUnavailable) -> Bool {
        try await methods.remove(id) { $0.shopperReference == shopperReference && $0.merchantAccount == merchantAccount && !$0.disabled } != nil
    }

    /// The shopper removes it in Cash App: kept (so a payment with it is refused with a reason)
    /// but disabled. Nil when there is no active method `id`.
    func disable(id: String) async throws(SandboxStoreUnavailable) -> Method? {
        try await methods.update(.key(id)) { method -> Method? in
            guard !method.disabled else { return nil }
            method.disabled = true
            return method
        }.value ?? nil
    }

    func evictDue(now: Date, limits: SandboxLimits) async throws(SandboxStoreUnavailable) {
        try await methods.settle(at: StoreMoment(now: now, limits: limits))
    }
}
