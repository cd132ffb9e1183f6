import Foundation
import ProviderWire
import Testing

/// An Adyen AUTHORISATION webhook body signed with an HMAC key (hex), as Adyen posts it.
enum AdyenTestNotification {
    static func json(signedWith hex: String) throws -> String {
        var item = AdyenNotificationItem(
            amount: AdyenAmount(currency: "USD", value: 4505), eventCode: "AUTHORISATION", eventDate: "2026-11-22T20:00:00+00:00",
            merchantAccountCode: "TerminalCheckoutECOM", merchantReference: "order-1", pspReference: "ABCDEFGHIJKLMNOP", success: true)
        item.additionalData = ["hmacSignature": AdyenHMAC.signature(of: item, key: try #require(AdyenHMAC.keyBytes(hex: hex)))]
        return String(decoding: try JSONEncoder().encode(AdyenNotification(items: [item])), as: UTF8.self)
    }
}
