/// What a store reads off a record it keeps: its key, the indexes it appears in, and whether time
/// can still change it. Everything else about a record is the provider's own, so a `Codable`
/// record can live in a database row as well as in memory.
protocol StoredRecord: Sendable {
    /// Its key, unique in its store.
    var storeKey: String { get }
    /// The idempotency key that made it: indexed, and forgotten with it.
    var storeIdempotencyKey: String? { get }
    /// What it holds exclusively while kept (a grant it paid with, a single-use source it spent,
    /// the order it paid): no two records of a store hold one claim at once.
    var storeClaims: [String] { get }
    /// The records it belongs with (an order's payment sessions): a new one may change the others
    /// in the same unit of work.
    var storeGroup: String? { get }
    /// Whether time can still change it: the store's settle step visits open records only.
    var storeIsOpen: Bool { get }
    /// Whether its body never carries the creation number `make` is given: a database store may
    /// then number it in the insert's own statement (a create in one round trip).
    static var storeBodyOmitsSequence: Bool { get }
    /// Its JSON exactly as `StoredRecordCoding.encoder()` writes it, when the record writes it
    /// faster itself (a database store writes every record it keeps); nil to leave it to the encoder.
    var storedJSON: String? { get }
}

extension StoredRecord {
    var storeIdempotencyKey: String? { nil }
    var storeClaims: [String] { [] }
    var storeGroup: String? { nil }
    var storeIsOpen: Bool { false }
    static var storeBodyOmitsSequence: Bool { false }
    var storedJSON: String? { nil }
}
