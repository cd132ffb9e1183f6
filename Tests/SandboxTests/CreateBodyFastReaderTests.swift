import Foundation
import ProviderWire
@testable import Sandbox
import Testing
import TestSupport

/// The sandbox reads plain create bodies without JSONDecoder; whatever it reads that way must
/// be exactly what JSONDecoder reads, and anything else must be left to JSONDecoder.
@Suite struct CreateBodyFastReaderTests {
    private static func decoded(_ text: String) -> CreateCustomerRequestBody? {
        try? CashAppJSON.decoder().decode(CreateCustomerRequestBody.self, from: Data(text.utf8))
    }

    private static func fast(_ text: String) -> CreateCustomerRequestBody? {
        CreateBodyFastReader.read(Data(text.utf8))
    }

    @Test(arguments: [
        CreateCustomerRequestParams(
            actions: [.oneTimePayment(scopeID: "BRAND_shop", amount: 4505, currency: "USD")],
            channel: .ONLINE, redirectURL: "terminalcheckout://return", referenceID: "order-1", metadata: ["cartId": "c-1", "note": "gift ✓"]),
        CreateCustomerRequestParams(
            actions: [
                .oneTimePayment(scopeID: "BRAND_shop", amount: 1, currency: "USD"),
                PaymentAction(type: .ON_FILE_PAYMENT, scopeID: "BRAND_shop", accountReferenceID: "acct-9"),
            ],
            channel: .IN_APP, redirectURL: "https://shop.example/return?x=1"),
        CreateCustomerRequestParams(actions: [], channel: .IN_PERSON, redirectURL: "", metadata: [:]),
    ])
    func whatOurClientSendsIsReadWithoutJSONDecoder(params: CreateCustomerRequestParams) throws {
        let body = CreateCustomerRequestBody(idempotencyKey: "key-1", request: params)
        let sent = try CashAppJSON.encoder().encode(body)
        #expect(CreateBodyFastReader.read(sent) == body, "\(String(decoding: sent, as: UTF8.self))")
    }

    @Test(arguments: [
        #"{"idempotency_key":"k","request":{"actions":[{"type":"ONE_TIME_PAYMENT","scope_id":"BRAND_a","amount":4505,"currency":"USD"}],"channel":"ONLINE","redirect_url":"x://y"}}"#,
        " \n{ \"request\" : { \"channel\" : \"ONLINE\" , \"redirect_url\" : \"x://y\" , \"actions\" : [ ] , \"reference_id\" : null , \"metadata\" : null } , \"idempotency_key\" : \"\" } \r\n\t",
        #"{"idempotency_key":"k","request":{"actions":[{"type":"ON_FILE_PAYOUT","scope_id":"","amount":null,"currency":null,"account_reference_id":null}],"channel":"IN_PERSON","redirect_url":"","metadata":{"":"","a":"é"}}}"#,
        #"{"idempotency_key":"k","request":{"actions":[{"type":"ONE_TIME_PAYMENT","scope_id":"B","amount":0},{"type":"ONE_TIME_PAYMENT","scope_id":"B","amount":999999999999999999}],"channel":"ONLINE","redirect_url":"r"}}"#,
    ])
    func plainBodiesReadAsJSONDecoderReadsThem(text: String) throws {
        let fast = try #require(Self.fast(text))
        #expect(fast == Self.decoded(text))
    }

