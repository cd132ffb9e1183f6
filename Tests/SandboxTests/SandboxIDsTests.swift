import Testing

@testable import Sandbox

/// Ids are the prefix and `length` lower-case letters and digits, and never repeat: the random
/// words behind them are drawn in batches, and a batch is never handed out twice.
@Suite struct SandboxIDsTests {
    @Test func anIdIsItsPrefixAndLowerCaseLettersAndDigits() {
        for length in [0, 1, 8, 12, 13, 26] {
            let id = SandboxIDs.make("GRR_", length: length)
            #expect(id.hasPrefix("GRR_"))
            #expect(id.utf8.count == 4 + length)
            #expect(id.dropFirst(4).allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) })
        }
    }

    @Test func idsMintedAtOnceOnSeveralTasksNeverRepeat() async {
        let ids = await withTaskGroup(of: [String].self) { group in
            for _ in 0..<4 { group.addTask { (0..<2_000).map { _ in SandboxIDs.make("", length: 12) } } }
            return await group.reduce(into: [String]()) { $0 += $1 }
        }
        #expect(ids.count == 8_000)
        #expect(Set(ids).count == ids.count)
    }
}
