import Foundation
@testable import Sandbox
import Testing
import TestSupport

/// The idempotency fingerprint's sorted JSON: where the fast writer writes, it writes
/// JSONSerialization's bytes (the fingerprints instances share must not depend on which wrote them).
@Suite struct AdyenSortedJSONTests {
    private static func slow(_ text: String) -> Data? { AdyenIdempotencyStore.serializedWithSortedKeys(Data(text.utf8)) }

    /// The shapes our client sends: a payment, a session, a details call.
    static let bodies = [
        #"{"merchantAccount":"TestMerchant","reference":"order-1","amount":{"value":4505,"currency":"USD"},"paymentMethod":{"type":"cashapp","grantId":"GRG_1","onFileGrantId":null},"returnUrl":"https://example.com/return?x=1","shopperReference":"shopper/1","storePaymentMethod":true,"recurringProcessingModel":"CardOnFile","lineItems":[{"id":"A","quantity":2,"amountIncludingTax":1650},{"id":"B","quantity":1,"amountIncludingTax":-500}]}"#,
        #"{ "amount": { "currency": "EUR", "value": 0 }, "countryCode": "US", "merchantAccount": "M", "reference": "r", "returnUrl": "x://y", "expiresAt": "2026-11-29T10:00:00Z", "shopperLocale": "en-US", "channel": "Web", "blockedPaymentMethods": [], "metadata": {} }"#,
        #"{"details":{"redirectResult":"abc/def=="},"paymentData":"Ab02"}"#,
        #"[1,-2,true,false,null,"a/b",{"Zeta":1,"alpha":2,"Beta":[]}]"#,
    ]

    @Test(arguments: bodies)
    func plainBodiesAreWrittenAsJSONSerializationWritesThem(text: String) throws {
        let fast = try #require(AdyenSortedJSON.sortedKeys(Data(text.utf8)))
        #expect(fast == Self.slow(text), "\(String(decoding: fast, as: UTF8.self))")
    }

    /// What the fast writer leaves to JSONSerialization (whose order or escapes it cannot promise).
    @Test(arguments: [
        #"{"item1":1,"item10":2,"item2":3}"#, #"{"a_b":1,"ab":2}"#, #"{"Ab":1,"aB":2}"#, #"{"a":"\u00e9"}"#,
        #"{"a":"caf\#u{e9}"}"#, #"{"a":"x\"y"}"#, #"{"a":1.5}"#, #"{"a":1e3}"#, #"{"a":-0}"#, #"{"a":01}"#,
        #"{"a":1,"a":2}"#, #""text""#, "5", "", "{", #"{"a":1}x"#,
    ])
    func anythingElseIsLeftToJSONSerialization(text: String) {
        #expect(AdyenSortedJSON.sortedKeys(Data(text.utf8)) == nil)
    }

    /// Every one-byte change and cut of a plain body: wherever the fast writer still writes, the
    /// bytes are JSONSerialization's.
    @Test func noChangeOfOneByteMakesTheTwoDisagree() {
        let plain = Array(Self.bodies[0].utf8)
        var writtenFast = 0
        for variant in oneByteChanges(of: plain, replacements: Array(#" "{}[],:0-/aZ"#.utf8) + [0x00, 0xc3]) {
            guard let fast = AdyenSortedJSON.sortedKeys(Data(variant)) else { continue }
            writtenFast += 1
            #expect(fast == AdyenIdempotencyStore.serializedWithSortedKeys(Data(variant)), "\(String(decoding: variant, as: UTF8.self))")
        }
        #expect(writtenFast > 1000, "most changes stay plain")
    }

    /// Random objects of letter keys in mixed case, nested, written unsorted: the same bytes.
    @Test func randomPlainObjectsAreWrittenAsJSONSerializationWritesThem() throws {
        var generator = SystemRandomNumberGenerator()
        var writtenFast = 0
        for _ in 0..<300 {
            let object = Self.randomObject(depth: 0, using: &generator)
            let unsorted = try JSONSerialization.data(withJSONObject: object)
            guard let fast = AdyenSortedJSON.sortedKeys(unsorted) else { continue }
            writtenFast += 1
            #expect(fast == AdyenIdempotencyStore.serializedWithSortedKeys(unsorted), "\(String(decoding: unsorted, as: UTF8.self))")
        }
        #expect(writtenFast > 100, "most random objects are plain")
    }

    private static func randomObject(depth: Int, using generator: inout SystemRandomNumberGenerator) -> [String: Any] {
        var object: [String: Any] = [:]
        for _ in 0..<Int.random(in: 0...6, using: &generator) {
            let key = String((0..<Int.random(in: 1...8, using: &generator)).map { _ in "aAbBmMzZyY".randomElement(using: &generator)! })
            object[key] = randomValue(depth: depth + 1, using: &generator)
        }
        return object
    }

    private static func randomValue(depth: Int, using generator: inout SystemRandomNumberGenerator) -> Any {
        switch Int.random(in: 0..<(depth < 3 ? 7 : 5), using: &generator) {
        case 0: Int.random(in: -100_000...100_000, using: &generator)
        case 1: Bool.random(using: &generator)
        case 2: NSNull()
        case 3, 4: String((0..<Int.random(in: 0...10, using: &generator)).map { _ in "ab /:?=.-_~Z09".randomElement(using: &generator)! })
        case 5: (0..<Int.random(in: 0...3, using: &generator)).map { _ in randomValue(depth: depth + 1, using: &generator) }
        default: randomObject(depth: depth, using: &generator)
        }
    }
}
