import Foundation
import TerminalUI

/// A webhook as `checkout listen` and `checkout run` print it: one line of text, or of JSON.
public enum WebhookEventLine {
    public static func text(_ event: AdyenWebhookEvent) -> String {
        let time = ISO8601DateFormatter.string(from: event.receivedAt, timeZone: .current, formatOptions: [.withTime, .withColonSeparatorInTime])
        return "event: \(time) " + TerminalText.escapingControls(event.summary)
    }

    public static func json(_ event: AdyenWebhookEvent) -> String {
        var object: [String: Any] = [
            "event": event.eventCode, "signature_valid": event.signatureValid,
            "received_at": ISO8601DateFormatter.string(from: event.receivedAt, timeZone: TimeZone(identifier: "UTC")!, formatOptions: [.withInternetDateTime, .withFractionalSeconds]),
        ]
        object["psp_reference"] = event.pspReference
        object["success"] = event.success
        object["stored_payment_method_id"] = event.storedPaymentMethodID
        object["reason"] = event.reason
        return JSONLine.encode(object)
    }
}
