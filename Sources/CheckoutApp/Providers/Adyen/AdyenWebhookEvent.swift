import Foundation
import ProviderWire

/// One webhook the receiver took in, as the Events log, `--json` and transcripts show it.
public struct AdyenWebhookEvent: Hashable, Sendable, Codable {
    public var receivedAt: Date
    /// `AUTHORISATION`, `CAPTURE`, … or `recurring.token.disabled`, …
    public var eventCode: String
    public var pspReference: String?
    public var success: Bool?
    /// The signature checked out with the HMAC key; an unverified webhook is shown, never acted on.
    public var signatureValid: Bool
    /// The stored method a token webhook is about.
    public var storedPaymentMethodID: String?
    public var reason: String?

    enum CodingKeys: String, CodingKey {
        case receivedAt = "received_at", eventCode = "event_code", pspReference = "psp_reference", success
        case signatureValid = "signature_valid", storedPaymentMethodID = "stored_payment_method_id", reason
    }

    /// As the front ends show provider notices.
    public var notice: ProviderNotice {
        var fields: [String: String] = ["signature_valid": signatureValid ? "true" : "false"]
        fields["psp_reference"] = pspReference
        fields["success"] = success.map { $0 ? "true" : "false" }
        fields["stored_payment_method_id"] = storedPaymentMethodID
        fields["reason"] = reason
        return ProviderNotice(provider: "adyen", name: eventCode, summary: "webhook " + summary, fields: fields, verified: signatureValid)
    }

    /// One line for the log: `AUTHORISATION 8815… success ✓`.
    public var summary: String {
        var parts = [eventCode]
        if let pspReference { parts.append(pspReference) }
        if let storedPaymentMethodID { parts.append(storedPaymentMethodID) }
        if let success { parts.append(success ? "success" : "failed") }
        if let reason, !reason.isEmpty { parts.append("(\(reason))") }
        parts.append(signatureValid ? "signature ✓" : "✗ bad signature")
        return parts.joined(separator: " ")
    }
}

/// Reads a webhook body: the standard notification's items, or one token notification.
enum AdyenWebhookBody {
    case standard([AdyenNotificationItem])
    case token(AdyenTokenNotification)

    static func read(_ data: Data) -> AdyenWebhookBody? {
        let decoder = JSONDecoder()
        if let notification = try? decoder.decode(AdyenNotification.self, from: data) { return .standard(notification.items) }
        if let token = try? decoder.decode(AdyenTokenNotification.self, from: data) { return .token(token) }
        return nil
    }
}
