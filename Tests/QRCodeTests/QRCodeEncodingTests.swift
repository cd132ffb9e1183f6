import QRCode
import Testing

/// What libqrencode hands back: a real QR symbol, or a clear error.
@Suite struct QRCodeEncodingTests {
    @Test func authorizeURLGivesAValidSymbolSize() throws {
        let code = try QRCode(encoding: Fixtures.authorizeURL)
        // Versions grow by 4 modules from 21. The URL is 108 bytes; version 5 holds only
        // 106 at level L, so the smallest fit is version 6 (41 modules).
        #expect(code.size >= 21 && (code.size - 21) % 4 == 0)
        #expect(code.size == 41)
    }

    /// A scanner locates a code by its three 7×7 finder patterns: a dark ring, a light
    /// ring and a dark 3×3 centre, each with a light separator towards the symbol.
    @Test func finderPatternsSitInThreeCorners() throws {
        let code = try QRCode(encoding: Fixtures.authorizeURL)
        let corners = [(0, 0), (code.size - 7, 0), (0, code.size - 7)]
        for (left, top) in corners {
            for dy in -1...7 {
                for dx in -1...7 {
                    let ring = max(abs(dx - 3), abs(dy - 3))
                    // Ring 3 dark, 2 light, 0–1 dark; ring 4 is the separator (light).
                    let expected = ring != 2 && ring != 4
                    #expect(code[left + dx, top + dy] == expected, "finder at (\(left), \(top)) offset (\(dx), \(dy))")
                }
            }
        }
        // The fourth corner has no finder pattern.
        let last = code.size - 1
        #expect(!(0..<7).allSatisfy { code[last - $0, last] && code[last, last - $0] })
    }

    @Test func higherCorrectionNeedsABiggerSymbol() throws {
        let low = try QRCode(encoding: Fixtures.authorizeURL, correction: .low)
        let high = try QRCode(encoding: Fixtures.authorizeURL, correction: .high)
        #expect(high.size > low.size)
    }

    @Test func outsideTheMatrixReadsAsLight() throws {
        let code = try QRCode(encoding: Fixtures.short)
        #expect(code[-1, 0] == false)
        #expect(code[0, code.size] == false)
        #expect(code[0, 0] == true)
    }

    @Test func sameTextGivesEqualCodes() throws {
        #expect(try QRCode(encoding: Fixtures.short) == QRCode(encoding: Fixtures.short))
        let code = try QRCode(encoding: Fixtures.short)
        #expect(QRCode(modules: Fixtures.rows(code, margin: 0)) == code)
    }

    @Test func tooLongTextThrowsAReadableError() {
        let text = String(repeating: "x", count: 8000)
        #expect {
            _ = try QRCode(encoding: text)
        } throws: { error in
            guard let error = error as? QRCodeError, case .tooLong(8000, .low) = error else { return false }
            return error.description.contains("too long for a QR code") && error.description.contains("8000 bytes")
        }
    }

    @Test func emptyTextThrows() {
        #expect(throws: QRCodeError.emptyText) { try QRCode(encoding: "") }
        #expect(QRCodeError.emptyText.description.contains("empty"))
    }
}
