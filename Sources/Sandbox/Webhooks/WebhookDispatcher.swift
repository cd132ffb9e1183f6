import AsyncHTTPClient
import Foundation
import NIOCore
import Synchronization

/// Sends webhooks to every registered receiver without making a request handler wait: each
/// delivery is queued in the sandbox's store (inside the operation that caused it, so it exists
/// exactly when that operation was kept) and sent by a delivery worker (`deliverDue`, which the
/// sandbox's due-time worker runs a few times a second on every instance, and which an operation
/// wakes once it is kept). A worker claims a due delivery under a lease (`claimDue`: `FOR UPDATE
/// SKIP LOCKED` on PostgreSQL), so each is sent by one instance; one whose instance died
/// mid-delivery is claimed again once its lease runs out. A delivery without the answer its
/// `acceptance` wants is retried with backoff, up to `webhookAttempts` tries; past
/// `maxQueuedWebhookDeliveries` under way (from this instance), new ones are dropped, and no
/// more than that many are sent by this instance at once (one worker round at a time claims them).
/// Its tasks run outside any operation (detached: not in the transaction of the operation that
/// queued a delivery) and end when the sandbox stops (`stop`).
public final class WebhookDispatcher: Sendable {
    public let receivers: WebhookReceivers
    public let log: WebhookDeliveryLog
    private let settings: SandboxSettings
    private let queue: ProviderStore<QueuedWebhookDelivery>
    private let local = Mutex(Local())
    private let reporters = Mutex<[String: @Sendable (WebhookReport, WebhookDeliveryLog.Entry) async -> Void]>([:])

    /// This instance's share of the queue.
    private struct Local {
        /// Deliveries this instance queued that are not known to have finished.
        var underWay: Set<String> = []
        /// Deliveries this instance is sending now.
        var sending: Set<String> = []
        /// A round of the delivery worker is running; `again`: another was asked for meanwhile
        /// (the running one goes round once more rather than run beside it).
        var roundRunning = false
        var roundAgain = false
        /// When the deliveries another instance finished are next looked for.
        var nextForget = Date.distantPast
        /// The tasks this dispatcher started that have not ended, cancelled by `stop`.
        var tasks: [Int: Task<Void, Never>] = [:]
        var taskNumber = 0
        /// Stopped: no task starts.
        var stopped = false
    }

    public init(settings: SandboxSettings) {
        self.settings = settings
        receivers = WebhookReceivers(limit: settings.limits.maxWebhookReceivers, storage: settings.storage)
        log = WebhookDeliveryLog(storage: settings.storage)
        queue = ProviderStore(
            "webhooks.queue", in: settings.storage, policy: StorePolicy(settlesAt: { $0.availableAt }))
    }

    /// Deliveries this instance queued that have not finished (tests wait for 0).
    public var pending: Int { local.withLock { $0.underWay.count } }

    /// Deliveries this instance is sending now.
    var sending: Int { local.withLock { $0.sending.count } }

    /// Tasks this dispatcher started that have not ended (0 once it stopped).
    var tasksUnderWay: Int { local.withLock { $0.tasks.count } }

    /// Starts `work` in a task of its own, kept until it ends so `stop` can cancel it, unless the
    /// dispatcher stopped (then false, nothing started). Detached: no task-locals, so never in the
    /// transaction of the operation that asked for it (`SandboxStorage.atomically`).
    @discardableResult
    private func spawn(_ work: @escaping @Sendable () async -> Void) -> Bool {
        local.withLock { local in
            guard !local.stopped else { return false }
            let number = local.taskNumber
            local.taskNumber += 1
            // Kept under the lock it removes itself with: an ended task is never kept.
            local.tasks[number] = Task.detached { [self] in
                await work()
                _ = self.local.withLock { $0.tasks.removeValue(forKey: number) }
            }
            return true
        }
    }

    /// Sends again (the due-time worker starts).
    func start() {
        local.withLock { $0.stopped = false }
    }

    /// Sends nothing further (the sandbox stops gracefully): no task starts from now on, and
    /// those under way are cancelled (a retry's wait, a worker round, the logging of a delivery);
    /// returns once they ended. An attempt in flight is abandoned, not finished: its POST is
    /// cancelled and nothing of it is recorded, so its row keeps its claim until the lease runs
    /// out and is then claimed again (by another instance, or this one's next start on the same
    /// database), as after a crash. A receiver may then see it twice: webhooks are at least once.
    func stop() async {
        let tasks = local.withLock { local in
            local.stopped = true
            return Array(local.tasks.values)
        }
        for task in tasks { task.cancel() }
        for task in tasks { await task.value }
    }

