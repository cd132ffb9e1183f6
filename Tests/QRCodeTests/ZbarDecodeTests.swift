import Foundation
import QRCode
import TestSupport
import Testing

/// The half-block rendering, read back as an image, scans to the exact input text.
@Suite struct ZbarDecodeTests {
    @Test(
        .enabled(if: Zbar.executable != nil || Zbar.isCI, "zbarimg not on PATH (apt install zbar-tools)"),
        arguments: [Fixtures.short, Fixtures.authorizeURL, Fixtures.longURL]
    )
    func halfBlockRenderingScans(text: String) async throws {
        let zbarimg = try #require(Zbar.executable, "zbarimg must be installed in CI (zbar-tools)")
        let code = try QRCode(encoding: text)
        let lines = QRHalfBlocks.lines(code, margin: 2)
        // Scan what the terminal would show, not the code itself: this catches a
        // rendering that drops, shifts or swaps modules.
        let rows = QRHalfBlocks.modules(from: lines)

        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("qrcode-\(UUID().uuidString).pbm")
        try QRImage.pbm(rows, scale: 4, margin: 0).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        #expect(try await Zbar.decode(zbarimg, file: file) == text)
    }
}
