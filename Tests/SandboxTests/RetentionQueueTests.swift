import Foundation
import Testing

@testable import Sandbox

/// The order stores forget in: the oldest first, by age and by count, across the compactions
/// that keep the queue from growing.
@Suite struct RetentionQueueTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func theOldestGoFirstPastTheCapacity() {
        var queue = RetentionQueue()
        var forgotten: [String] = []
        for index in 0..<5_000 {
            forgotten += queue.evict(now: start, retention: 3_600, capacity: 99)
            queue.append("id\(index)", createdAt: start.addingTimeInterval(Double(index) / 1_000))
        }
        #expect(queue.count == 100)
        #expect(forgotten == (0..<4_900).map { "id\($0)" })
    }

    @Test func entriesPastTheRetentionGoWhateverTheCapacity() {
        var queue = RetentionQueue()
        for index in 0..<10 { queue.append("id\(index)", createdAt: start.addingTimeInterval(Double(index))) }
        #expect(queue.evict(now: start.addingTimeInterval(64.5), retention: 60, capacity: 100) == ["id0", "id1", "id2", "id3", "id4"])
        #expect(queue.count == 5)
        #expect(queue.evict(now: start.addingTimeInterval(64.5), retention: 60, capacity: 100).isEmpty)
    }
}