    /// How a finished delivery with a `report` is told (a provider's record of its notices): set
    /// by the provider on every instance, since any instance may finish it.
    func onFinished(_ topic: String, _ handler: @escaping @Sendable (WebhookReport, WebhookDeliveryLog.Entry) async -> Void) {
        reporters.withLock { $0[topic] = handler }
    }

    /// Queues `body` (JSON) for every receiver; returns once each delivery is logged, not delivered.
    /// It never fails the request that caused it: that change is already kept, and a 503 would
    /// invite a retry of something done. A store that cannot list the receivers or log a delivery
    /// is reported (`SandboxSettings.reportProblem`).
    public func send(event: String, body: Data, headers: [(name: String, value: String)] = []) async throws(SandboxStoreUnavailable) {
        let found: [WebhookReceivers.Receiver]
        do { found = try await receivers.all } catch {
            settings.reportProblem?("webhook \(event) not sent: the store could not list the receivers: \(SandboxStoreUnavailable(error).underlying)")
            return
        }
        for receiver in found {
            _ = await enqueue(
                event: event, receiverID: receiver.id, url: receiver.url, body: body, headers: headers, acceptance: .any2xx, report: nil)
        }
    }

    /// Queues one delivery of `body` (JSON) to `url` rather than to the registered receivers: a
    /// provider's own notification URL (Antom's `paymentNotifyUrl`). It counts as delivered only
    /// when `acceptance` takes the answer; when it ends (delivered, failed or dropped), the
    /// handler registered for `report`'s topic is told. Returns the log entry at once (it counts
    /// in `pending` from then); it is logged and queued in the background, outside any operation
    /// (a provider calls this once what caused it is kept).
    @discardableResult
    func deliver(
        event: String, to url: String, receiverID: String, body: Data, headers: [(name: String, value: String)] = [],
        acceptance: WebhookAcceptance, report: WebhookReport? = nil
    ) -> WebhookDeliveryLog.Entry {
        let (entry, queued) = reserve(event: event, receiverID: receiverID, url: url, body: body, headers: headers, acceptance: acceptance, report: report)
        let started = spawn { [self] in
            if let queued { await keep(entry, queued) } else { await drop(entry, report: report) }
        }
        // Stopped: it is not queued.
        if !started, queued != nil { local.withLock { _ = $0.underWay.remove(entry.id) } }
        return entry
    }

    private func enqueue(
        event: String, receiverID: String, url: String, body: Data, headers: [(name: String, value: String)],
        acceptance: WebhookAcceptance, report: WebhookReport?
    ) async -> WebhookDeliveryLog.Entry {
        let (entry, queued) = reserve(event: event, receiverID: receiverID, url: url, body: body, headers: headers, acceptance: acceptance, report: report)
        if let queued { await keep(entry, queued) } else { await drop(entry, report: report) }
        return entry
    }

    /// A place among the deliveries under way, or the entry of one dropped for want of it.
    private func reserve(
        event: String, receiverID: String, url: String, body: Data, headers: [(name: String, value: String)],
        acceptance: WebhookAcceptance, report: WebhookReport?
    ) -> (WebhookDeliveryLog.Entry, QueuedWebhookDelivery?) {
        var entry = WebhookDeliveryLog.Entry(
            id: SandboxIDs.make("WHD_", length: 12), receiverID: receiverID, url: url, event: event,
            outcome: .pending, attempts: 0, lastStatus: nil, lastError: nil)
        let limit = settings.limits.maxQueuedWebhookDeliveries
        let admitted = local.withLock { local in
            guard local.underWay.count < limit else { return false }
            local.underWay.insert(entry.id)
            return true
        }
        guard admitted else {
            entry.outcome = .dropped
            entry.lastError = "\(limit) deliveries were already under way"
            return (entry, nil)
        }
        let queued = QueuedWebhookDelivery(
            id: entry.id, event: event, receiverID: receiverID, url: url, body: body,
            headers: headers.map { QueuedWebhookDelivery.Header(name: $0.name, value: $0.value) }, acceptance: acceptance, report: report,
            attempts: 0, dueAt: Date(), claimedUntil: nil)
        return (entry, queued)
    }

    private func drop(_ dropped: WebhookDeliveryLog.Entry, report: WebhookReport?) async {
        do { try await log.record(dropped) } catch {
            settings.reportProblem?("webhook \(dropped.event) to \(dropped.url): not logged: \(SandboxStoreUnavailable(error).underlying)")
        }
        if let report { await tell(report, dropped) }
    }

    /// Logs and queues a delivery (in the operation's transaction, when there is one); the worker
    /// is woken once that is kept.
    private func keep(_ entry: WebhookDeliveryLog.Entry, _ queued: QueuedWebhookDelivery) async {
        do {
            try await log.record(entry)
            _ = try await queue.create(at: StoreMoment(now: Date())) { _ in queued }
        } catch {
            local.withLock { _ = $0.underWay.remove(entry.id) }
            settings.reportProblem?("webhook \(entry.event) to \(entry.url): not queued: \(SandboxStoreUnavailable(error).underlying)")
            return
        }
        // Sent once the operation that queued it is kept; forgotten here when it is not.
        SandboxCommit.afterwards(
            { [self] in wake() },
            otherwise: { [self] in local.withLock { _ = $0.underWay.remove(entry.id) } })
    }

