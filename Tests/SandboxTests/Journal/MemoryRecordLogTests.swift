import Foundation
import Synchronization
import Testing

@testable import Sandbox

/// The in-memory log behind the journal: the newest `capacity` records, numbered in order, and
/// each record past it let go of by the append that pushed it out, not thousands at a time later.
@Suite struct MemoryRecordLogTests {
    /// How many of a test's records are still alive, so it sees when one is let go of.
    final class Census: Sendable {
        let alive = Mutex(0)
        var count: Int { alive.withLock { $0 } }
    }

    final class Alive: Sendable {
        let census: Census

        init(_ census: Census) {
            self.census = census
            census.alive.withLock { $0 += 1 }
        }

        deinit { census.alive.withLock { $0 -= 1 } }
    }

    struct Logged: LoggedRecord {
        var sequence = -1
        let alive: Alive

        init(alive: Alive) { self.alive = alive }

        init(from decoder: any Decoder) throws {
            sequence = try decoder.singleValueContainer().decode(Int.self)
            alive = Alive(Census())
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(sequence)
        }
    }

    private let start = Date(timeIntervalSince1970: 1_800_000_000)

    private func moment(capacity: Int, age: TimeInterval = 3_600, at seconds: TimeInterval = 0) -> StoreMoment {
        StoreMoment(now: start.addingTimeInterval(seconds), retention: Retention(age: age, capacity: capacity))
    }

    @Test(arguments: [1, 7, 100])
    func keepsTheNewestAndLetsEachOlderOneGoAsItIsPushedOut(batch: Int) {
        let log = MemoryRecordLog<Logged>()
        let census = Census()
        var appended = 0
        while appended < 2_500 {
            log.append((0..<batch).map { _ in Logged(alive: Alive(census)) }, at: moment(capacity: 1_000))
            appended += batch
            // Never more alive than the log keeps: nothing pushed out is held for later.
            #expect(census.count == min(appended, 1_000))
        }
        #expect(log.newest(at: moment(capacity: 1_000)) == appended - 1)
        let page = log.page(after: -1, limit: 5, at: moment(capacity: 1_000))
        #expect(page.map(\.sequence) == Array(appended - 1_000..<appended - 995))
        let after = log.page(after: appended - 3, limit: 10, at: moment(capacity: 1_000))
        #expect(after.map(\.sequence) == [appended - 2, appended - 1])
    }

    @Test func forgetsByAgeAsWellAsByCount() {
        let log = MemoryRecordLog<Logged>()
        let census = Census()
        log.append([Logged(alive: Alive(census)), Logged(alive: Alive(census))], at: moment(capacity: 10, age: 60, at: 0))
        log.append([Logged(alive: Alive(census))], at: moment(capacity: 10, age: 60, at: 30))
        #expect(log.page(after: -1, limit: 10, at: moment(capacity: 10, age: 60, at: 45)).map(\.sequence) == [0, 1, 2])
        // A minute after the first two, only the third is kept; then nothing.
        #expect(log.page(after: -1, limit: 10, at: moment(capacity: 10, age: 60, at: 60)).map(\.sequence) == [2])
        #expect(census.count == 1)
        #expect(log.newest(at: moment(capacity: 10, age: 60, at: 90)) == nil)
        #expect(census.count == 0)
        #expect(log.page(after: -1, limit: 10, at: moment(capacity: 10, age: 60, at: 90)).isEmpty)
    }
}
