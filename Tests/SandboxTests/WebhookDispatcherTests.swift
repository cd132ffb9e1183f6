import Foundation
import Testing
import TestSupport

@testable import Sandbox

/// The webhook dispatcher's own tasks and leases, on a store two dispatchers share (memory, as
/// `SharedStorageTests` shares it): an attempt that outlived its lease leaves the row to the
/// worker that claimed it again (neither removes nor rewrites it); stopping cancels the attempts
/// in flight (abandoned to their lease) and the retries waiting, and starts nothing more; a
/// sandbox that stopped has no dispatcher task left.
@Suite struct WebhookDispatcherTests {
    private typealias Receiver = HoldingWebhookReceiver

    private func settings(_ storage: any SandboxStorage, attempts: Int = 3, retryDelay: Double = 3_600) -> SandboxSettings {
        var settings = SandboxSettings()
        settings.storage = storage
        settings.webhookAttempts = attempts
        settings.webhookRetryDelay = retryDelay
        // A held attempt must still be in flight when a starved machine gets round to looking.
        settings.webhookTimeout = 120
        return settings
    }

    /// attempts 1: the late attempt would have finished it (removed the row); 3, answered 500:
    /// it would have scheduled a retry (rewritten the row, its claim cleared).
    @Test(arguments: [1, 3])
    func aLateAttemptLeavesTheClaimOfTheWorkerThatClaimedItAgain(attempts: Int) async throws {
        let receiver = await Receiver.start()
        defer { receiver.release() }
        let storage = SharedStorageTests.SharedStorage()
        let dispatcher = WebhookDispatcher(settings: settings(storage, attempts: attempts))
        let queue = Receiver.queue(in: storage)
        let id = "WHD_late\(attempts)0000000"
        try await Receiver.put(Receiver.delivery(id, to: receiver.holdURL), in: queue)

        try await dispatcher.deliverDue()
        #expect(await Receiver.until { receiver.held == 1 }, "the delivery was not sent")
        // Its lease ran out while the POST hung, and another worker claimed it again.
        let othersClaim = Date().addingTimeInterval(600)
        _ = try await queue.update(.key(id), at: nil) { $0.claimedUntil = othersClaim }
        receiver.release()
        #expect(await Receiver.until { dispatcher.sending == 0 }, "the attempt did not end")

        let row = try await queue.record(.key(id), at: nil)
        #expect(row != nil, "the late attempt removed a delivery another worker holds")
        #expect(row?.claimedUntil == othersClaim, "the late attempt overwrote the other worker's claim")
        #expect(row?.attempts == 0, "the late attempt counted itself on a row it no longer held")
        await dispatcher.stop()
    }

    @Test func stoppingCancelsAttemptsAndRetriesUnderWayAndStartsNoMore() async throws {
        let receiver = await Receiver.start()
        defer { receiver.release() }
        let storage = SharedStorageTests.SharedStorage()
        // A retry waits an hour: only cancelling it lets `stop` return.
        let dispatcher = WebhookDispatcher(settings: settings(storage))
        let queue = Receiver.queue(in: storage)
        try await Receiver.put(Receiver.delivery("WHD_retrying01", to: receiver.failURL), in: queue)
        try await Receiver.put(Receiver.delivery("WHD_inflight01", to: receiver.holdURL), in: queue)

        try await dispatcher.deliverDue()
        // One attempt hangs at the receiver; the other failed and waits for its retry.
        let busy = await Receiver.until {
            receiver.held == 1 && receiver.failed == 1 && dispatcher.sending == 1 && dispatcher.tasksUnderWay == 2
        }
        #expect(busy, "held \(receiver.held), failed \(receiver.failed), tasks \(dispatcher.tasksUnderWay)")

        await dispatcher.stop()
        #expect(dispatcher.tasksUnderWay == 0, "a task outlived stop")
        #expect(dispatcher.sending == 0)
        // The one in flight is abandoned as after a crash: still claimed, no attempt counted.
        let abandoned = try await queue.record(.key("WHD_inflight01"), at: nil)
        #expect(abandoned?.claimedUntil != nil && abandoned?.attempts == 0, "the cancelled attempt was recorded: \(String(describing: abandoned))")
        let retrying = try await queue.record(.key("WHD_retrying01"), at: nil)
        #expect(retrying?.attempts == 1)

        // Stopped, a round claims and sends nothing.
        try await Receiver.put(Receiver.delivery("WHD_afterstop1", to: receiver.holdURL), in: queue)
        try await dispatcher.deliverDue()
        #expect(dispatcher.tasksUnderWay == 0 && dispatcher.sending == 0)
        #expect(try await queue.record(.key("WHD_afterstop1"), at: nil)?.claimedUntil == nil, "a stopped dispatcher claimed a delivery")
    }

    @Test func aStoppedSandboxLeavesNoWebhookTaskRunning() async throws {
        let receiver = await Receiver.start()
        defer { receiver.release() }
        let storage = SharedStorageTests.SharedStorage()
        let stopped = try await SandboxServer.withRunning(settings(storage)) { running in
            try await Receiver.put(Receiver.delivery("WHD_serverstop", to: receiver.holdURL), in: Receiver.queue(in: storage))
            // The due-time worker claims it and its attempt hangs at the receiver.
            #expect(await Receiver.until { receiver.held == 1 }, "the sandbox did not send the delivery")
            return running
        }
        #expect(await Receiver.until { stopped.webhooks.tasksUnderWay == 0 }, "the attempt in flight outlived the sandbox")
        receiver.release()
        #expect(receiver.received <= 1)
    }
}
