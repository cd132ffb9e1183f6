import Foundation

/// Image encodings of a QR code: PBM for tools such as zbarimg, SVG for browsers,
/// PNG (in QRImage+PNG.swift) for anything that wants a plain image.
public enum QRImage {
    /// A raw (P4) PBM of `rows` (true = black) with `margin` light modules on every side,
    /// each module drawn as `scale`×`scale` pixels. Ragged rows are padded with light.
    /// P4 rather than P1: the bitmap is 8× smaller and every PBM reader accepts both.
    public static func pbm(_ rows: [[Bool]], scale: Int = 8, margin: Int = 4) -> Data {
        let scale = max(1, scale)
        let margin = max(0, margin)
        let columns = (rows.map(\.count).max() ?? 0) + 2 * margin
        let width = columns * scale
        let height = (rows.count + 2 * margin) * scale
        let bytesPerRow = (width + 7) / 8

        var data = Data("P4\n\(width) \(height)\n".utf8)
        data.reserveCapacity(data.count + bytesPerRow * height)
        for moduleRow in 0..<(rows.count + 2 * margin) {
            let y = moduleRow - margin
            let row = rows.indices.contains(y) ? rows[y] : []
            // Pack one pixel row (MSB first, 1 = black, each row padded to a whole byte),
            // then repeat it `scale` times for the module's height.
            var packed = [UInt8](repeating: 0, count: bytesPerRow)
            for pixel in 0..<width {
                let x = pixel / scale - margin
                if row.indices.contains(x), row[x] {
                    packed[pixel / 8] |= 0x80 >> UInt8(pixel % 8)
                }
            }
            for _ in 0..<scale { data.append(contentsOf: packed) }
        }
        return data
    }

    /// A standalone SVG of `code` with `margin` light modules around it, each module
    /// `moduleSize` user units wide: a white background rect (so it scans on dark pages
    /// too) and one black path with a square subpath per dark module. No XML declaration,
    /// so the same text also works inline in HTML.
    public static func svg(_ code: QRCode, moduleSize: Int = 8, margin: Int = 4) -> String {
        let moduleSize = max(1, moduleSize)
        let margin = max(0, margin)
        let side = (code.size + 2 * margin) * moduleSize

        var path = ""
        for y in 0..<code.size {
            for x in 0..<code.size where code[x, y] {
                let left = (x + margin) * moduleSize
                let top = (y + margin) * moduleSize
                path += "M\(left) \(top)h\(moduleSize)v\(moduleSize)h-\(moduleSize)z"
            }
        }
        // crispEdges stops anti-aliasing from blurring module edges into grey seams.
        return """
            <svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\(side)" height="\(side)" \
            viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges">
            <rect width="\(side)" height="\(side)" fill="#ffffff"/>
            <path fill="#000000" d="\(path)"/>
            </svg>

            """
    }
}
