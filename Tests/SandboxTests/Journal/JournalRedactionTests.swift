import Foundation
import ProviderWire
import Testing

@testable import Sandbox

/// The journal's redaction and reference scan on their own: what may hold a secret field, query
/// values, bodies cut short, and the ids a body names.
@Suite struct JournalRedactionTests {
    @Test(arguments: [
        (#"{"amount": 100}"#, false), (#"{"Password": "x"}"#, true), (#"{"client_SECRET": "x"}"#, true), (#"{"apiKey": "x"}"#, true),
        (#"{"api_key": "x"}"#, true), (#"{"p\u0061ssword": "x"}"#, true), ("authorization=x", true), (#"{"spa": "passw"}"#, false),
    ])
    func mayHoldSecretFieldFindsEveryWordInAnyCase(body: String, expected: Bool) {
        #expect(Redactor.mayHoldSecretField(Data(body.utf8)) == expected, "\(body)")
    }

    @Test func aBodyWithoutSecretWordsReadsAsTheRedactorWouldGiveIt() {
        let redactor = Redactor()
        for body in [#"{"b": 1, "a": [true, null]}"#, #"{"password": "p", "n": {"client_secret": "c"}}"#, "plain text"] {
            let data = Data(body.utf8)
            #expect(JournalRedaction.body(data, redactor: redactor) == redactor.body(data), "\(body)")
        }
    }

    @Test func secretQueryValuesAreRedactedAndOthersKept() {
        let redactor = Redactor()
        #expect(redactor.pathAndQuery("/a/qr.png?t=abc&size=3") == "/a/qr.png?t=[REDACTED]&size=3")
        #expect(redactor.pathAndQuery("/x?Token=1&api_key=2&owner=me") == "/x?Token=[REDACTED]&api_key=[REDACTED]&owner=me")
        #expect(redactor.pathAndQuery("/plain") == "/plain")
        #expect(redactor.pathAndQuery("/x?flag&t") == "/x?flag&t")
    }

    @Test func aBodyCutShortStillHasItsSecretFieldsRedacted() {
        let text = #"{"password": "secret-one", "nested": {"apikey": "secret-two"#
        let redacted = JournalRedaction.body(Data(text.utf8), redactor: Redactor()) ?? ""
        #expect(!redacted.contains("secret-one") && !redacted.contains("secret-two"), "\(redacted)")
        #expect(JournalRedaction.fields(in: "user=a&password=hunter2") == "user=a&password=[REDACTED]")
    }

    @Test func aCharacterCutInTwoIsDropped() {
        let data = Data("ab€".utf8)
        #expect(JournalRedaction.wholeCharacters(data.prefix(4)) == Data("ab".utf8))
        #expect(JournalRedaction.wholeCharacters(data) == data)
    }

    @Test func referencesAreTheIdLikeStringValuesAndRouteCaptures() {
        var references = JournalReferences()
        references.add(pathParameters: "/v2/payments/PAY_1/complete", pattern: "/v2/payments/{id}/complete")
        references.add(json: Data(#"{"request": {"id": "GRR_1", "amount": 5, "reference_id": "order-9", "client_id": "CAS-secret", "pspReference": "PSP1", "note": "id"}, "ids": ["x"]}"#.utf8))
        #expect(references.values == ["PAY_1", "GRR_1", "order-9", "PSP1"])
        var none = JournalReferences()
        none.add(json: Data("not json id: 1".utf8))
        #expect(none.values.isEmpty)
    }
}
