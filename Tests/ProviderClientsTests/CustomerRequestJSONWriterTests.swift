import Foundation
import ProviderWire
import TestSupport
import Testing

/// The sandbox's hand-written `{"request": …}` is the encoder's, byte for byte, or it declines.
@Suite struct CustomerRequestJSONWriterTests {
    private func encoded(_ request: CustomerRequest) throws -> Data {
        try CashAppJSON.encoder().encode(CustomerRequestEnvelope(request: request))
    }

    @Test func writesTheEncodersBytes() throws {
        var random = RandomCustomerRequests(seed: 20_261_123)
        for round in 0..<2000 {
            let request = random.request(metadataKeys: round % 3 == 0 ? 1 : 0)
            let written = try #require(CustomerRequestJSONWriter.envelope(request), "declined \(request)")
            #expect(String(decoding: written, as: UTF8.self) == String(decoding: try encoded(request), as: UTF8.self))
        }
    }

    @Test func declinesWhatTheEncoderWouldWriteOtherwise() throws {
        var random = RandomCustomerRequests(seed: 7)
        var quoted = random.request(metadataKeys: 0)
        quoted.referenceID = "say \"hi\""
        #expect(CustomerRequestJSONWriter.envelope(quoted) == nil)
        var controlled = random.request(metadataKeys: 0)
        controlled.id = "GRR_\n"
        #expect(CustomerRequestJSONWriter.envelope(controlled) == nil)
        #expect(CustomerRequestJSONWriter.envelope(random.request(metadataKeys: 2)) == nil)
        // What it declines still goes out, through the encoder, as valid JSON.
        #expect(try JSONSerialization.jsonObject(with: try encoded(quoted)) is [String: Any])
    }
}
