import Foundation
import Hummingbird
import Synchronization

@testable import Sandbox

/// A webhook receiver that holds every POST to `/hold` until `release()` (then answers 200 at
/// once), and answers every POST to `/fail` 500 at once; it counts what it received and the most
/// it held at one time. A test's own server (`StubHTTPServer`).
final class HoldingWebhookReceiver: Sendable {
    private struct State {
        var held = 0
        var most = 0
        var received = 0
        var failed = 0
        var released = false
        var waiters: [CheckedContinuation<Void, Never>] = []
        var base = ""
    }

    private let state = Mutex(State())
    /// `http://127.0.0.1:PORT`.
    var base: String { state.withLock { $0.base } }

    var holdURL: String { base + "/hold" }
    var failURL: String { base + "/fail" }
    /// POSTs to `/hold` being held now.
    var held: Int { state.withLock { $0.held } }
    /// The most POSTs to `/hold` held at one time.
    var most: Int { state.withLock { $0.most } }
    /// POSTs to `/hold` answered.
    var received: Int { state.withLock { $0.received } }
    /// POSTs to `/fail` answered.
    var failed: Int { state.withLock { $0.failed } }

    static func start() async -> HoldingWebhookReceiver {
        let receiver = HoldingWebhookReceiver()
        let router = Router()
        router.post("hold") { _, _ -> HTTPResponse.Status in
            await receiver.hold()
            return .ok
        }
        router.post("fail") { _, _ -> HTTPResponse.Status in
            receiver.state.withLock { $0.failed += 1 }
            return .internalServerError
        }
        let url = await StubHTTPServer.start(router, label: "holding-receiver").url
        receiver.state.withLock { $0.base = url }
        return receiver
    }

    private func hold() async {
        state.withLock { state in
            state.held += 1
            state.most = max(state.most, state.held)
        }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let go = state.withLock { state in
                if state.released { return true }
                state.waiters.append(waiter)
                return false
            }
            if go { waiter.resume() }
        }
        state.withLock { state in
            state.held -= 1
            state.received += 1
        }
    }

    /// Answers what it holds, and from now on every POST to `/hold` at once.
    func release() {
        let waiters = state.withLock { state in
            state.released = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// A delivery as the queue keeps it, due now and claimed by no one.
    static func delivery(_ id: String, to url: String) -> QueuedWebhookDelivery {
        QueuedWebhookDelivery(
            id: id, event: "test.event", receiverID: "WHR_test", url: url, body: Data(#"{"event":"test"}"#.utf8), headers: [],
            acceptance: .any2xx, report: nil, attempts: 0, dueAt: Date(), claimedUntil: nil)
    }

    /// Puts `delivery` in the queue directly (as another instance queues one).
    static func put(_ delivery: QueuedWebhookDelivery, in queue: any SandboxRecordStore<QueuedWebhookDelivery>) async throws {
        _ = try await queue.create(
            idempotencyKey: nil, requiring: [], at: StoreMoment(now: Date()), sameRequest: { _ in false }, alongside: { _, _ in },
            make: { _ in delivery })
    }

    /// The queue of webhook deliveries `storage` keeps (the dispatcher's `webhooks.queue`).
    static func queue(in storage: any SandboxStorage) -> any SandboxRecordStore<QueuedWebhookDelivery> {
        storage.store("webhooks.queue", of: QueuedWebhookDelivery.self, policy: StorePolicy(settlesAt: { $0.availableAt }))
    }

    /// Polls `condition` until it holds or `timeout` seconds pass (generous: a starved CI machine).
    static func until(timeout: Double = 30, _ condition: () async throws -> Bool) async rethrows -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if try await condition() { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return try await condition()
    }
}
