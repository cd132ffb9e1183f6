import Foundation
import ProviderWire

/// notifyPayment: each notice POSTed to the session's `paymentNotifyUrl` through the sandbox's
/// webhook dispatcher (in the background, retried with backoff, bounded), signed as Antom signs
/// requests: `client-id` (the session's client), `request-time` and `signature` over
/// `"POST <path of the notify URL>\n<client-id>.<request-time>.<body>"`. It counts as delivered only
/// when the merchant answers 200 with `{"result": {"resultCode": "SUCCESS", "resultStatus": "S"}}`.
struct AntomNotifier: Sendable {
    let webhooks: WebhookDispatcher
    let signer: AntomSigner

    /// Sends each notice; how its delivery goes is recorded in `store`.
    /// Inside a provider operation they go once it commits (a transaction retried or rolled
    /// back sends none of its attempt's notices, and the session they are recorded on is kept).
    func send(_ notices: [AntomNotice], recordingIn store: AntomSessionStore) {
        guard !notices.isEmpty else { return }
        // Signed in a task of their own (none of the transaction's task-locals): the answer that
        // decided them (the customer's pay) goes out without waiting for an RSA signature.
        SandboxCommit.afterwards { Task.detached { for notice in notices { await self.send(notice, recordingIn: store) } } }
    }

    private func send(_ notice: AntomNotice, recordingIn store: AntomSessionStore) async {
        let body = AntomJSON.data(notice.body)
        let time = AntomTime.string(signer.now())
        let key = notice.wrongKey ? AntomSigner.wrongKey : AntomSigner.sandboxKey
        var headers = [(name: "client-id", value: notice.clientID), (name: "request-time", value: time)]
        if let signature = signer.signatureHeader(path: Self.path(of: notice.url), clientID: notice.clientID, time: time, body: body, key: key) {
            headers.append((name: "signature", value: signature))
        }
        let (sessionID, index) = (notice.sessionID, notice.index)
        // How it ends is recorded on the session by `recordEnds`, on whichever instance ends it.
        let entry = webhooks.deliver(
            event: "antom.\(notice.body.notifyType)", to: notice.url, receiverID: "antom:\(notice.clientID)", body: body, headers: headers,
            acceptance: Self.acknowledgement, report: WebhookReport(topic: Self.topic, subject: sessionID, index: index))
        if entry.outcome == .pending { try? await store.recordDelivery(session: sessionID, index: index, entry) }
    }

    /// The report topic of notice deliveries.
    static let topic = "antom.notifications"

    /// Records each notice delivery's end on its session (every instance registers it).
    func recordEnds(in store: AntomSessionStore) {
        webhooks.onFinished(Self.topic) { [weak store] report, ended in
            try? await store?.recordDelivery(session: report.subject, index: report.index, ended)
        }
    }

    /// 200 with `result` SUCCESS / S: Antom's only acknowledgement.
    static let acknowledgement = WebhookAcceptance.acknowledgement(status: 200, fields: ["result.resultCode": "SUCCESS", "result.resultStatus": "S"])

    /// The path the merchant's SDK verifies over: the notify URL's path as sent (`/` when it has none).
    static func path(of url: String) -> String {
        let path = URLComponents(string: url)?.percentEncodedPath ?? ""
        return path.isEmpty ? "/" : path
    }
}
