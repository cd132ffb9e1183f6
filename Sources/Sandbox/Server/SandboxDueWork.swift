import Foundation
import ServiceLifecycle

/// The sandbox's due-time worker: a few times a second it asks every provider to apply what
/// time changed (`SandboxProvider.applyDue`), so a change someone must be told of (Adyen's
/// Received payment decided, Antom's session expired or confirmed) is applied and notified on
/// time though nobody reads it, by whichever instance sees it due first, and after a restart.
/// Runs as a service beside the HTTP server; ends on graceful shutdown (after the server, before
/// the store), and the webhook dispatcher's tasks with it: a stopped sandbox sends nothing further.
struct SandboxDueWork: Service {
    let providers: [any SandboxProvider]
    let settings: SandboxSettings
    /// Its deliveries that are due are claimed and sent each round.
    let webhooks: WebhookDispatcher
    /// Time between two rounds.
    var interval: Duration = .milliseconds(100)
    /// When set, rounds thin out while no request is served (a store on a database); nil: every tick.
    var cadence: DueWorkCadence? = nil

    func run() async throws {
        let (providers, settings, interval, webhooks, cadence) = (providers, settings, interval, webhooks, cadence)
        webhooks.start()
        await cancelWhenGracefulShutdown {
            var reported = false
            while !Task.isCancelled {
                if let cadence, !cadence.roundDue() {
                    try? await Task.sleep(for: interval)
                    continue
                }
                // The store is away: tried again next round; said once per outage (until a whole
                // round succeeds), not once a round.
                var failed = false
                for provider in providers {
                    do { try await provider.applyDue(now: settings.now()) } catch {
                        if !reported, !failed { settings.reportProblem?("time-driven changes are waiting for the store: \(error)") }
                        failed = true
                    }
                }
                do { try await webhooks.deliverDue() } catch {
                    if !reported, !failed { settings.reportProblem?("webhook deliveries are waiting for the store: \(error)") }
                    failed = true
                }
                reported = failed
                try? await Task.sleep(for: interval)
            }
        }
        // Its retries, attempts and rounds in flight are cancelled and waited for.
        await webhooks.stop()
    }
}
