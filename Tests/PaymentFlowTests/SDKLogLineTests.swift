import Foundation
import PaymentFlow
import Testing

/// An SDK's log line is made safe where it is built: control and bidi characters escaped,
/// lengths and counts bounded, secrets redacted.
@Suite struct SDKLogLineTests {
    @Test func secretsAreRedactedByTheirParametersNames() {
        let line = SDKLogLine(name: "createComponent", parameters: [
            "paymentSessionData": "opaque", "apiKey": "k", "client_secret": "s", "Signature": "x", "accessToken": "t", "locale": "en_US",
        ])
        #expect(line.parameters == [
            "paymentSessionData": "[redacted]", "apiKey": "[redacted]", "client_secret": "[redacted]", "Signature": "[redacted]",
            "accessToken": "[redacted]", "locale": "en_US",
        ])
    }

    @Test func credentialsInAURLAreRedacted() {
        let line = SDKLogLine(name: "load", parameters: ["url": "https://user:pw@bank.example/cashier?x=1"])
        #expect(line.parameters["url"] == "https://[redacted]@bank.example/cashier?x=1")
    }

    @Test func controlAndBidiCharactersAreEscapedAndLengthsBounded() {
        let line = SDKLogLine(name: "a\u{1B}[2J\u{202E}b", parameters: ["m": String(repeating: "x", count: 500), "": "dropped"])
        #expect(line.name == "a\\u{1B}[2J\\u{202E}b")
        #expect(line.parameters["m"]?.count == SDKLogLine.maxValueLength && line.parameters["m"]?.hasSuffix("…") == true)
        #expect(line.parameters[""] == nil)
        let many = SDKLogLine(name: "", parameters: Dictionary(uniqueKeysWithValues: (0..<40).map { ("k\($0)", "v") }))
        #expect(many.name == "log" && many.parameters.count == SDKLogLine.maxParameters)
    }

    @Test func theSummaryListsTheParametersInNameOrder() {
        #expect(SDKLogLine(name: "n", parameters: ["b": "2", "a": "x y"]).summary == #"n a="x y" b=2"#)
    }
}
