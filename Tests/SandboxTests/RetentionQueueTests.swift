import Foundation
import Testing

@testable import Sandbox

/// The order stores forget in: the oldest first, across the compactions that keep the queue
/// from growing.
@Suite struct RetentionQueueTests {
    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func entry(_ index: Int) -> RetentionQueue.Entry {
        RetentionQueue.Entry(key: "id\(index)", sequence: index, createdAt: start.addingTimeInterval(Double(index) / 1_000))
    }

    @Test func theOldestGoFirstAcrossCompactions() {
        var queue = RetentionQueue()
        var forgotten: [String] = []
        for index in 0..<5_000 {
            while queue.count > 99, let oldest = queue.oldest {
                forgotten.append(oldest.key)
                queue.dropOldest()
            }
            queue.append(entry(index))
        }
        #expect(queue.count == 100)
        #expect(forgotten == (0..<4_900).map { "id\($0)" })
        #expect(queue.inOrder.map(\.key) == (4_900..<5_000).map { "id\($0)" })
    }

    @Test func anEmptyQueueHasNothingToDrop() {
        var queue = RetentionQueue()
        queue.dropOldest()
        #expect(queue.oldest == nil)
        queue.append(entry(0))
        #expect(queue.oldest == entry(0))
        #expect(queue.count == 1)
    }
}
