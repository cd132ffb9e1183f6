import Hummingbird
@testable import Sandbox
import Testing

/// The sandbox reads headers with `HTTPFields.value`, which must read exactly what the
/// subscript reads: a route told "no header" or a different joined value would answer wrongly.
@Suite struct HTTPFieldValueTests {
    private static let idempotencyKey = HTTPFields.Element.Name("Idempotency-Key")!

    private static let cases: [HTTPFields] = [
        [:],
        [.contentType: "application/json"],
        [.contentType: "application/json", .contentLength: "12"],
        HTTPFields([HTTPFields.Element(name: .accept, value: "text/html"), HTTPFields.Element(name: .accept, value: "application/json")]),
        HTTPFields([HTTPFields.Element(name: .cookie, value: "a=1"), HTTPFields.Element(name: .userAgent, value: "x"), HTTPFields.Element(name: .cookie, value: "b=2")]),
        HTTPFields([HTTPFields.Element(name: HTTPFields.Element.Name("idempotency-KEY")!, value: "k1"), HTTPFields.Element(name: .authorization, value: "Bearer t")]),
        HTTPFields([HTTPFields.Element(name: .authorization, value: ""), HTTPFields.Element(name: .authorization, value: "Bearer t")]),
    ]

    @Test(arguments: cases)
    func readsWhatTheSubscriptReads(_ headers: HTTPFields) {
        for name in [HTTPFields.Element.Name.contentType, .contentLength, .accept, .cookie, .authorization, .userAgent, Self.idempotencyKey] {
            #expect(headers.value(name) == headers[name], "\(name) in \(headers)")
        }
    }

    @Test func namesMatchWhateverTheirCase() {
        let headers = HTTPFields([HTTPFields.Element(name: HTTPFields.Element.Name("IDEMPOTENCY-key")!, value: "k1")])
        #expect(headers.value(Self.idempotencyKey) == "k1")
    }

    @Test func severalFieldsJoinAsTheSubscriptJoinsThem() {
        let accepts = HTTPFields([HTTPFields.Element(name: .accept, value: "a"), HTTPFields.Element(name: .accept, value: "b")])
        #expect(accepts.value(.accept) == "a, b")
        let cookies = HTTPFields([HTTPFields.Element(name: .cookie, value: "a=1"), HTTPFields.Element(name: .cookie, value: "b=2")])
        #expect(cookies.value(.cookie) == "a=1; b=2")
        #expect(accepts.value(.cookie) == nil)
    }
}
