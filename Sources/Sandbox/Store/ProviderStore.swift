import Foundation

/// A provider's handle on one of its stores: the store its sandbox's `SandboxStorage` made, with
/// the defaults every provider uses, and every failure of the store (a database gone away) turned
/// into `SandboxStoreUnavailable`, which the server answers as 503 in the provider's error shape.
/// In memory nothing fails and nothing is encoded: each call is one hold of the store's lock,
/// made on the memory store itself (no existential or async hop: Cash App's create and retrieve
/// are benchmarked).
struct ProviderStore<Record: StoredRecord & Codable>: Sendable {
    let base: any SandboxRecordStore<Record>
    /// `base` when it is the in-memory store, called directly.
    private let memory: MemoryRecordStore<Record>?

    /// The store called `name` in `storage`.
    init(_ name: String, in storage: any SandboxStorage, policy: StorePolicy<Record> = StorePolicy()) {
        base = storage.store(name, of: Record.self, policy: policy)
        memory = base as? MemoryRecordStore<Record>
    }

    func create(
        idempotencyKey: String? = nil, requiring claims: [String] = [], at moment: StoreMoment,
        sameRequest: (Record) -> Bool = { _ in false }, alongside: (_ member: inout Record, _ new: Record) -> Void = { _, _ in },
        make: (_ sequence: Int) -> Record
    ) async throws(SandboxStoreUnavailable) -> RecordCreation<Record> {
        if let memory {
            return memory.create(
                idempotencyKey: idempotencyKey, requiring: claims, at: moment, sameRequest: sameRequest, alongside: alongside, make: make)
        }
        do {
            return try await base.create(
                idempotencyKey: idempotencyKey, requiring: claims, at: moment, sameRequest: sameRequest, alongside: alongside, make: make)
        } catch { throw SandboxStoreUnavailable(error) }
    }

    func record(_ lookup: RecordLookup, at moment: StoreMoment? = nil) async throws(SandboxStoreUnavailable) -> Record? {
        if let memory { return memory.record(lookup, at: moment) }
        do { return try await base.record(lookup, at: moment) } catch { throw SandboxStoreUnavailable(error) }
    }

    func update<Value>(_ lookup: RecordLookup, at moment: StoreMoment? = nil, _ change: (inout Record) -> Value)
        async throws(SandboxStoreUnavailable) -> RecordUpdate<Value, Record>
    {
        if let memory { return memory.update(lookup, at: moment, change) }
        do { return try await base.update(lookup, at: moment, change) } catch { throw SandboxStoreUnavailable(error) }
    }

    func remove(_ key: String, if condition: (Record) -> Bool = { _ in true }) async throws(SandboxStoreUnavailable) -> Record? {
        if let memory { return memory.remove(key, if: condition) }
        do { return try await base.remove(key, if: condition) } catch { throw SandboxStoreUnavailable(error) }
    }

    func records(at moment: StoreMoment? = nil) async throws(SandboxStoreUnavailable) -> [Record] {
        if let memory { return memory.records(at: moment) }
        do { return try await base.records(at: moment) } catch { throw SandboxStoreUnavailable(error) }
    }

    func first(at moment: StoreMoment? = nil, where predicate: (Record) -> Bool) async throws(SandboxStoreUnavailable) -> Record? {
        if let memory { return memory.first(at: moment, where: predicate) }
        do { return try await base.first(at: moment, where: predicate) } catch { throw SandboxStoreUnavailable(error) }
    }

    func settle(at moment: StoreMoment) async throws(SandboxStoreUnavailable) {
        if let memory { return memory.settle(at: moment) }
        do { try await base.settle(at: moment) } catch { throw SandboxStoreUnavailable(error) }
    }

    func claimDue(now: Date, limit: Int, _ claim: (inout Record) -> Bool) async throws(SandboxStoreUnavailable) -> [Record] {
        if let memory { return memory.claiming(limit: limit, claim) }
        do { return try await base.claimDue(now: now, limit: limit, claim) } catch { throw SandboxStoreUnavailable(error) }
    }

    func count() async throws(SandboxStoreUnavailable) -> Int {
        if let memory { return memory.count() }
        do { return try await base.count() } catch { throw SandboxStoreUnavailable(error) }
    }
}

/// The sandbox's store could not do an operation (its database is unreachable or failed): the
/// request is answered 503 in its provider's error shape, in one place (`SandboxResponder`),
/// and nothing of the operation was kept. Its description never carries the store's URL.
public struct SandboxStoreUnavailable: Error, CustomStringConvertible {
    /// What the store threw.
    public let underlying: any Error

    public init(_ underlying: any Error) {
        self.underlying = (underlying as? SandboxStoreUnavailable)?.underlying ?? underlying
    }

    public var description: String { "the sandbox's store is unavailable" }

    /// The answer before a provider's shape is put on it.
    var error: SandboxError {
        SandboxError(.serviceUnavailable, "SERVICE_UNAVAILABLE", "The sandbox's store is unavailable; retry shortly.")
    }
}

/// How a store that keeps records as bytes (a database's rows) encodes them: plain JSON, dates as
/// their exact `Double` (the wire's ISO 8601 milliseconds would round them), keys sorted.
enum StoredRecordCoding {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .deferredToDate
        encoder.dataEncodingStrategy = .base64
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return encoder
    }

    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .deferredToDate
        decoder.dataDecodingStrategy = .base64
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")
        return decoder
    }
}
