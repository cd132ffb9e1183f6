import CQRencode
import Foundation

/// A QR code symbol: a square matrix of modules, without its quiet zone.
///
/// Pure value type so a rendered code can be cached, compared and handed across tasks;
/// libqrencode is only touched inside `init(encoding:correction:)`.
public struct QRCode: Sendable, Hashable {
    /// Error correction level: higher levels survive more damage but need a bigger symbol.
    public enum Correction: Sendable, Hashable, CaseIterable {
        case low, medium, quartile, high

        var level: QRecLevel {
            switch self {
            case .low: QR_ECLEVEL_L
            case .medium: QR_ECLEVEL_M
            case .quartile: QR_ECLEVEL_Q
            case .high: QR_ECLEVEL_H
            }
        }
    }

    /// Modules per side (21 + 4·(version − 1)), quiet zone not included.
    public let size: Int
    /// Row-major, `size * size` entries; one flat array keeps Hashable cheap.
    private let modules: [Bool]

    /// True when the module at column `x`, row `y` is dark. Anything outside the matrix
    /// is light, so callers can draw a quiet zone just by reading past the edges.
    public subscript(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < size, y < size else { return false }
        return modules[y * size + x]
    }

    /// Builds a code from rows of modules (true = dark); the matrix must be square.
    public init(modules rows: [[Bool]]) {
        precondition(rows.allSatisfy { $0.count == rows.count }, "QRCode modules must form a square matrix")
        size = rows.count
        modules = rows.flatMap { $0 }
    }

    /// Encodes `text` (its UTF-8 bytes, in byte mode) into the smallest symbol that fits.
    public init(encoding text: String, correction: Correction = .low) throws(QRCodeError) {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw .emptyText }
        // QRcode_encodeData rather than encodeString8bit: it takes a length, so text
        // containing NUL is encoded whole instead of being cut at the first NUL.
        errno = 0
        let encoded = bytes.withUnsafeBufferPointer { buffer in
            // Version 0 asks libqrencode for the smallest version that holds the data.
            QRcode_encodeData(Int32(buffer.count), buffer.baseAddress, 0, correction.level)
        }
        // Read errno straight away, before anything else can overwrite it.
        let failure = errno
        guard let encoded else {
            throw failure == ERANGE
                ? .tooLong(byteCount: bytes.count, correction: correction)
                : .encodingFailed(errno: failure)
        }
        defer { QRcode_free(encoded) }

        let width = Int(encoded.pointee.width)
        let data = UnsafeBufferPointer(start: encoded.pointee.data, count: width * width)
        // Bit 0 of each byte is the module's colour; the other bits are libqrencode's
        // bookkeeping (function patterns, mask) and must be ignored.
        size = width
        modules = data.map { $0 & 1 == 1 }
    }
}
