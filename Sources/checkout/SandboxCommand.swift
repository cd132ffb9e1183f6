import ArgumentParser
import Foundation
import Logging
import CheckoutApp
import Sandbox

struct SandboxCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "Run the sandbox alone and print its base URL.",
        discussion: """
            Serves every emulated provider on one port (`checkout providers` lists them and their \
            endpoints), the simulated customer \
            (/sandbox/customer-requests/{id}/authorize in a browser; POST …/approve or …/decline), \
            faults (/sandbox/faults) and the capture ledger (/sandbox/ledger). Point `checkout` and \
            `checkout run` at it with --sandbox-url. Stop it with Ctrl-C.
            """
    )

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "Port to listen on; 0 picks a free one.")
    var port = 8080

    @OptionGroup var timings: SandboxTimingFlags

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535, got \(port)") }
    }

    func run() async throws {
        let running: RunningSandbox
        let settings = SandboxSettings(triggerRotation: timings.triggerRotation, requestLifetime: timings.requestLifetime)
        let providers = await ProviderRegistry.builtIn.sandboxProviders()
        do { running = try await SandboxServer(settings: settings, providers: providers).start(host: host, port: port) } catch {
            Console.err("error: \(error)")
            throw ExitCode(2)
        }
        Console.out(running.baseURL)
        let served = providers.map { "\($0.id): \($0.summary)" }.joined(separator: "; ")
        Console.err("sandbox: at \(running.baseURL) — \(served); Ctrl-C stops it")
        await running.wait()
    }
}
