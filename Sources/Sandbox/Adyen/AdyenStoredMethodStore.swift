import Foundation
import ProviderWire
import Synchronization

/// Shoppers' stored Cash App Pay methods (tokens made from an EXTENDED grant), by id. A method
/// the shopper disabled in Cash App, or the merchant deleted, is no longer listed or payable.
public final class AdyenStoredMethodStore: Sendable {
    struct Method: Sendable {
        let id: String
        let shopperReference: String
        let merchantAccount: String
        let cashtag: String
        let customerID: String
        let grantID: String
        var disabled = false

        var listed: AdyenStoredPaymentMethod {
            AdyenStoredPaymentMethod(id: id, type: AdyenCashAppDetails.type, name: AdyenCashAppConfiguration.name, cashtag: cashtag)
        }
    }

    private struct State: Sendable {
        var methods: [String: Method] = [:]
        var age = RetentionQueue()

        mutating func evict(now: Date, limits: SandboxLimits, capacity: Int) {
            for id in age.evict(now: now, retention: limits.requestRetention, capacity: capacity) { methods.removeValue(forKey: id) }
        }
    }

    private let state = Mutex(State())

    public init() {}

    /// How many methods it holds, disabled ones included.
    public var count: Int { state.withLock { $0.methods.count } }

    /// Stores the grant as a method for the shopper: "created", or "alreadyExisting" when this
    /// grant is stored for them already.
    func store(
        shopperReference: String, merchantAccount: String, cashtag: String, customerID: String, grantID: String, now: Date,
        limits: SandboxLimits
    ) -> (method: Method, operation: String) {
        state.withLock { state in
            state.evict(now: now, limits: limits, capacity: limits.maxStoredRequests)
            if let existing = state.methods.values.first(where: {
                $0.grantID == grantID && $0.shopperReference == shopperReference && $0.merchantAccount == merchantAccount && !$0.disabled
            }) {
                return (existing, "alreadyExisting")
            }
            state.evict(now: now, limits: limits, capacity: limits.maxStoredRequests - 1)
            let method = Method(
                id: AdyenIDs.storedPaymentMethodID(), shopperReference: shopperReference, merchantAccount: merchantAccount, cashtag: cashtag,
                customerID: customerID, grantID: grantID)
            state.methods[method.id] = method
            state.age.append(method.id, createdAt: now)
            return (method, "created")
        }
    }

    /// The shopper's methods that can still be paid with.
    func active(shopperReference: String, merchantAccount: String) -> [Method] {
        state.withLock { state in
            state.methods.values.filter { $0.shopperReference == shopperReference && $0.merchantAccount == merchantAccount && !$0.disabled }
                .sorted { $0.id < $1.id }
        }
    }

    func method(id: String) -> Method? { state.withLock { $0.methods[id] } }

    /// The merchant deletes the shopper's method: false when the shopper has no such method.
    func delete(id: String, shopperReference: String, merchantAccount: String) -> Bool {
        state.withLock { state in
            guard let method = state.methods[id], method.shopperReference == shopperReference, method.merchantAccount == merchantAccount,
                !method.disabled
            else { return false }
            state.methods.removeValue(forKey: id)
            return true
        }
    }

    /// The shopper removes it in Cash App: kept (so a payment with it is refused with a reason)
    /// but disabled. Nil when there is no active method `id`.
    func disable(id: String) -> Method? {
        state.withLock { state in
            guard var method = state.methods[id], !method.disabled else { return nil }
            method.disabled = true
            state.methods[id] = method
            return method
        }
    }

    func evictDue(now: Date, limits: SandboxLimits) {
        state.withLock { $0.evict(now: now, limits: limits, capacity: limits.maxStoredRequests) }
    }
}
