import Foundation
import Synchronization
import TestSupport

/// The `checkout sandbox` processes a soak runs against: one in memory (the plain soak), or
/// several given one PostgreSQL database (`--store`), which are then one sandbox.
final class SoakInstances: Sendable {
    struct Instance: Sendable {
        let process: ChildProcess
        let url: String
    }

    let store: String?
    private let running: Mutex<[Instance]>

    private init(store: String?, instances: [Instance]) {
        self.store = store
        running = Mutex(instances)
    }

    /// Starts `count` instances, one after another (so their migrations are tried in turn too).
    static func start(count: Int, store: String?) async throws -> SoakInstances {
        var started: [Instance] = []
        do {
            for _ in 0..<count { started.append(try await launch(store: store)) }
        } catch {
            for instance in started { instance.process.signal(SIGTERM) }
            throw error
        }
        return SoakInstances(store: store, instances: started)
    }

    private static func launch(store: String?) async throws -> Instance {
        let (process, url) = try await CheckoutBinary.start(["sandbox", "--port", "0"] + (store.map { ["--store", $0] } ?? []))
        guard url.hasPrefix("http") else {
            process.signal(SIGTERM)
            throw SoakStartError(message: "checkout sandbox printed \(url.debugDescription) instead of its URL: \(process.stderr.suffix(300))")
        }
        return Instance(process: process, url: url)
    }

    var all: [Instance] { running.withLock { $0 } }

    /// Kills instance `index` with SIGKILL (nothing of it is flushed or finished).
    func kill(_ index: Int) {
        running.withLock { $0[index] }.process.signal(SIGKILL)
    }

    /// Waits for the killed instance `index` to be gone, starts it again on the same store, and
    /// returns its new URL.
    func restart(_ index: Int) async throws -> String {
        let old = running.withLock { $0[index] }
        _ = await old.process.exit(timeout: 30)
        let again = try await Self.launch(store: store)
        running.withLock { $0[index] = again }
        return again.url
    }

    /// Every instance still running, asked to stop as Ctrl-C would.
    func stop() {
        for instance in all where instance.process.status == nil { instance.process.signal(SIGTERM) }
    }
}

struct SoakStartError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// A store URL as the soak prints it: without its password.
func redactedStore(_ url: String) -> String {
    guard var components = URLComponents(string: url), components.password != nil else { return url }
    components.password = "***"
    return components.string ?? "postgres://…"
}
