import Crypto
import Foundation

/// Adyen's notification signature: HMAC-SHA256 of the item's signed payload with the
/// hex-decoded key, base64. The sandbox signs with it and the client verifies with it.
public enum AdyenHMAC {
    /// The sandbox's test key (64 hex digits), shown by `checkout providers`.
    public static let sandboxKey = "44782DEF547AAA06C910C43932B1EB0C71FC68D9D0C057550C48EC2ACF6BA056"

    /// The key's bytes, or nil when it is not an even number of hex digits.
    public static func keyBytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard !digits.isEmpty, digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index < digits.count {
            guard let high = nibble(digits[index]), let low = nibble(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    public static func signature(of item: AdyenNotificationItem, key: [UInt8]) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data(item.signedPayload.utf8), using: SymmetricKey(data: key))
        return Data(code).base64EncodedString()
    }

    /// Whether the item carries the signature `key` gives it (compared in constant time).
    public static func isValid(_ item: AdyenNotificationItem, key: [UInt8]) -> Bool {
        guard let given = item.hmacSignature, let givenBytes = Data(base64Encoded: given) else { return false }
        return HMAC<SHA256>.isValidAuthenticationCode(givenBytes, authenticating: Data(item.signedPayload.utf8), using: SymmetricKey(data: key))
    }

    private static func nibble(_ digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
