import Foundation
import PaymentFlow
import ProviderClients
import ProviderWire
import _CryptoExtras

/// Antom's `notifyPayment` calls, on the local webhook server at `/antom/notify`: each
/// signature is verified over the raw body with Antom's public key; a verified one is
/// acknowledged as Antom documents and kept for the payment it names, any other is shown as
/// rejected and not acted on (Antom sends it again).
public actor AntomNotificationReceiver: AntomNotificationSource {
    public static let path = "/antom/notify"

    private let server: LocalWebhookServer
    private let publicKey: _RSA.Signing.PublicKey
    private let report: AntomEventReporter
    private var results: [String: AntomNotifyPayment] = [:]
    /// Request ids in the order their first result came, so the oldest goes first.
    private var arrivals: [String] = []
    private var waiters: [String: [UUID: CheckedContinuation<AntomNotifyPayment?, Never>]] = [:]
    /// Bounded: a long session keeps only the latest results.
    private static let keptResults = 256

    public init(publicKey: _RSA.Signing.PublicKey, server: LocalWebhookServer = LocalWebhookServer(name: "antom-notifications"), report: @escaping AntomEventReporter) {
        self.publicKey = publicKey
        self.server = server
        self.report = report
    }

    public func prepare() async throws(ProviderFailure) -> String {
        do {
            let base = try await server.start { delivery in await self.receive(delivery) }
            return String(base.dropLast()) + Self.path
        } catch {
            throw ProviderFailure(kind: .unexpected, category: "WEBHOOKS", code: "RECEIVER_FAILED", detail: "the notification receiver could not listen: \(error)")
        }
    }

    /// Nothing to unregister: Antom posts to the URL each session names.
    public func close() async {}

    public func notification(for paymentRequestId: String, timeout: Duration) async -> AntomNotifyPayment? {
        if let result = results[paymentRequestId] { return result }
        let id = UUID()
        let timer = Task {
            try? await Task.sleep(for: timeout)
            self.expire(id, request: paymentRequestId)
        }
        defer { timer.cancel() }
        return await withCheckedContinuation { continuation in
            waiters[paymentRequestId, default: [:]][id] = continuation
        }
    }

    private func expire(_ id: UUID, request: String) {
        waiters[request]?.removeValue(forKey: id)?.resume(returning: nil)
    }

    /// Verifies, reports and keeps one delivery; the answer Antom expects, or a refusal.
    func receive(_ delivery: LocalWebhookServer.Delivery) -> LocalWebhookServer.Answer {
        let verdict = AntomNotificationCheck.verify(delivery, publicKey: publicKey)
        guard case .verified(let notification) = verdict else {
            let reason = verdict.problem ?? "unreadable"
            report(AntomEvent(name: "notifyPayment", summary: "rejected: \(reason)", verified: false))
            return LocalWebhookServer.Answer(status: .unauthorized, body: #"{"result":{"resultCode":"INVALID_SIGNATURE","resultStatus":"F","resultMessage":"\#(reason)"}}"#, contentType: "application/json")
        }
        report(AntomEvent(
            name: notification.notifyType,
            summary: "\(notification.paymentRequestId): \(notification.result.resultCode) (\(notification.result.resultStatus))",
            fields: [
                "paymentRequestId": notification.paymentRequestId, "paymentId": notification.paymentId ?? "",
                "resultCode": notification.result.resultCode, "resultStatus": notification.result.resultStatus,
            ]))
        if notification.notifyType == "PAYMENT_RESULT" {
            if results[notification.paymentRequestId] == nil { arrivals.append(notification.paymentRequestId) }
            results[notification.paymentRequestId] = notification
            if arrivals.count > Self.keptResults { results.removeValue(forKey: arrivals.removeFirst()) }
            for (_, waiter) in waiters.removeValue(forKey: notification.paymentRequestId) ?? [:] { waiter.resume(returning: notification) }
        }
        let acknowledgement = (try? JSONEncoder().encode(AntomAcknowledgement())) ?? Data()
        return LocalWebhookServer.Answer(status: .ok, body: String(decoding: acknowledgement, as: UTF8.self), contentType: "application/json")
    }
}

/// Checks one notification: headers, signature over `POST <path>\n<client-id>.<request-time>.<body>`, body.
enum AntomNotificationCheck {
    enum Verdict {
        case verified(AntomNotifyPayment)
        case rejected(String)

        var problem: String? {
            if case .rejected(let problem) = self { return problem }
            return nil
        }
    }

    static func verify(_ delivery: LocalWebhookServer.Delivery, publicKey: _RSA.Signing.PublicKey) -> Verdict {
        guard let clientID = delivery.headers["client-id"], let time = delivery.headers["request-time"], let header = delivery.headers["signature"] else {
            return .rejected("missing client-id, request-time or signature header")
        }
        guard let signature = AntomSignature.signatureValue(ofHeader: header) else { return .rejected("the signature header is not algorithm=RSA256") }
        let content = AntomSignature.content(method: "POST", path: delivery.path, clientID: clientID, time: time, body: delivery.body)
        guard AntomSignature.verify(signature, of: content, with: publicKey) else { return .rejected("the signature does not verify with Antom's public key") }
        guard let notification = try? JSONDecoder().decode(AntomNotifyPayment.self, from: delivery.body) else {
            return .rejected("signed, but not a notifyPayment body")
        }
        return .verified(notification)
    }
}
