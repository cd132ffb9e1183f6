import Foundation
import ProviderWire

/// The tokens issued, by transaction id: the same request with the same id again (a retry after
/// a lost answer) gets the token it got before, not a second one, so the processor sees the
/// same charge; the id with another request is a conflict. Bounded like the other stores.
final class WalletTokenStore: Sendable {
    enum Outcome: Sendable {
        case issued(WalletTokenResponse)
        case replay(WalletTokenResponse)
        case conflict
    }

    struct Record: StoredRecord, Codable, Equatable {
        let transactionID: String
        let request: WalletTokenRequest
        let response: WalletTokenResponse

        var storeKey: String { transactionID }
        var storeIdempotencyKey: String? { transactionID }
    }

    private let records: ProviderStore<Record>

    init(storage: any SandboxStorage) {
        records = ProviderStore("wallet.tokens", in: storage)
    }

    /// `request` as checked (its transaction id left out when the sandbox makes one).
    func issue(
        _ request: WalletTokenRequest, transactionID: String, now: Date, limits: SandboxLimits, make: () -> WalletTokenResponse
    ) async throws(SandboxStoreUnavailable) -> Outcome {
        var request = request
        request.transactionIdentifier = transactionID
        let outcome = try await records.create(
            idempotencyKey: transactionID, at: StoreMoment(now: now, limits: limits), sameRequest: { $0.request == request }
        ) { _ in Record(transactionID: transactionID, request: request, response: make()) }
        switch outcome {
        case .created(let record): return .issued(record.response)
        case .replayed(let record): return .replay(record.response)
        case .keyReused, .claimTaken: return .conflict
        }
    }
}
