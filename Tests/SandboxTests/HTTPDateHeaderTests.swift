import Foundation
import Testing

@testable import Sandbox

/// The `Date` header is IMF-fixdate (RFC 9110 §5.6.7), as a POSIX-locale date formatter in GMT writes it.
@Suite struct HTTPDateHeaderTests {
    @Test func theRFCsExampleReadsAsTheRFCWritesIt() {
        #expect(HTTPDateHeader.text(secondsSince1970: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDateHeader.text(secondsSince1970: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(HTTPDateHeader.text(secondsSince1970: 951_782_400) == "Tue, 29 Feb 2000 00:00:00 GMT")
        #expect(HTTPDateHeader.text(secondsSince1970: 253_402_300_799) == "Fri, 31 Dec 9999 23:59:59 GMT")
        // Past year 9999 the header has no form: the clock is held at its last second.
        #expect(HTTPDateHeader.text(secondsSince1970: .max) == "Fri, 31 Dec 9999 23:59:59 GMT")
        #expect(HTTPDateHeader.text(secondsSince1970: .min) == "Mon, 01 Jan 0001 00:00:00 GMT")
    }

    @Test func anyTimeReadsAsADateFormatterWritesIt() {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
        var generator = SystemRandomNumberGenerator()
        // From 1600: before the Gregorian calendar began the formatter counts Julian days.
        let edges: [Int64] = [-1, -86_400, 86_399, 86_400, 1_796_036_400, -11_676_096_000]
        for seconds in edges + (0..<2_000).map({ _ in Int64.random(in: -11_676_096_000..<253_402_300_800, using: &generator) }) {
            #expect(HTTPDateHeader.text(secondsSince1970: seconds) == formatter.string(from: Date(timeIntervalSince1970: Double(seconds))), "\(seconds)")
        }
    }

    @Test func theCurrentHeaderIsNow() {
        let header = HTTPDateHeader()
        let before = Int64(Date().timeIntervalSince1970.rounded(.down))
        let current = header.current
        let after = Int64(Date().timeIntervalSince1970.rounded(.down))
        #expect((before...after).map { HTTPDateHeader.text(secondsSince1970: $0) }.contains(current))
    }
}
