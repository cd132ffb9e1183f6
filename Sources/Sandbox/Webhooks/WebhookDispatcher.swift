import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Sends webhooks to every registered receiver, each delivery in a task of its own so no
/// request handler waits: a delivery without a 2xx answer is retried with backoff, up to
/// `webhookAttempts` tries; past `maxQueuedWebhookDeliveries` under way, new ones are dropped.
/// The receivers and the delivery log are kept in the sandbox's store; the deliveries under way
/// (their tasks, retry timers and acceptance checks) are this process's own.
public final class WebhookDispatcher: Sendable {
    public let receivers: WebhookReceivers
    public let log: WebhookDeliveryLog
    private let settings: SandboxSettings
    private let underWay = Mutex(0)

    public init(settings: SandboxSettings) {
        self.settings = settings
        receivers = WebhookReceivers(limit: settings.limits.maxWebhookReceivers, storage: settings.storage)
        log = WebhookDeliveryLog(storage: settings.storage)
    }

    /// Deliveries not yet finished (tests wait for 0).
    public var pending: Int { underWay.withLock { $0 } }

    /// Queues `body` (JSON) for every receiver; returns once each delivery is logged, not delivered.
    /// It never fails the request that caused it: that change is already kept, and a 503 would
    /// invite a retry of something done. A store that cannot list the receivers or log a delivery
    /// is reported (`SandboxSettings.reportProblem`); every receiver it could list is still sent to.
    public func send(event: String, body: Data, headers: [(name: String, value: String)] = []) async throws(SandboxStoreUnavailable) {
        let found: [WebhookReceivers.Receiver]
        do { found = try await receivers.all } catch {
            settings.reportProblem?("webhook \(event) not sent: the store could not list the receivers: \(SandboxStoreUnavailable(error).underlying)")
            return
        }
        for receiver in found {
            let queued = enqueue(
                event: event, receiverID: receiver.id, url: receiver.url, body: body, headers: headers, accept: Self.any2xx, finished: nil,
                logged: true)
            // Started even when the log could not keep it: it holds a place among those under way.
            // Inside an operation's transaction, it starts once the operation is kept (and gives its
            // place back when it is not).
            defer { SandboxCommit.afterwards(queued.start, otherwise: queued.cancel) }
            do { try await log.record(queued.entry) } catch {
                settings.reportProblem?("webhook \(event) to \(receiver.url): not logged: \(SandboxStoreUnavailable(error).underlying)")
            }
        }
    }

    /// Queues one delivery of `body` (JSON) to `url` rather than to the registered receivers: a
    /// provider's own notification URL (Antom's `paymentNotifyUrl`). It counts as delivered only
    /// when `accept` takes the answer's status and (the first 64 KiB of its) body; `finished` is
    /// told how it ended (delivered, failed or dropped). Returns the log entry at once.
    @discardableResult
    public func deliver(
        event: String, to url: String, receiverID: String, body: Data, headers: [(name: String, value: String)] = [],
        accept: @escaping @Sendable (_ status: Int, _ body: Data) -> Bool,
        finished: (@Sendable (WebhookDeliveryLog.Entry) -> Void)? = nil
    ) -> WebhookDeliveryLog.Entry {
        let queued = enqueue(event: event, receiverID: receiverID, url: url, body: body, headers: headers, accept: accept, finished: finished, logged: false)
        SandboxCommit.afterwards(queued.start, otherwise: queued.cancel)
        return queued.entry
    }

    /// A delivery admitted (or dropped) and its log entry; `start` sets it going.
    private struct Queued {
        let entry: WebhookDeliveryLog.Entry
        let start: @Sendable () -> Void
        /// Gives back its place among those under way when it will never start.
        var cancel: (@Sendable () -> Void)? = nil
    }

    private static let any2xx: @Sendable (Int, Data) -> Bool = { status, _ in (200..<300).contains(status) }

    private func enqueue(
        event: String, receiverID: String, url: String, body: Data, headers: [(name: String, value: String)],
        accept: @escaping @Sendable (Int, Data) -> Bool, finished: (@Sendable (WebhookDeliveryLog.Entry) -> Void)?,
        logged: Bool
    ) -> Queued {
        let entry = WebhookDeliveryLog.Entry(
            id: SandboxIDs.make("WHD_", length: 12), receiverID: receiverID, url: url, event: event,
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
            return Queued(entry: dropped) { [log, dropped] in
                if !logged { Task { try? await log.record(dropped) } }
                finished?(dropped)
            }
        }
        return Queued(
            entry: entry,
            start: { [self] in
                Task { [self] in
                    if !logged { try? await log.record(entry) }
                    let last = await deliver(entry, to: url, body: body, headers: headers, accept: accept)
                    underWay.withLock { $0 -= 1 }
                    finished?(last)
                }
            },
            cancel: { [self] in underWay.withLock { $0 -= 1 } })
    }

    /// Tries until `accept` takes an answer or the attempts run out; returns the entry as it ended.
    private func deliver(
        _ first: WebhookDeliveryLog.Entry, to url: String, body: Data, headers: [(name: String, value: String)],
        accept: @Sendable (Int, Data) -> Bool
    ) async -> WebhookDeliveryLog.Entry {
        let attempts = max(1, settings.webhookAttempts)
        var delay = settings.webhookRetryDelay
        var entry = first
        for attempt in 1...attempts {
            let (status, answer, failure) = await post(url, body: body, headers: headers)
            let delivered = status.map { accept($0, answer) } ?? false
            entry.attempts = attempt
            entry.lastStatus = status
            entry.lastError = delivered ? nil : failure ?? "answered HTTP \(status ?? 0) without the acknowledgement the provider expects"
            entry.outcome = delivered ? .delivered : (attempt == attempts ? .failed : .pending)
            let current = entry
            try? await log.update(entry.id) { $0 = current }
            if delivered || attempt == attempts { return entry }
            try? await Task.sleep(for: .seconds(delay))
            delay *= 2
        }
        return entry
    }

    /// One attempt: the status it was answered with and (a bounded part of) its body, or why there was none.
    private func post(_ url: String, body: Data, headers: [(name: String, value: String)]) async -> (Int?, Data, String?) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "TerminalCheckout-Sandbox-Webhooks")
        for header in headers { request.headers.add(name: header.name, value: header.value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        do {
            let response = try await HTTPClient.shared.execute(request, timeout: .milliseconds(Int64(settings.webhookTimeout * 1_000)))
            // Read (a bounded part of) the answer so the connection can be reused.
            let answer = (try? await response.body.collect(upTo: 64 * 1_024)).map { Data($0.readableBytesView) } ?? Data()
            let status = Int(response.status.code)
            return (status, answer, (200..<300).contains(status) ? nil : "answered HTTP \(status)")
        } catch {
            return (nil, Data(), "\(error)")
        }
    }
}
