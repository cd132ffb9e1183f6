import CZlib
import Foundation
import QRCode
import TestSupport
import Testing

/// The PNG encoder: a well-formed file (signature, chunk CRCs, header), the right pixels,
/// and a real scanner reads it back.
@Suite struct QRImagePNGTests {
    /// One PNG chunk as read back from the file.
    struct Chunk {
        let type: String
        let data: [UInt8]
        let crc: UInt32
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    @Test func isAWellFormedPNGWithVerifiedChunkCRCs() throws {
        let code = try QRCode(encoding: Fixtures.authorizeURL)
        let png = [UInt8](QRImage.png(code, scale: 3, margin: 2))
        #expect(Array(png.prefix(8)) == Self.signature)

        let chunks = try Self.chunks(png)
        #expect(chunks.map(\.type) == ["IHDR", "IDAT", "IEND"])
        for chunk in chunks {
            // Checked with zlib's crc32, over type and data as the PNG spec defines it.
            let covered = Array(chunk.type.utf8) + chunk.data
            #expect(UInt32(crc32(0, covered, uInt(covered.count))) == chunk.crc, "bad CRC in \(chunk.type)")
        }

        let header = chunks[0].data
        let side = (code.size + 2 * 2) * 3
        #expect(header.count == 13)
        #expect(Self.uint32(header, at: 0) == UInt32(side), "width")
        #expect(Self.uint32(header, at: 4) == UInt32(side), "height")
        #expect(Array(header[8...]) == [1, 0, 0, 0, 0], "1-bit grayscale, deflate, no filter, no interlace")
    }

    @Test func pixelsMatchTheModulesWithAQuietZone() throws {
        let code = try QRCode(encoding: Fixtures.short)
        let (scale, margin) = (2, 3)
        let chunks = try Self.chunks([UInt8](QRImage.png(code, scale: scale, margin: margin)))
        let idat = try #require(chunks.first { $0.type == "IDAT" })

        let side = (code.size + 2 * margin) * scale
        let bytesPerRow = (side + 7) / 8
        var raw = [UInt8](repeating: 0, count: side * (1 + bytesPerRow))
        var rawCount = uLong(raw.count)
        #expect(uncompress(&raw, &rawCount, idat.data, uLong(idat.data.count)) == Z_OK)
        #expect(Int(rawCount) == raw.count)

        var wrong: [String] = []
        for y in 0..<side {
            let row = y * (1 + bytesPerRow)
            if raw[row] != 0 { wrong.append("filter of row \(y)") }
            for x in 0..<side {
                let white = raw[row + 1 + x / 8] & (0x80 >> UInt8(x % 8)) != 0
                // Reading past the matrix is light: that is the quiet zone.
                let dark = code[x / scale - margin, y / scale - margin]
                if white == dark { wrong.append("pixel (\(x), \(y))") }
            }
        }
        #expect(wrong.isEmpty, "\(wrong.count) wrong, first: \(wrong.prefix(5))")
    }

    @Test(
        .enabled(if: Zbar.executable != nil || Zbar.isCI, "zbarimg not on PATH (apt install zbar-tools)"),
        arguments: [Fixtures.short, Fixtures.authorizeURL, Fixtures.longURL]
    )
    func scansToTheInputText(text: String) async throws {
        let zbarimg = try #require(Zbar.executable, "zbarimg must be installed in CI (zbar-tools)")
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("qrcode-\(UUID().uuidString).png")
        try QRImage.png(try QRCode(encoding: text)).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        #expect(try await Zbar.decode(zbarimg, file: file) == text)
    }

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// Splits the file after its signature into chunks, failing on a truncated one.
    static func chunks(_ png: [UInt8]) throws -> [Chunk] {
        var chunks: [Chunk] = []
        var offset = signature.count
        while offset < png.count {
            guard offset + 12 <= png.count else { throw Malformed(description: "truncated chunk at \(offset)") }
            let length = Int(uint32(png, at: offset))
            let end = offset + 8 + length
            guard end + 4 <= png.count else { throw Malformed(description: "chunk at \(offset) overruns the file") }
            chunks.append(Chunk(
                type: String(decoding: png[(offset + 4)..<(offset + 8)], as: UTF8.self),
                data: Array(png[(offset + 8)..<end]),
                crc: uint32(png, at: end)))
            offset = end + 4
        }
        return chunks
    }

    static func uint32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | UInt32($1) }
    }
}
