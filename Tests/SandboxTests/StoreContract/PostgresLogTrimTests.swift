import Foundation
import Testing

@testable import Sandbox

private struct Line: LoggedRecord, Equatable {
    var sequence = 0
    var text: String
}

/// A log's count bound on PostgreSQL: each batch trims only the numbers since the last cut
/// (`trimmed_before`), and still leaves exactly the newest `capacity`, whatever batches run
/// beside it on other instances.
@Suite(.serialized, .enabled(if: PostgresTestDatabase.isEnabled, PostgresTestDatabase.skipReason))
struct PostgresLogTrimTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func batchesRacingThroughTwoInstancesLeaveExactlyTheNewest() async throws {
        try await PostgresTestDatabase.withInstances(2, purpose: "log_trim_race", poolSize: 8) { storages throws in
            let logs = storages.map { $0.log("lines", of: Line.self) }
            let moment = StoreMoment(now: now, retention: Retention(age: 3_600, capacity: 5))
            var appended = 0
            for round in 0..<6 {
                // Batches of 1 to 4 lines, eight at once, half through each instance.
                let sizes = (0..<8).map { 1 + ($0 + round) % 4 }
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for (index, size) in sizes.enumerated() {
                        group.addTask {
                            try await logs[index % 2].append((0..<size).map { Line(text: "r\(round)-\(index)-\($0)") }, at: moment)
                        }
                    }
                    try await group.waitForAll()
                }
                appended += sizes.reduce(0, +)
                // A batch cannot see (nor trim) those that committed after it began: their lines
                // are left to the next batch, but a read still lists only the newest five.
                let racing = try await logs[0].page(after: -1, limit: 100, at: moment).map(\.sequence)
                #expect(racing == Array((appended - 5)..<appended), "round \(round): \(racing)")
                try await logs[round % 2].append([Line(text: "alone \(round)")], at: moment)
                appended += 1
                let kept = try await logs[0].page(after: -1, limit: 100, at: moment).map(\.sequence)
                #expect(kept == Array((appended - 5)..<appended), "round \(round): \(kept)")
            }
        }
    }

    @Test func aBoundLoweredByAnotherInstanceIsKeptFromItsNextBatch() async throws {
        try await PostgresTestDatabase.withInstances(2, purpose: "log_trim_lowered") { storages throws in
            let logs = storages.map { $0.log("lines", of: Line.self) }
            let roomy = StoreMoment(now: now, retention: Retention(age: 3_600, capacity: 50))
            let tight = StoreMoment(now: now, retention: Retention(age: 3_600, capacity: 3))
            try await logs[0].append((0..<20).map { Line(text: "\($0)") }, at: roomy)
            try await logs[1].append([Line(text: "last")], at: tight)
            #expect(try await logs[0].page(after: -1, limit: 100, at: roomy).map(\.sequence) == [18, 19, 20])
            // The roomier instance trims nothing more, and keeps what the tighter one left.
            try await logs[0].append([Line(text: "more")], at: roomy)
            #expect(try await logs[1].page(after: -1, limit: 100, at: roomy).map(\.sequence) == [18, 19, 20, 21])
        }
    }
}
