import Foundation
import ProviderWire
import TestSupport
import Testing

@testable import Sandbox

/// A kept customer request written by hand is the store's encoder's JSON, byte for byte, and
/// reads back as the same record; what the hand writer declines (metadata of several keys, whose
/// order the encoder decides) is left to it.
@Suite struct StoredRequestJSONTests {
    private func stored(_ random: inout RandomCustomerRequests, metadataKeys: Int) -> CustomerRequestStore.StoredRequest {
        CustomerRequestStore.StoredRequest(
            request: random.request(metadataKeys: metadataKeys), clientID: random.text(), triggerSeed: random.text(),
            scopedKey: random.text(), params: random.params(metadataKeys: metadataKeys))
    }

    @Test func writesTheStoresEncoderBytesAndReadsBack() throws {
        var random = RandomCustomerRequests(seed: 20_261_127)
        for round in 0..<300 {
            let record = stored(&random, metadataKeys: round % 3 == 0 ? 1 : 0)
            let written = try #require(record.storedJSON, "declined \(record)")
            #expect(written == String(decoding: try StoredRecordCoding.encoder().encode(record), as: UTF8.self))
            #expect(try StoredRecordCoding.decoder().decode(CustomerRequestStore.StoredRequest.self, from: Data(written.utf8)) == record)
        }
    }

    @Test func declinesMetadataOfMoreThanOneKey() {
        var random = RandomCustomerRequests(seed: 11)
        #expect(stored(&random, metadataKeys: 2).storedJSON == nil)
    }

    /// Every kept request's scoped key holds a NUL (client and key apart): escaped, not declined.
    @Test func controlCharactersAreEscapedAsTheEncoderEscapesThem() throws {
        var random = RandomCustomerRequests(seed: 13)
        let record = CustomerRequestStore.StoredRequest(
            request: random.request(metadataKeys: 0), clientID: "CAS-CI", triggerSeed: "\u{1}\t\n/",
            scopedKey: "CAS-CI\u{0}key", params: random.params(metadataKeys: 0))
        let written = try #require(record.storedJSON)
        #expect(written == String(decoding: try StoredRecordCoding.encoder().encode(record), as: UTF8.self))
    }
}
