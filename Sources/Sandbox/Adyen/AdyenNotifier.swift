import Crypto
import Foundation
import ProviderWire

/// Adyen's webhooks, handed to the sandbox's dispatcher: standard notifications with the
/// item's HMAC in `additionalData.hmacSignature`, and tokenization notifications signed over
/// the raw body in an `hmacsignature` header.
struct AdyenNotifier: Sendable {
    let webhooks: WebhookDispatcher
    let key: [UInt8]
    let now: SandboxClock

    init(webhooks: WebhookDispatcher, settings: SandboxSettings) {
        self.webhooks = webhooks
        key = settings.adyen.hmacKey.flatMap(AdyenHMAC.keyBytes(hex:)) ?? AdyenHMAC.keyBytes(hex: AdyenHMAC.sandboxKey) ?? []
        now = settings.now
    }

    /// AUTHORISATION, CAPTURE, CANCELLATION, REFUND…: one signed item.
    func standard(
        _ eventCode: String, pspReference: String, originalReference: String? = nil, merchantAccount: String, merchantReference: String,
        amount: AdyenAmount, success: Bool, reason: String? = nil, additionalData: [String: String] = [:]
    ) async throws(SandboxStoreUnavailable) {
        var item = AdyenNotificationItem(
            amount: amount, eventCode: eventCode, eventDate: Self.eventDate(now()), merchantAccountCode: merchantAccount,
            merchantReference: merchantReference, originalReference: originalReference, pspReference: pspReference, reason: reason,
            success: success)
        item.additionalData = additionalData.merging(["hmacSignature": AdyenHMAC.signature(of: item, key: key)]) { _, signature in signature }
        try await webhooks.send(event: eventCode, body: AdyenJSON.data(AdyenNotification(items: [item])))
    }

    /// `recurring.token.created` (operation "created") or `recurring.token.disabled` (none).
    func token(_ type: String, merchantAccount: String, shopperReference: String, storedPaymentMethodID: String, operation: String?) async throws(SandboxStoreUnavailable) {
        let notification = AdyenTokenNotification(
            createdAt: Self.eventDate(now()), eventId: AdyenIDs.pspReference(), type: type,
            data: .init(merchantAccount: merchantAccount, shopperReference: shopperReference, storedPaymentMethodId: storedPaymentMethodID, operation: operation))
        let body = AdyenJSON.data(notification)
        let signature = Data(HMAC<SHA256>.authenticationCode(for: body, using: SymmetricKey(data: key))).base64EncodedString()
        try await webhooks.send(event: type, body: body, headers: [(name: "hmacsignature", value: signature)])
    }

    /// Adyen's eventDate: ISO 8601 with seconds and offset, e.g. 2026-11-22T19:46:24+00:00.
    static func eventDate(_ date: Date) -> String {
        ISO8601Seconds.string(date)
    }
}
