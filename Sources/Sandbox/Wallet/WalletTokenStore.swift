import Foundation
import ProviderWire
import Synchronization

/// The tokens issued, by transaction id: the same request with the same id again (a retry after
/// a lost answer) gets the token it got before, not a second one, so the processor sees the
/// same charge; the id with another request is a conflict. Bounded like the other stores.
final class WalletTokenStore: Sendable {
    enum Outcome: Sendable {
        case issued(WalletTokenResponse)
        case replay(WalletTokenResponse)
        case conflict
    }

    private struct Record: Sendable {
        let request: WalletTokenRequest
        let response: WalletTokenResponse
    }

    private struct State: Sendable {
        var records: [String: Record] = [:]
        var age = RetentionQueue()

        mutating func evict(now: Date, limits: SandboxLimits, capacity: Int) {
            for gone in age.evict(now: now, retention: limits.requestRetention, capacity: capacity) { records.removeValue(forKey: gone) }
        }
    }

    private let state = Mutex(State())

    /// `request` as checked (its transaction id left out when the sandbox makes one).
    func issue(
        _ request: WalletTokenRequest, transactionID: String, now: Date, limits: SandboxLimits, make: () -> WalletTokenResponse
    ) -> Outcome {
        var request = request
        request.transactionIdentifier = transactionID
        return state.withLock { state in
            state.evict(now: now, limits: limits, capacity: limits.maxStoredRequests)
            if let record = state.records[transactionID] {
                return record.request == request ? .replay(record.response) : .conflict
            }
            state.evict(now: now, limits: limits, capacity: limits.maxStoredRequests - 1)
            let response = make()
            state.records[transactionID] = Record(request: request, response: response)
            state.age.append(transactionID, createdAt: now)
            return .issued(response)
        }
    }
}
