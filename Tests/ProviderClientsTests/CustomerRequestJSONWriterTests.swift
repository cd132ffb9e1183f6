import Foundation
import ProviderWire
import Testing

/// The sandbox's hand-written `{"request": …}` is the encoder's, byte for byte, or it declines.
@Suite struct CustomerRequestJSONWriterTests {
    private struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    private static let pieces = ["GRR_", "abc", "/", "é", "漢字", "🙂", "\u{7f}", " ", "https://x.test/a?b=1&c=2", "0", "BRAND_x", "$cash"]

    private func text(_ random: inout Seeded) -> String {
        (0..<Int.random(in: 1...4, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
    }

    private func date(_ random: inout Seeded) -> Date {
        Date(timeIntervalSince1970: Double(Int64.random(in: 0...4_102_444_800_000, using: &random)) / 1000)
    }

    private func action(_ random: inout Seeded) -> PaymentAction {
        PaymentAction(
            type: [.ONE_TIME_PAYMENT, .ON_FILE_PAYMENT, .ON_FILE_PAYOUT].randomElement(using: &random)!, scopeID: text(&random),
            amount: Bool.random(using: &random) ? Int.random(in: -5...9_999_999, using: &random) : nil,
            currency: Bool.random(using: &random) ? "USD" : nil, accountReferenceID: Bool.random(using: &random) ? text(&random) : nil)
    }

    private func request(_ random: inout Seeded, metadataKeys: Int) -> CustomerRequest {
        let triggers = CustomerRequest.AuthFlowTriggers(
            qrCodeImageURL: text(&random), qrCodeSVGURL: text(&random), mobileURL: text(&random), refreshesAt: date(&random))
        let grants = (0..<Int.random(in: 0...2, using: &random)).map { _ in
            Grant(
                id: text(&random), customerID: text(&random), action: action(&random), status: .ACTIVE, type: .ONE_TIME, channel: .ONLINE,
                createdAt: date(&random), updatedAt: date(&random), expiresAt: Bool.random(using: &random) ? date(&random) : nil,
                requestID: Bool.random(using: &random) ? text(&random) : nil)
        }
        return CustomerRequest(
            id: text(&random), status: [.PENDING, .PROCESSING, .APPROVED, .DECLINED].randomElement(using: &random)!,
            actions: (0..<Int.random(in: 1...3, using: &random)).map { _ in action(&random) },
            authFlowTriggers: Bool.random(using: &random) ? triggers : nil, redirectURL: Bool.random(using: &random) ? text(&random) : nil,
            createdAt: date(&random), updatedAt: date(&random), expiresAt: date(&random),
            origin: Bool.random(using: &random) ? .init(type: "DIRECT", id: Bool.random(using: &random) ? text(&random) : nil) : nil,
            channel: [.IN_APP, .ONLINE, .IN_PERSON].randomElement(using: &random)!, referenceID: Bool.random(using: &random) ? text(&random) : nil,
            requesterProfile: Bool.random(using: &random) ? .init(name: text(&random), logoURL: Bool.random(using: &random) ? text(&random) : nil) : nil,
            customerProfile: Bool.random(using: &random) ? .init(id: text(&random), cashtag: text(&random)) : nil,
            metadata: metadataKeys == 0 && Bool.random(using: &random)
                ? nil : Dictionary(uniqueKeysWithValues: (0..<metadataKeys).map { ("key_\($0)_" + text(&random), text(&random)) }),
            grants: Bool.random(using: &random) ? grants : nil)
    }

    private func encoded(_ request: CustomerRequest) throws -> Data {
        try CashAppJSON.encoder().encode(CustomerRequestEnvelope(request: request))
    }

    @Test func writesTheEncodersBytes() throws {
        var random = Seeded(state: 20_261_123)
        for round in 0..<2000 {
            let request = request(&random, metadataKeys: round % 3 == 0 ? 1 : 0)
            let written = try #require(CustomerRequestJSONWriter.envelope(request), "declined \(request)")
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: try encoded(request), as: UTF8.self))
        }
    }

    @Test func declinesWhatTheEncoderWouldWriteOtherwise() throws {
        var random = Seeded(state: 7)
        var quoted = request(&random, metadataKeys: 0)
        quoted.referenceID = "say \"hi\""
        #expect(CustomerRequestJSONWriter.envelope(quoted) == nil)
        var controlled = request(&random, metadataKeys: 0)
        controlled.id = "GRR_\n"
        #expect(CustomerRequestJSONWriter.envelope(controlled) == nil)
        #expect(CustomerRequestJSONWriter.envelope(request(&random, metadataKeys: 2)) == nil)
        // What it declines still goes out, through the encoder, as valid JSON.
        #expect(try JSONSerialization.jsonObject(with: try encoded(quoted)) is [String: Any])
    }
}
