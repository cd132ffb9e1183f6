import Foundation
import Hummingbird
import NIOCore
@testable import Sandbox
import Testing

/// The memory journal keeps each capture packed into one array of bytes: unpacked, it must be
/// the capture it was, or `GET /sandbox/journal` would list something other than what was served.
@Suite struct PackedJournalCaptureTests {
    typealias Field = HTTPFields.Element

    static let captures: [JournalCapture] = [
        JournalCapture(
            time: Date(timeIntervalSinceReferenceDate: 815_000_000.123_456), duration: .nanoseconds(1_234_567), method: "POST",
            target: "/customer-request/v1/requests?x=1", requestHeaders: [.contentType: "application/json", .authorization: "Client sandbox_secret"],
            requestBody: ByteBuffer(string: #"{"request":{"amount":4505}}"#), requestBodyBytes: 27, status: 201,
            responseHeaders: [.contentType: "application/json", .contentLength: "12"], responseBody: [ByteBuffer(string: #"{"ok":true}"#)],
            responseBodyBytes: 12, endpoint: "/customer-request/v1/requests", claimant: "cashapp", fault: "latency"),
        JournalCapture(
            time: Date(timeIntervalSince1970: 0), duration: .zero, method: "GET", target: "/sandbox/health", requestHeaders: HTTPFields(),
            requestBody: nil, requestBodyBytes: 0, status: 200, responseHeaders: HTTPFields(), responseBody: [], responseBodyBytes: 0,
            endpoint: nil, claimant: nil, fault: nil),
        // A body in parts and cut short, a value with non-ASCII text, names as the client spelled
        // them, the same name twice, an empty body kept as a part.
        JournalCapture(
            time: Date(timeIntervalSinceReferenceDate: -12.5), duration: .seconds(3), method: "PATCH", target: "/v2/payments/Ünïcode",
            requestHeaders: HTTPFields([
                Field(name: HTTPFields.Element.Name("X-Cafe")!, value: "crème brûlée"), Field(name: .accept, value: "a"), Field(name: .accept, value: "b"),
            ]),
            requestBody: ByteBuffer(), requestBodyBytes: 5_000_000, status: 413,
            responseHeaders: HTTPFields([Field(name: HTTPFields.Element.Name("IDEMPOTENCY-key")!, value: "")]),
            responseBody: [ByteBuffer(string: "{\"a\":"), ByteBuffer(string: "\"é"), ByteBuffer()], responseBodyBytes: 70_000,
            endpoint: "", claimant: nil, fault: "drop"),
    ]

    @Test(arguments: captures)
    func unpacksToTheCaptureItWas(_ capture: JournalCapture) {
        let unpacked = PackedJournalCapture(capture).unpacked()
        #expect(unpacked.time == capture.time)
        #expect(unpacked.duration == capture.duration)
        #expect(unpacked.method == capture.method)
        #expect(unpacked.target == capture.target)
        #expect(Self.spelled(unpacked.requestHeaders) == Self.spelled(capture.requestHeaders))
        #expect(unpacked.requestBody.map(Array.init(buffer:)) == capture.requestBody.map(Array.init(buffer:)))
        #expect(unpacked.requestBodyBytes == capture.requestBodyBytes)
        #expect(unpacked.status == capture.status)
        #expect(Self.spelled(unpacked.responseHeaders) == Self.spelled(capture.responseHeaders))
        #expect(Self.joined(unpacked.responseBody) == Self.joined(capture.responseBody))
        #expect(unpacked.responseBody.isEmpty == capture.responseBody.isEmpty)
        #expect(unpacked.responseBodyBytes == capture.responseBodyBytes)
        #expect(unpacked.endpoint == capture.endpoint)
        #expect(unpacked.claimant == capture.claimant)
        #expect(unpacked.fault == capture.fault)
    }

    @Test(arguments: captures)
    func listsAsTheSameEntry(_ capture: JournalCapture) {
        let maker = JournalEntryMaker(providers: [])
        #expect(maker.entry(PackedJournalCapture(capture).unpacked()) == maker.entry(capture))
    }

    /// A record kept in memory lists as it would have unpacked (its id too).
    @Test func aRecordKeptInMemoryListsTheSame() {
        let maker = JournalEntryMaker(providers: [])
        var record = JournalRecord(capture: Self.captures[0], maker: maker)
        record.sequence = 41
        let kept = record.keptInMemory()
        #expect(kept.entry == record.entry)
        #expect(kept.entry.id == 42)
    }

    private static func spelled(_ fields: HTTPFields) -> [String] {
        fields.map { "\($0.name.rawName): \($0.value)" }
    }

    private static func joined(_ parts: [ByteBuffer]) -> [UInt8] {
        parts.flatMap { Array(buffer: $0) }
    }
}
