import Foundation

@testable import Sandbox

/// The record the contract tests keep: every index a store offers, and Codable as a database
/// row's would be.
struct ContractRecord: StoredRecord, Codable, Equatable {
    var key: String
    var idempotencyKey: String?
    /// The request that made it: the same idempotency key with another body is a reuse.
    var body = ""
    var claim: String?
    var group: String?
    var sequence = 0
    var isOpen = false
    /// When an open record settles by itself.
    var dueAt: Date?
    var settled = false
    var note = ""

    var storeKey: String { key }
    var storeIdempotencyKey: String? { idempotencyKey }
    var storeClaims: [String] { claim.map { [$0] } ?? [] }
    var storeGroup: String? { group }
    var storeIsOpen: Bool { isOpen }

    /// The contract's settle step: a due open record closes.
    static let settle: @Sendable (inout ContractRecord, Date) -> Bool = { record, now in
        guard let due = record.dueAt, due <= now else { return false }
        record.isOpen = false
        record.settled = true
        return true
    }
}

/// One implementation of `SandboxRecordStore` the contract runs against.
struct StoreFactory: Sendable, CustomStringConvertible {
    let description: String
    let make: @Sendable (StorePolicy<ContractRecord>) -> any SandboxRecordStore<ContractRecord>

    func callAsFunction(_ policy: StorePolicy<ContractRecord> = StorePolicy()) -> any SandboxRecordStore<ContractRecord> { make(policy) }

    /// Every implementation: the in-memory store, and PostgreSQL when a database is given
    /// (`CHECKOUT_TEST_POSTGRES_URL`, or always in CI, where a missing one fails), each test on a
    /// store name of its own.
    static let all: [StoreFactory] =
        [StoreFactory(description: "in memory") { MemoryRecordStore(policy: $0) }]
        + (PostgresTestDatabase.isEnabled ? [StoreFactory(description: "PostgreSQL") { PostgresContractStore(policy: $0) }] : [])
}

/// `count` creates at once with one idempotency key and one request, spread over `stores` in
/// turn (instances of one sandbox, or one store): what each came to.
func raceOneIdempotencyKey(_ stores: [any SandboxRecordStore<ContractRecord>], count: Int, key: String) async throws -> [String] {
    try await withThrowingTaskGroup(of: String.self) { group in
        for index in 0..<count {
            let store = stores[index % stores.count]
            group.addTask {
                let outcome = try await store.create(
                    idempotencyKey: key, requiring: [], at: StoreMoment(now: .distantPast), sameRequest: { $0.body == "x" },
                    alongside: { _, _ in }, make: { _ in ContractRecord(key: "r\(index)", idempotencyKey: key, body: "x") })
                switch outcome {
                case .created: return "created"
                case .replayed: return "replayed"
                case .keyReused, .claimTaken: return "refused"
                }
            }
        }
        return try await group.reduce(into: [String]()) { $0.append($1) }
    }
}
