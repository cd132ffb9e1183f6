import CZlib
import Foundation

extension QRImage {
    /// A 1-bit grayscale PNG of `code` with `margin` light modules on every side, each module
    /// drawn as `scale`×`scale` pixels: what Cash App's `qr_code_image_url` serves.
    /// 1-bit rather than 8-bit: a QR code has two colours, so the bitmap is 8× smaller.
    public static func png(_ code: QRCode, scale: Int = 8, margin: Int = 4) -> Data {
        let scale = max(1, scale)
        let margin = max(0, margin)
        let side = (code.size + 2 * margin) * scale

        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var header = Data()
        header.appendBigEndian(UInt32(side))
        header.appendBigEndian(UInt32(side))
        // Bit depth 1, colour type 0 (grayscale), deflate, adaptive filtering, no interlace.
        header.append(contentsOf: [1, 0, 0, 0, 0])
        png.appendChunk("IHDR", header)
        png.appendChunk("IDAT", deflate(scanlines(code, side: side, scale: scale, margin: margin)))
        png.appendChunk("IEND", Data())
        return png
    }

    /// The raw image: per pixel row a filter byte (0, none) and the pixels packed MSB first,
    /// where 1 is white in grayscale, so dark modules are the zero bits.
    private static func scanlines(_ code: QRCode, side: Int, scale: Int, margin: Int) -> [UInt8] {
        let bytesPerRow = (side + 7) / 8
        var raw = [UInt8]()
        raw.reserveCapacity((1 + bytesPerRow) * side)
        for moduleRow in 0..<(side / scale) {
            var packed = [UInt8](repeating: 0xFF, count: bytesPerRow)
            for pixel in 0..<side where code[pixel / scale - margin, moduleRow - margin] {
                packed[pixel / 8] &= ~(0x80 >> UInt8(pixel % 8))
            }
            for _ in 0..<scale {
                raw.append(0)
                raw.append(contentsOf: packed)
            }
        }
        return raw
    }

    /// A zlib stream of `raw` (PNG's IDAT format), through zlib's own deflate.
    private static func deflate(_ raw: [UInt8]) -> Data {
        var capacity = compressBound(uLong(raw.count))
        var output = [UInt8](repeating: 0, count: Int(capacity))
        let status = compress2(&output, &capacity, raw, uLong(raw.count), Z_BEST_COMPRESSION)
        // compressBound guarantees room, so only running out of memory can fail here.
        precondition(status == Z_OK, "zlib compress2 failed with status \(status)")
        return Data(output.prefix(Int(capacity)))
    }
}

extension Data {
    fileprivate mutating func appendBigEndian(_ value: UInt32) {
        Swift.withUnsafeBytes(of: value.bigEndian) { append(contentsOf: $0) }
    }

    /// Length, type, data, and the CRC-32 of type and data, as every PNG chunk is laid out.
    fileprivate mutating func appendChunk(_ type: String, _ data: Data) {
        var body = Data(type.utf8)
        body.append(data)
        let crc = body.withUnsafeBytes { bytes in
            crc32(0, bytes.bindMemory(to: Bytef.self).baseAddress, uInt(bytes.count))
        }
        appendBigEndian(UInt32(data.count))
        append(body)
        appendBigEndian(UInt32(crc))
    }
}