    @Test(arguments: [
        // Escapes, control characters, invalid UTF-8.
        #"{"idempotency_key":"k\u0041","request":{"actions":[],"channel":"ONLINE","redirect_url":"r"}}"#,
        #"{"idempotency_key":"k\/","request":{"actions":[],"channel":"ONLINE","redirect_url":"r"}}"#,
        "{\"idempotency_key\":\"k\u{1}\",\"request\":{\"actions\":[],\"channel\":\"ONLINE\",\"redirect_url\":\"r\"}}",
        // Unknown and repeated keys, in every object.
        #"{"idempotency_key":"k","extra":1,"request":{"actions":[],"channel":"ONLINE","redirect_url":"r"}}"#,
        #"{"idempotency_key":"k","idempotency_key":"j","request":{"actions":[],"channel":"ONLINE","redirect_url":"r"}}"#,
        #"{"idempotency_key":"k","request":{"actions":[],"channel":"ONLINE","redirect_url":"r","metadata":{"a":"1","a":"2"}}}"#,
        #"{"idempotency_key":"k","request":{"actions":[{"type":"ONE_TIME_PAYMENT","scope_id":"B","scope_id":"C"}],"channel":"ONLINE","redirect_url":"r"}}"#,
        // Numbers that are not plain non-negative integers.
        #"{"idempotency_key":"k","request":{"actions":[{"type":"ONE_TIME_PAYMENT","scope_id":"B","amount":-5}],"channel":"ONLINE","redirect_url":"r"}}"#,
        #"{"idempotency_key":"k","request":{"actions":[{"type":"ONE_TIME_PAYMENT","scope_id":"B","amount":45.0}],"channel":"ONLINE","redirect_url":"r"}}"#,
        #"{"idempotency_key":"k","request":{"actions":[{"type":"ONE_TIME_PAYMENT","scope_id":"B","amount":4e3}],"channel":"ONLINE","redirect_url":"r"}}"#,
        #"{"idempotency_key":"k","request":{"actions":[{"type":"ONE_TIME_PAYMENT","scope_id":"B","amount":0123}],"channel":"ONLINE","redirect_url":"r"}}"#,
        #"{"idempotency_key":"k","request":{"actions":[{"type":"ONE_TIME_PAYMENT","scope_id":"B","amount":9999999999999999999}],"channel":"ONLINE","redirect_url":"r"}}"#,
        // Missing, null or mistyped required values; unknown enum cases.
        #"{"request":{"actions":[],"channel":"ONLINE","redirect_url":"r"}}"#,
        #"{"idempotency_key":null,"request":{"actions":[],"channel":"ONLINE","redirect_url":"r"}}"#,
        #"{"idempotency_key":"k","request":{"actions":[],"channel":"ONLINE"}}"#,
        #"{"idempotency_key":"k","request":{"actions":[],"channel":"SOMEWHERE","redirect_url":"r"}}"#,
        #"{"idempotency_key":"k","request":{"actions":[{"type":"REFUND","scope_id":"B"}],"channel":"ONLINE","redirect_url":"r"}}"#,
        #"{"idempotency_key":"k","request":{"actions":[],"channel":"ONLINE","redirect_url":"r","metadata":{"a":1}}}"#,
        #"{"idempotency_key":5,"request":{"actions":[],"channel":"ONLINE","redirect_url":"r"}}"#,
        // Not one JSON object.
        #"{"idempotency_key":"k","request":{"actions":[],"channel":"ONLINE","redirect_url":"r"}} {}"#,
        #"{"idempotency_key":"k","request":{"actions":[],"channel":"ONLINE","redirect_url":"r"},}"#,
        #"{"idempotency_key":"k","request":{"actions":[,],"channel":"ONLINE","redirect_url":"r"}}"#,
        "", "null", "[]", "{",
    ])
    func anythingElseIsLeftToJSONDecoder(text: String) {
        #expect(Self.fast(text) == nil)
    }

    /// Every one-byte change and cut of a plain body: whatever the fast reader still reads,
    /// JSONDecoder must read the same.
    @Test func noChangeOfOneByteMakesTheTwoDisagree() throws {
        let plain = Array(#"{"idempotency_key":"k-1","request":{"actions":[{"type":"ONE_TIME_PAYMENT","scope_id":"BRAND_a","amount":4505,"currency":"USD"}],"channel":"ONLINE","redirect_url":"x://y","reference_id":"r","metadata":{"a":"b"}}}"#.utf8)
        let replacements = Array(#" "{}[],:0-.e\nul"#.utf8) + [0x00, 0x1f, 0xc3, 0xff]
        var readFast = 0
        for variant in oneByteChanges(of: plain, replacements: replacements) {
            let data = Data(variant)
            guard let fast = CreateBodyFastReader.read(data) else { continue }
            readFast += 1
            let decoded = try? CashAppJSON.decoder().decode(CreateCustomerRequestBody.self, from: data)
            #expect(fast == decoded, "\(String(decoding: variant, as: UTF8.self))")
        }
        #expect(readFast > 100, "most changes inside strings stay plain")
    }
}
