import Synchronization

/// The records a store most recently wrote or read, by their exact JSON: a body read back (a
/// retrieve right after a create, on the instance that made it) is found here rather than decoded
/// again, which was a tenth of an instance's time under load (`make bench`'s P6). Decoding is a
/// function of the text, so a record found by its text is the one decoding would give; a body
/// another instance changed is different text, and missed. Bounded: the oldest go first.
final class DecodedRecordCache<Record: Sendable>: Sendable {
    private struct Entries {
        var byBody: [String: Record] = [:]
        /// Bodies in the order kept, as a ring: `next` is the oldest once it is full.
        var order: [String] = []
        var next = 0
    }

    let capacity: Int
    private let entries = Mutex(Entries())

    init(capacity: Int = 256) {
        self.capacity = max(1, capacity)
    }

    func record(for body: String) -> Record? {
        entries.withLock { $0.byBody[body] }
    }

    func keep(_ record: Record, as body: String) {
        entries.withLock { entries in
            guard entries.byBody.updateValue(record, forKey: body) == nil else { return }
            if entries.order.count < capacity {
                entries.order.append(body)
            } else {
                entries.byBody.removeValue(forKey: entries.order[entries.next])
                entries.order[entries.next] = body
                entries.next = (entries.next + 1) % capacity
            }
        }
    }
}
