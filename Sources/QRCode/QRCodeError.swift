import Foundation

/// Why text could not be turned into a QR code, worded for a person reading a log or screen.
public enum QRCodeError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing to encode: an empty code would scan as nothing and only confuse the customer.
    case emptyText
    /// The text needs more room than the largest QR code (version 40) offers at this level.
    case tooLong(byteCount: Int, correction: QRCode.Correction)
    /// libqrencode failed for another reason (out of memory, say); carries its errno.
    case encodingFailed(errno: Int32)

    public var description: String {
        switch self {
        case .emptyText:
            "cannot make a QR code from empty text"
        case .tooLong(let byteCount, let correction):
            "text is too long for a QR code: \(byteCount) bytes do not fit even the largest symbol "
                + "(version 40) at \(correction) error correction"
        case .encodingFailed(let code):
            "could not encode the QR code: \(String(cString: strerror(code))) (errno \(code))"
        }
    }
}
