import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Sends webhooks to every registered receiver, each delivery in a task of its own so no
/// request handler waits: a delivery without a 2xx answer is retried with backoff, up to
/// `webhookAttempts` tries; past `maxQueuedWebhookDeliveries` under way, new ones are dropped.
public final class WebhookDispatcher: Sendable {
    public let receivers: WebhookReceivers
    public let log = WebhookDeliveryLog()
    private let settings: SandboxSettings
    private let underWay = Mutex(0)

    public init(settings: SandboxSettings) {
        self.settings = settings
        receivers = WebhookReceivers(limit: settings.limits.maxWebhookReceivers)
    }

    /// Deliveries not yet finished (tests wait for 0).
    public var pending: Int { underWay.withLock { $0 } }

    /// Queues `body` (JSON) for every receiver; returns at once.
    public func send(event: String, body: Data, headers: [(name: String, value: String)] = []) {
        for receiver in receivers.all {
            let entry = WebhookDeliveryLog.Entry(
                id: SandboxIDs.make("WHD_", length: 12), receiverID: receiver.id, url: receiver.url, event: event,
                outcome: .pending, attempts: 0, lastStatus: nil, lastError: nil)
            let limit = settings.limits.maxQueuedWebhookDeliveries
            let admitted = underWay.withLock { count in
                guard count < limit else { return false }
                count += 1
                return true
            }
            guard admitted else {
                var dropped = entry
                dropped.outcome = .dropped
                dropped.lastError = "\(limit) deliveries were already under way"
                log.record(dropped)
                continue
            }
            log.record(entry)
            Task { [self] in
                await deliver(entry.id, to: receiver.url, body: body, headers: headers)
                underWay.withLock { $0 -= 1 }
            }
        }
    }

    private func deliver(_ id: String, to url: String, body: Data, headers: [(name: String, value: String)]) async {
        let attempts = max(1, settings.webhookAttempts)
        var delay = settings.webhookRetryDelay
        for attempt in 1...attempts {
            let (status, failure) = await post(url, body: body, headers: headers)
            let delivered = status.map { (200..<300).contains($0) } ?? false
            log.update(id) { entry in
                entry.attempts = attempt
                entry.lastStatus = status
                entry.lastError = failure
                entry.outcome = delivered ? .delivered : (attempt == attempts ? .failed : .pending)
            }
            if delivered || attempt == attempts { return }
            try? await Task.sleep(for: .seconds(delay))
            delay *= 2
        }
    }

    /// One attempt: the status it was answered with, or why there was none.
    private func post(_ url: String, body: Data, headers: [(name: String, value: String)]) async -> (Int?, String?) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "TerminalCheckout-Sandbox-Webhooks")
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .milliseconds(Int64(settings.webhookTimeout * 1_000)))
            // Read (a bounded part of) the answer so the connection can be reused.
            _ = try? await response.body.collect(upTo: 64 * 1_024)
            let status = Int(response.status.code)
            return (status, (200..<300).contains(status) ? nil : "answered HTTP \(status)")
        } catch {
            return (nil, "\(error)")
        }
    }
}
