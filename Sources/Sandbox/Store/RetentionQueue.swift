import Foundation

/// A store's records in the order they were made, for forgetting the oldest first. An entry whose
/// record was since removed (or replaced under its key) stays until it reaches the front: the
/// store tells them apart by sequence number, so removing from the middle costs nothing here.
struct RetentionQueue: Sendable {
    struct Entry: Sendable, Equatable {
        let key: String
        /// The store's creation number for the record: a later record under the same key has another.
        let sequence: Int
        let createdAt: Date
    }

    private var entries: [Entry] = []
    /// Entries before `head` are gone; the array is compacted now and then, not on every removal.
    private var head = 0

    /// Entries held, stale ones included.
    var count: Int { entries.count - head }

    var oldest: Entry? { head < entries.count ? entries[head] : nil }

    /// Every entry held, oldest first.
    var inOrder: ArraySlice<Entry> { entries[head...] }

    mutating func append(_ entry: Entry) {
        entries.append(entry)
    }

    mutating func dropOldest() {
        guard head < entries.count else { return }
        head += 1
        if head >= 1_024, head * 2 >= entries.count {
            entries.removeFirst(head)
            head = 0
        }
    }
}