    // MARK: - The delivery worker

    /// How long a claimed delivery is this instance's: past one attempt's timeout, so a live
    /// instance's delivery is never claimed twice; a dead one's is claimed again after it.
    private var lease: TimeInterval { settings.webhookTimeout + 10 }

    /// A round of the delivery worker at once (an operation that queued deliveries was kept).
    private func wake() {
        spawn { [self] in try? await deliverDue() }
    }

    /// Claims the deliveries that are due (those no live instance is sending) and sends each in
    /// a task of its own. The sandbox's due-time worker calls it a few times a second, and an
    /// operation that queued deliveries wakes it. One round at a time: one asked for while
    /// another runs makes the running one go round again, so two rounds never both claim the
    /// room left under `maxQueuedWebhookDeliveries` (each would see it free before the other's claim).
    func deliverDue() async throws(SandboxStoreUnavailable) {
        let first = local.withLock { local in
            if local.roundRunning {
                local.roundAgain = true
                return false
            }
            local.roundRunning = true
            return true
        }
        guard first else { return }
        do throws(SandboxStoreUnavailable) {
            repeat {
                try await round()
            } while local.withLock({ local in
                if local.roundAgain {
                    local.roundAgain = false
                    return true
                }
                local.roundRunning = false
                return false
            })
        } catch {
            local.withLock { local in
                local.roundRunning = false
                local.roundAgain = false
            }
            throw error
        }
    }

    /// One round of the delivery worker (`deliverDue`).
    private func round() async throws(SandboxStoreUnavailable) {
        let limit = settings.limits.maxQueuedWebhookDeliveries
        guard let room = local.withLock({ $0.stopped ? nil : limit - $0.sending.count }) else { return }
        let now = Date()
        let lease = lease
        if room > 0 {
            let claimed = try await queue.claimDue(now: now, limit: room) { delivery in
                guard delivery.availableAt <= now else { return false }
                delivery.claimedUntil = now.addingTimeInterval(lease)
                return true
            }
            for delivery in claimed {
                local.withLock { _ = $0.sending.insert(delivery.id) }
                // Stopped since the claim: left to its lease, as an attempt `stop` abandons.
                if !spawn({ [self] in await attempt(delivery) }) { local.withLock { _ = $0.sending.remove(delivery.id) } }
            }
        }
        try await forgetFinishedElsewhere(now: now)
    }

    /// The deliveries this instance queued and another instance finished: no longer pending here.
    /// Looked for at most once a second, and only while there are some: one read of the queue
    /// (those still in it are not finished), then, when some are gone from it, one of the log.
    private func forgetFinishedElsewhere(now: Date) async throws(SandboxStoreUnavailable) {
        let waiting: Set<String>? = local.withLock { local in
            guard now >= local.nextForget else { return nil }
            let waiting = local.underWay.subtracting(local.sending)
            guard !waiting.isEmpty else { return nil }
            local.nextForget = now.addingTimeInterval(1)
            return waiting
        }
        guard let waiting else { return }
        let queued = Set(try await queue.records().map(\.id))
        let gone = waiting.subtracting(queued)
        guard !gone.isEmpty else { return }
        // Not yet in the queue may also mean not yet committed: only those the log shows ended go.
        let ended = try await log.entries(gone).filter { $0.outcome != .pending }.map(\.id)
        local.withLock { $0.underWay.subtract(ended) }
    }

