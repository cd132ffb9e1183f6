import Foundation
import Testing
import TerminalUI

@testable import CheckoutApp

/// `--json` lines stay JSON however a provider's text reads (Schemas/README.md).
@Suite struct JSONLineTests {
    @Test func delAndC1ControlsAreJSONEscapesThatReadBack() throws {
        let reason = "refused\u{85}by\u{7F}bank\u{9F}"
        let line = JSONLine.encode(["reason": reason])
        #expect(line == #"{"reason":"refused\u0085by\u007Fbank\u009F"}"#)
        // Console escapes controls on every path; a JSON line has none left to escape.
        #expect(TerminalText.escapingControls(lines: line) == line)
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(decoded["reason"] == reason)
    }

    /// A right-to-left override in a provider's text is a JSON escape too: the line reads on a
    /// terminal as it is, and decodes to the same text.
    @Test func bidirectionalControlsAreJSONEscapesThatReadBack() throws {
        let reference = "ref-\u{202E}50.54\u{2066}x\u{2069}"
        let line = JSONLine.encode(["reference": reference])
        #expect(line == #"{"reference":"ref-\u202E50.54\u2066x\u2069"}"#)
        #expect(TerminalText.escapingControls(lines: line) == line)
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])
        #expect(decoded["reference"] == reference)
    }

    /// The direct writer and JSONSerialization write the same bytes, for every kind of value a
    /// run's line holds and every text a provider could send (controls, quotes, slashes, emoji).
    @Test func theDirectWriterWritesWhatJSONSerializationWrites() throws {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["a", "é", "/", "\\", "\"", "\n", "\r", "\t", "\u{08}", "\u{0C}", "\u{01}", "\u{1F}", "\u{7F}", " ", "😀", "\u{2028}", "0", "_"]
        func text() -> String { (0..<Int.random(in: 0...6, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined() }
        for _ in 0..<300 {
            let object: [String: Any] = [
                "state": text(), "at_ms": Int.random(in: -5...Int(Int32.max), using: &generator), "met": Bool.random(using: &generator),
                "detail": NSNull(), "grants": (0..<Int.random(in: 0...3, using: &generator)).map { _ in text() },
                "error": ["code": text(), "field": NSNull(), "nested_list": [text(), 7, false] as [Any]] as [String: Any],
                "details": ["psp_reference": text(), "result_code": text()],
                "summary_items": (0..<Int.random(in: 0...3, using: &generator)).map { _ in ["amount": text(), "label": text()] },
            ]
            let direct = try #require(JSONLineWriter.encode(object))
            #expect(JSONLine.escapingUnsafeScalars(direct) == JSONLine.serialized(object))
        }
    }

    /// Keys of letters in either case and underscores (an SDK's camelCase parameters) come in
    /// JSONSerialization's order, which ignores case.
    @Test func mixedCaseKeysComeInJSONSerializationsOrder() throws {
        var generator = SystemRandomNumberGenerator()
        let letters = Array("aAbBzZ_mM")
        func key() -> String { String((0..<Int.random(in: 1...5, using: &generator)).map { _ in letters.randomElement(using: &generator)! }) }
        var written = 0
        for _ in 0..<300 {
            var object: [String: Any] = ["paymentRequestId": "r", "show_loading": "true", "eventCode": "SDK_END_OF_LOADING", "banks": "SCB"]
            for _ in 0..<Int.random(in: 0...6, using: &generator) { object[key()] = key() }
            object["parameters"] = Dictionary((0..<3).map { _ in (key(), key()) }) { first, _ in first }
            // Keys alike but for case: JSONSerialization's tie-break is left to it.
            guard let direct = JSONLineWriter.encode(object) else { continue }
            written += 1
            #expect(JSONLine.escapingUnsafeScalars(direct) == JSONLine.serialized(object), "\(direct)")
        }
        #expect(written > 50)
        #expect(JSONLineWriter.encode(["paymentId": "p", "paymentid": "q"]) == nil)
        let underscores: [String: Any] = ["show_loading": "x", "showLoading": "y", "showloading_": "z"]
        #expect(JSONLineWriter.encode(underscores) == #"{"show_loading":"x","showLoading":"y","showloading_":"z"}"#)
        #expect(JSONLine.serialized(underscores) == #"{"show_loading":"x","showLoading":"y","showloading_":"z"}"#)
    }

    /// Keys with digits (Square's last_4) come in JSONSerialization's numeric order, or are left
    /// to it where a digit is the first difference between two keys.
    @Test func keysWithDigitsComeInJSONSerializationsOrder() throws {
        var generator = SystemRandomNumberGenerator()
        let characters = Array("aBz_019")
        func key() -> String { String((0..<Int.random(in: 1...5, using: &generator)).map { _ in characters.randomElement(using: &generator)! }) }
        var written = 0
        for _ in 0..<400 {
            var object: [String: Any] = ["last_4": "1111", "card_brand": "VISA"]
            for _ in 0..<Int.random(in: 0...5, using: &generator) { object[key()] = key() }
            guard let direct = JSONLineWriter.encode(object) else { continue }
            written += 1
            #expect(JSONLine.escapingUnsafeScalars(direct) == JSONLine.serialized(object), "\(direct)")
        }
        #expect(written > 50)
        let square: [String: Any] = ["last_4": "1111", "card_brand": "VISA", "key2": 1, "last": "x"]
        #expect(JSONLineWriter.encode(square) == #"{"card_brand":"VISA","key2":1,"last":"x","last_4":"1111"}"#)
        #expect(JSONLine.serialized(square) == #"{"card_brand":"VISA","key2":1,"last":"x","last_4":"1111"}"#)
    }

    /// Keys or values the direct writer does not know are left to JSONSerialization.
    @Test func otherKeysAndValuesAreLeftToJSONSerialization() {
        #expect(JSONLineWriter.encode(["Upper-case": 1]) == nil)
        #expect(JSONLineWriter.encode(["a9": 1, "a10": 2]) == nil)
        #expect(JSONLineWriter.encode(["a_": 1, "a1": 2]) == nil)
        #expect(JSONLineWriter.encode(["amount": 1.5]) == nil)
        #expect(JSONLineWriter.encode(["parameters": ["a-b": "c"]]) == nil)
        #expect(JSONLine.encode(["amount": 1.5, "Key": "x"]) == #"{"amount":1.5,"Key":"x"}"#)
    }
}

