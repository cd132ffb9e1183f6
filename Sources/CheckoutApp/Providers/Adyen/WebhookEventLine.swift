import Foundation
import TerminalUI

/// A webhook as `checkout listen` and `checkout run` print it: one line of text, or of JSON.
public enum WebhookEventLine {
    public static func text(_ event: AdyenWebhookEvent) -> String {
        let time = LocalTimeOfDay.text(event.receivedAt)
        return "event: \(time) " + TerminalText.escapingControls(event.summary)
    }

    /// `checkout listen --json`'s first line: where it receives webhooks.
    public static func listening(_ url: String) -> String {
        JSONLine.encode(["listening": url])
    }

    public static func json(_ event: AdyenWebhookEvent) -> String {
        var object: [String: Any] = [
            "event": event.eventCode, "signature_valid": event.signatureValid,
            "received_at": event.receivedAt.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)),
        ]
        object["psp_reference"] = event.pspReference
        object["success"] = event.success
        object["stored_payment_method_id"] = event.storedPaymentMethodID
        object["reason"] = event.reason
        return JSONLine.encode(object)
    }
}