    /// One attempt of a claimed delivery, then its row and log entry as it left them, if this
    /// instance still holds its lease (`claimedUntil` as it claimed it): an attempt that outlived
    /// its lease (the store was slow) leaves the row to the instance that claimed it again.
    private func attempt(_ delivery: QueuedWebhookDelivery) async {
        let attempts = max(1, settings.webhookAttempts)
        let (status, answer, failure) = await post(delivery.url, body: delivery.body, headers: delivery.headers.map { ($0.name, $0.value) })
        if Task.isCancelled {
            // The sandbox stops: abandoned (see `stop`), its lease left to run out.
            local.withLock { _ = $0.sending.remove(delivery.id) }
            return
        }
        let delivered = status.map { delivery.acceptance.accepts(status: $0, body: answer) } ?? false
        let attempt = delivery.attempts + 1
        let finished = delivered || attempt >= attempts
        let entry = WebhookDeliveryLog.Entry(
            id: delivery.id, receiverID: delivery.receiverID, url: delivery.url, event: delivery.event,
            outcome: delivered ? .delivered : (finished ? .failed : .pending), attempts: attempt, lastStatus: status,
            lastError: delivered ? nil : failure ?? "answered HTTP \(status ?? 0) without the acknowledgement the provider expects")
        let delay = settings.webhookRetryDelay * pow(2, Double(attempt - 1))
        /// Whether the row is still this attempt's: claimed by it, not claimed again since.
        let ours: @Sendable (QueuedWebhookDelivery) -> Bool = { $0.claimedUntil == delivery.claimedUntil }
        // The row and the log entry in one operation (kept both, or neither), when it is ours.
        let kept: Bool?
        do {
            kept = try await settings.storage.atomically {
                let held: Bool
                if finished {
                    held = try await queue.remove(delivery.id, if: ours) != nil
                } else {
                    held =
                        try await queue.update(.key(delivery.id)) { queued in
                            guard ours(queued) else { return false }
                            queued.attempts = attempt
                            queued.dueAt = Date().addingTimeInterval(delay)
                            queued.claimedUntil = nil
                            return true
                        }.value == true
                }
                if held { try await log.update(delivery.id) { $0 = entry } }
                return held
            }
        } catch {
            // The store is away: the lease runs out and the delivery is claimed again.
            settings.reportProblem?(
                "webhook \(delivery.event) to \(delivery.url): its attempt was not kept: \(SandboxStoreUnavailable(error).underlying)")
            kept = nil
        }
        guard kept != false else {
            // Claimed again by another worker after this one's lease ran out: it is that one's now.
            local.withLock { _ = $0.sending.remove(delivery.id) }
            return
        }
        if !finished, kept == true {
            spawn { [self] in
                guard (try? await Task.sleep(for: .seconds(delay))) != nil else { return }
                wake()
            }
        }
        local.withLock { local in
            local.sending.remove(delivery.id)
            if finished { local.underWay.remove(delivery.id) }
        }
        if finished, let report = delivery.report { await tell(report, entry) }
    }

    private func tell(_ report: WebhookReport, _ entry: WebhookDeliveryLog.Entry) async {
        if let handler = reporters.withLock({ $0[report.topic] }) { await handler(report, entry) }
    }

    /// One attempt: the status it was answered with and (a bounded part of) its body, or why there was none.
    private func post(_ url: String, body: Data, headers: [(String, String)]) async -> (Int?, Data, String?) {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "TerminalCheckout-Sandbox-Webhooks")
        for (name, value) in headers { request.headers.add(name: name, value: value) }
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

/// When a delivery counts as delivered: data, so a delivery kept in the store carries it.
public enum WebhookAcceptance: Codable, Hashable, Sendable {
    /// Any 2xx answer (the registered receivers').
    case any2xx
    /// Exactly `status`, with a JSON body whose dotted paths hold these strings (Antom's
    /// `{"result": {"resultCode": "SUCCESS", "resultStatus": "S"}}`).
    case acknowledgement(status: Int, fields: [String: String])

    func accepts(status: Int, body: Data) -> Bool {
        switch self {
        case .any2xx:
            return (200..<300).contains(status)
        case .acknowledgement(let wanted, let fields):
            guard status == wanted, let object = try? JSONSerialization.jsonObject(with: body) else { return false }
            return fields.allSatisfy { path, value in
                var current: Any? = object
                for key in path.split(separator: ".") { current = (current as? [String: Any])?[String(key)] }
                return current as? String == value
            }
        }
    }
}

/// Whom a finished delivery is reported to: the handler registered for `topic`
/// (`WebhookDispatcher.onFinished`), told which of its things (`subject`, `index`) it was.
public struct WebhookReport: Codable, Hashable, Sendable {
    public let topic: String
    public let subject: String
    public let index: Int

    public init(topic: String, subject: String, index: Int) {
        self.topic = topic
        self.subject = subject
        self.index = index
    }
}

/// A delivery waiting in the store's queue (`webhooks.queue`) until one worker claims it.
struct QueuedWebhookDelivery: StoredRecord, Codable, Equatable {
    struct Header: Codable, Equatable {
        let name: String
        let value: String
    }

    let id: String
    let event: String
    let receiverID: String
    let url: String
    let body: Data
    let headers: [Header]
    let acceptance: WebhookAcceptance
    let report: WebhookReport?
    /// Attempts made so far.
    var attempts: Int
    /// When the next attempt is due.
    var dueAt: Date
    /// The lease of the worker sending it, if any.
    var claimedUntil: Date?

    var storeKey: String { id }
    /// Queued until it is removed (delivered, or out of attempts).
    var storeIsOpen: Bool { true }

    /// When a worker may claim it: due, and not held by a live claim.
    var availableAt: Date { max(dueAt, claimedUntil ?? .distantPast) }
}
