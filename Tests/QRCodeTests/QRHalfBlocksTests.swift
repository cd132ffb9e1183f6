import QRCode
import Testing

/// The terminal rendering shows exactly the code, quiet zone included.
@Suite struct QRHalfBlocksTests {
    @Test(arguments: [0, 1, 2, 4])
    func linesRoundTripToTheModules(margin: Int) throws {
        let code = try QRCode(encoding: Fixtures.authorizeURL)
        let lines = QRHalfBlocks.lines(code, margin: margin)
        let side = code.size + 2 * margin

        #expect(lines.count == (side + 1) / 2)
        #expect(lines.allSatisfy { $0.count == side })
        let size = QRHalfBlocks.size(for: code, margin: margin)
        #expect(size.width == side && size.height == lines.count)

        var rows = QRHalfBlocks.modules(from: lines)
        // QR sizes are odd, so the height always needs a light padding row at the bottom.
        #expect(rows.count == side + 1)
        #expect(rows.removeLast().allSatisfy { !$0 })
        #expect(rows == Fixtures.rows(code, margin: margin))
    }

    @Test func glyphsPairTopAndBottomModules() {
        // Columns of the first pair: both light, top only, bottom only, both dark.
        let code = QRCode(modules: [
            [false, true, false, true],
            [false, false, true, true],
            [true, true, true, true],
            [false, false, false, false],
        ])
        #expect(QRHalfBlocks.lines(code, margin: 0) == [" ▀▄█", "▀▀▀▀"])
        // A margin shifts every pair by one row: the quiet zone shares the first line.
        #expect(QRHalfBlocks.lines(code, margin: 1) == ["  ▄ ▄ ", " ▄▄██ ", "      "])
    }
}
