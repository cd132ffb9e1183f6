import Foundation

/// Ids in the order they were created, for a store that forgets its oldest entries first:
/// those past the retention age, then the oldest beyond its capacity.
struct RetentionQueue: Sendable {
    private var ids: [String] = []
    private var created: [Date] = []
    /// Entries before `head` are gone; the arrays are compacted now and then, not on every removal.
    private var head = 0

    var count: Int { ids.count - head }

    mutating func append(_ id: String, createdAt: Date) {
        ids.append(id)
        created.append(createdAt)
    }

    /// Takes out and returns the ids created `retention` seconds or more before `now`, then the
    /// oldest until at most `capacity` remain.
    mutating func evict(now: Date, retention: TimeInterval, capacity: Int) -> [String] {
        var gone: [String] = []
        while head < ids.count, count > capacity || now.timeIntervalSince(created[head]) >= retention {
            gone.append(ids[head])
            head += 1
        }
        if head >= 1_024, head * 2 >= ids.count {
            ids.removeFirst(head)
            created.removeFirst(head)
            head = 0
        }
        return gone
    }
}
