import Foundation

/// PostgreSQL's text cannot hold NUL, which providers put in keys to scope them (client and key)
/// and which a client may send in an idempotency key. Keys are kept percent-escaped (`%` and NUL
/// only), so every key a record or caller names is kept exactly and no two keys meet.
enum PostgresKeyText {
    static func escaped(_ key: String) -> String {
        guard key.contains(where: { $0 == "%" || $0 == "\u{0}" }) else { return key }
        var text = ""
        for scalar in key.unicodeScalars {
            switch scalar {
            case "%": text += "%25"
            case "\u{0}": text += "%00"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }
}

/// A record as the database store keeps it: the same JSON, its keys escaped (`PostgresKeyText`).
struct PostgresRow<Record: StoredRecord & Codable>: StoredRecord, Codable {
    var record: Record

    init(_ record: Record) { self.record = record }
    init(from decoder: any Decoder) throws { record = try Record(from: decoder) }
    func encode(to encoder: any Encoder) throws { try record.encode(to: encoder) }

    var storeKey: String { PostgresKeyText.escaped(record.storeKey) }
    var storeIdempotencyKey: String? { record.storeIdempotencyKey.map(PostgresKeyText.escaped) }
    var storeClaims: [String] { record.storeClaims.map(PostgresKeyText.escaped) }
    var storeGroup: String? { record.storeGroup.map(PostgresKeyText.escaped) }
    var storeIsOpen: Bool { record.storeIsOpen }
    static var storeBodyOmitsSequence: Bool { Record.storeBodyOmitsSequence }
    var storedJSON: String? { record.storedJSON }
}

/// Rows compare as their records do, so telling a change that changed nothing needs no JSON (a
/// retrieve's expiry check encoded its record twice: a tenth of the sandbox's time under load).
extension PostgresRow: Equatable where Record: Equatable {}

extension StorePolicy {
    /// The same policy over the rows that carry the records.
    func rows() -> StorePolicy<PostgresRow<Record>> where Record: Codable {
        var rows = StorePolicy<PostgresRow<Record>>(forgetsSettledFirst: forgetsSettledFirst)
        if let settle { rows.settle = { row, now in settle(&row.record, now) } }
        if let onSettled { rows.onSettled = { changed in onSettled(changed.map(\.record)) } }
        if let settlesAt { rows.settlesAt = { row in settlesAt(row.record) } }
        return rows
    }
}

extension RecordLookup {
    var escaped: RecordLookup {
        switch self {
        case .key(let key): .key(PostgresKeyText.escaped(key))
        case .idempotencyKey(let key): .idempotencyKey(PostgresKeyText.escaped(key))
        case .claim(let claim): .claim(PostgresKeyText.escaped(claim))
        }
    }
}

/// A provider's store in PostgreSQL: `PostgresRecordStore` over rows with escaped keys, the
/// records handed in and out as they are.
struct PostgresEscapingStore<Record: StoredRecord & Codable>: SandboxRecordStore {
    let rows: PostgresRecordStore<PostgresRow<Record>>

    func create(
        idempotencyKey: String?, requiring claims: [String], at moment: StoreMoment, sameRequest: (Record) -> Bool,
        alongside: (_ member: inout Record, _ new: Record) -> Void, make: (_ sequence: Int) -> Record
    ) async throws -> RecordCreation<Record> {
        let outcome = try await rows.create(
            idempotencyKey: idempotencyKey.map(PostgresKeyText.escaped), requiring: claims.map(PostgresKeyText.escaped), at: moment,
            sameRequest: { sameRequest($0.record) }, alongside: { member, new in alongside(&member.record, new.record) },
            make: { PostgresRow(make($0)) })
        switch outcome {
        case .created(let row): return .created(row.record)
        case .replayed(let row): return .replayed(row.record)
        case .keyReused(let row): return .keyReused(row.record)
        case .claimTaken(let row): return .claimTaken(row.record)
        }
    }

    func record(_ lookup: RecordLookup, at moment: StoreMoment?) async throws -> Record? {
        try await rows.record(lookup.escaped, at: moment)?.record
    }

    func update<Value>(_ lookup: RecordLookup, at moment: StoreMoment?, _ change: (inout Record) -> Value) async throws
        -> RecordUpdate<Value, Record>
    {
        switch try await rows.update(lookup.escaped, at: moment, { change(&$0.record) }) {
        case .changed(let value): .changed(value)
        case .notFound: .notFound
        case .claimTaken(let row): .claimTaken(row.record)
        }
    }

    func remove(_ key: String, if condition: (Record) -> Bool) async throws -> Record? {
        try await rows.remove(PostgresKeyText.escaped(key), if: { condition($0.record) })?.record
    }

    func records(at moment: StoreMoment?) async throws -> [Record] {
        try await rows.records(at: moment).map(\.record)
    }

    func first(at moment: StoreMoment?, where predicate: (Record) -> Bool) async throws -> Record? {
        try await rows.first(at: moment, where: { predicate($0.record) })?.record
    }

    func settle(at moment: StoreMoment) async throws { try await rows.settle(at: moment) }

    func claimDue(now: Date, limit: Int, _ claim: (inout Record) -> Bool) async throws -> [Record] {
        try await rows.claimDue(now: now, limit: limit) { claim(&$0.record) }.map(\.record)
    }

    func count() async throws -> Int { try await rows.count() }
}
