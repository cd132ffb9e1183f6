import Foundation
import ProviderWire
import Testing

@testable import Sandbox

/// The hand-written stored form of a journal entry is exactly what the store's encoder writes,
/// and reads back as the same entry, whatever its strings and numbers hold.
@Suite struct JournalEntryStoredJSONTests {
    private static let awkward = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) }.joined()
        + #"quote " backslash \ slash / é 日本 😀 \#u{2028}\#u{7F}"#

    private static func entry(
        duration: Double = 12.345, time: Double = 786_000_000.123_456, text: String = "plain", optionals: Bool = true
    ) -> SandboxJournalEntry {
        SandboxJournalEntry(
            id: 42, time: Date(timeIntervalSinceReferenceDate: time), instance: "i-\(text)", method: "POST",
            path: "/customer-request/v1/requests?t=\(text)", status: 201, durationMilliseconds: duration,
            provider: optionals ? "cashapp\(text)" : nil, run: optionals ? "run \(text)" : nil, references: optionals ? ["GRR_1", text] : [],
            fault: optionals ? "drop \(text)" : nil,
            request: .init(headers: [.init(name: "Authorization", value: "[REDACTED] \(text)")], body: optionals ? #"{"a":"\#(text)"}"# : nil,
                bodyBytes: 17, truncated: false),
            response: .init(headers: [], body: text, bodyBytes: 16_385, truncated: true))
    }

    static let entries: [SandboxJournalEntry] = [
        entry(), entry(optionals: false), entry(text: awkward), entry(text: ""),
        entry(duration: 0), entry(duration: 3), entry(duration: 0.000_001_5), entry(duration: 1e21), entry(duration: -2.5),
        entry(time: 0), entry(time: -1.5), entry(time: 1e-7),
    ]

    @Test(arguments: entries)
    func itIsByteForByteWhatTheEncoderWrites(entry: SandboxJournalEntry) throws {
        let encoded = String(decoding: try StoredRecordCoding.encoder().encode(entry), as: UTF8.self)
        #expect(JournalEntryStoredJSON.text(entry) == encoded)
    }

    @Test(arguments: entries)
    func itReadsBackAsTheSameEntry(entry: SandboxJournalEntry) throws {
        let text = try #require(JournalEntryStoredJSON.text(entry))
        #expect(try StoredRecordCoding.decoder().decode(SandboxJournalEntry.self, from: Data(text.utf8)) == entry)
    }

    @Test func aDurationThatIsNotANumberIsLeftToTheEncoder() {
        #expect(JournalEntryStoredJSON.text(Self.entry(duration: .nan)) == nil)
        #expect(JournalEntryStoredJSON.text(Self.entry(duration: .infinity)) == nil)
    }
}
