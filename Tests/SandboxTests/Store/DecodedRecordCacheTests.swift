import Testing

@testable import Sandbox

/// The decoded-record cache finds what was kept by its exact text, and holds no more than its capacity.
@Suite struct DecodedRecordCacheTests {
    @Test func aRecordIsFoundByItsExactTextOnly() {
        let cache = DecodedRecordCache<Int>(capacity: 4)
        cache.keep(1, as: #"{"a":1}"#)
        #expect(cache.record(for: #"{"a":1}"#) == 1)
        #expect(cache.record(for: #"{"a": 1}"#) == nil)
    }

    @Test func theOldestGoFirstOnceItIsFull() {
        let cache = DecodedRecordCache<Int>(capacity: 3)
        for value in 0..<5 { cache.keep(value, as: "body \(value)") }
        #expect((0..<5).map { cache.record(for: "body \($0)") } == [nil, nil, 2, 3, 4])
        // Kept again, a body keeps its place and takes no second one.
        cache.keep(3, as: "body 3")
        cache.keep(5, as: "body 5")
        #expect((2..<6).map { cache.record(for: "body \($0)") } == [nil, 3, 4, 5])
    }
}
