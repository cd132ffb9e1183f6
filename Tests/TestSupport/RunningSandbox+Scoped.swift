import CheckoutApp
import Foundation
import Sandbox

extension SandboxServer {
    /// Starts a sandbox with `settings` and the built-in providers on 127.0.0.1 port 0, runs
    /// `body`, and stops it afterwards whatever happens.
    public static func withRunning<T: Sendable>(
        _ settings: SandboxSettings, registry: ProviderRegistry = .builtIn, _ body: (RunningSandbox) async throws -> T
    ) async throws -> T {
        let sandbox = try await SandboxServer(settings: settings, providers: await registry.sandboxProviders(settings)).start(host: "127.0.0.1", port: 0)
        do {
            let result = try await body(sandbox)
            await sandbox.stop()
            return result
        } catch {
            await sandbox.stop()
            throw error
        }
    }
}
