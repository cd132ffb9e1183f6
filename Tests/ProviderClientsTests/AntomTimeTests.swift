import Foundation
import ProviderWire
import Testing

/// Antom's times are written directly; they must say what the ISO 8601 format style says.
@Suite struct AntomTimeTests {
    private func formatStyle(_ date: Date) -> String {
        date.formatted(Date.ISO8601FormatStyle()).replacingOccurrences(of: "Z", with: "+00:00")
    }

    @Test func aTimeReadsAsTheFormatStyleWritesIt() {
        var generator = SystemRandomNumberGenerator()
        let edges: [Double] = [0, -1, -0.5, 0.999, 86_399.9, 86_400, 951_782_400, 1_796_000_000.25, 4_107_542_400, -62_135_596_800, 253_402_300_799.9]
        let random = (0..<2_000).map { _ in Double.random(in: -62_135_596_800..<253_402_300_800, using: &generator) }
        for seconds in edges + random {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(AntomTime.string(date) == formatStyle(date), "\(seconds)")
        }
    }

    @Test func theWrittenTimeReadsBack() throws {
        let date = Date(timeIntervalSince1970: 1_796_036_400)
        #expect(AntomTime.string(date) == "2026-11-30T11:00:00+00:00")
        #expect(try #require(AntomTime.date(AntomTime.string(date))) == date)
    }
}
