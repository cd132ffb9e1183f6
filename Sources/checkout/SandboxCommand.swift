import ArgumentParser
import Foundation
import Logging
import CheckoutApp
import Sandbox
import TerminalUI

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

            Its URL is the first line on stdout; then one access-log line per request served \
            (--log-format text, json or none). Every request is also kept, redacted, in its \
            journal (GET /sandbox/journal; `checkout journal` lists or follows it).

            Adyen: notifications go to every receiver registered with POST /sandbox/webhooks \
            {"url": …}, signed with the test HMAC key (`checkout providers` shows it) or \
            --adyen-hmac-key HEX.

            Faults added with --fault here, or by POST /sandbox/faults without an "owner", stay \
            until DELETE /sandbox/faults; the faults a checkout names (its --fault, the screen's, a \
            scenario's) belong to that checkout, and what is left of them is removed when it ends. \
            GET /sandbox/faults lists each pending fault with its owner.

            Its state is kept in memory unless --store names a PostgreSQL database (or \
            CHECKOUT_SANDBOX_STORE, or the profile's sandbox_store): then every instance given \
            that database is one sandbox.

            A sandbox others reach (--host beyond loopback) should have a control token \
            (--control-token-file, or CHECKOUT_SANDBOX_CONTROL_TOKEN): then every /sandbox/ \
            control route (the simulated customer's approve and decline, faults, webhooks, the \
            ledger and the rest) needs Authorization: Bearer TOKEN, which `checkout` and `checkout run` \
            send with --sandbox-token-file. GET /sandbox/health and the customer's own pages \
            (authorization links and their QR codes, checkout, cashier, bank and receipt pages) \
            stay open to whoever holds their links; the providers' APIs keep their own \
            credentials. Without a token on a non-loopback --host it warns.
            """ + "\n" + ExitCodes.section([
                .init(ExitStatus.failed.rawValue, meaning: "it could not listen on --host and --port (e.g. the port is taken)"),
                .init(Self.storeUnavailable, meaning: "the --store database cannot be used (unreachable, refused, or its schema is newer than this checkout knows)"),
                ExitCodes.usage(", a provider option the sandbox cannot use, or a --reset that was not confirmed"),
                ExitCodes.signals("after finishing the requests in flight; this is how it normally stops: it runs until then"),
            ])
    ).parsedUnderCheckout()

    @Option(help: "Address to listen on.")
    var host = "127.0.0.1"

    @Option(parsing: .unconditional, help: "Port to listen on; 0 picks a free one.")
    var port = 8080

    @Option(name: .customLong("fault"), help: FaultSpecOption.help)
    var faultSpecs: [String] = []

    @OptionGroup var timings: SandboxTimingFlags

    @Option(name: .customLong("time-scale"), parsing: .unconditional, help: ArgumentHelp(
        "Sandbox seconds per real second for provider timers such as Square's delayed capture: 60 makes a one-minute delay pass in one second.",
        valueName: "N"))
    var timeScale: Double = 1

    /// The --time-scale values accepted: positive, and not so large that every delay is instant.
    static let timeScales = 0.001...1_000_000.0

    @OptionGroup(title: "Bounds") var bounds: SandboxLimitFlags

    @OptionGroup(title: "Store") var store: SandboxStoreFlags

    @OptionGroup(title: "Control") var control: SandboxControlFlags
    @Option(name: .customLong("log-format"), help: ArgumentHelp(
        "The access log on stdout, one line per request served (time, method, path, status, milliseconds, provider, run): "
            + "text, json (one object per line) or none.", valueName: "format"))
    var logFormat = SandboxAccessLog.Format.text.rawValue

    /// EX_UNAVAILABLE: the store it was told to use cannot be used.
    static let storeUnavailable: Int32 = 69

    func validate() throws {
        let faults = try FaultSpecOption.rules(faultSpecs)
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0...65535, got \(port)") }
        guard timeScale.isFinite, Self.timeScales.contains(timeScale) else {
            throw ValidationError(
                "--time-scale must be a positive number from \(Self.timeScales.lowerBound.plainText) to \(Self.timeScales.upperBound.plainText) "
                    + "(sandbox seconds per real second), got \(timeScale.plainText)")
        }
        // A request forgotten while still pending would vanish under a polling client.
        guard bounds.requestRetention >= timings.requestLifetime else {
            throw ValidationError(
                "--request-retention (\(bounds.requestRetention.plainText) s) must be at least --request-lifetime (\(timings.requestLifetime.plainText) s)")
        }
        guard faults.count <= bounds.maxFaults else {
            throw ValidationError("--fault is given \(faults.count) times, more than --max-faults \(bounds.maxFaults)")
        }
        _ = try store.choice(environment: ProcessInfo.processInfo.environment)
        _ = try control.controlToken(environment: ProcessInfo.processInfo.environment)
        guard SandboxAccessLog.Format(rawValue: logFormat) != nil else {
            throw ValidationError(
                "--log-format must be one of \(SandboxAccessLog.Format.allCases.map(\.rawValue).joined(separator: ", ")), got \"\(logFormat.prefix(20))\"")
        }
    }

    func run() async throws {
        let running: RunningSandbox
        var settings = SandboxSettings(triggerRotation: timings.triggerRotation, requestLifetime: timings.requestLifetime)
        settings.limits = bounds.limits
        settings.timeScale = timeScale
        // Providers' options that shape the sandbox (e.g. --adyen-hmac-key).
        let registry = ProviderRegistry.builtIn
        let values = ProviderCommandLine.values.withEnvironment(ProcessInfo.processInfo.environment, options: registry.options)
        if let problem = registry.descriptors.lazy.compactMap({ $0.optionProblem(values) }).first {
            Console.err("error: \(problem)")
            throw ExitCode(.usage)
        }
        settings = registry.sandboxSettings(settings, options: values)
        let store = try self.store.choice(environment: ProcessInfo.processInfo.environment)
        if let warning = self.store.profileWarning(environment: ProcessInfo.processInfo.environment) { Console.err(warning) }
        if self.store.reset, !self.store.yes, !SandboxStoreFlags.confirmReset(of: store) {
            Console.err("sandbox: not reset, not started (--yes resets without asking)")
            throw ExitCode(.usage)
        }
        settings.controlToken = try control.controlToken(environment: ProcessInfo.processInfo.environment)
        if settings.controlToken == nil, let warning = SandboxControlFlags.openWarning(host: host) { Console.err(warning) }
        settings.reportProblem = { Console.err("sandbox: \($0)") }
        settings.accessLog = SandboxAccessLog.logger(SandboxAccessLog.Format(rawValue: logFormat) ?? .text) { Console.out($0) }
        do { try await settings.useStore(store, reset: self.store.reset) } catch {
            Console.err("error: \(error)")
            throw ExitCode(Self.storeUnavailable)
        }
        let providers = await registry.sandboxProviders(settings)
        do { running = try await SandboxServer(settings: settings, providers: providers).start(host: host, port: port) } catch {
            Console.err("error: \(error)")
            throw ExitCode(.failed)
        }
        let faults = try FaultSpecOption.rules(faultSpecs)
        for fault in faults { try await running.faults.add(fault, owner: FaultPlan.sandboxOwner) }
        // Ctrl-C, Ctrl-\, a kill or a closed terminal: finish the requests in flight, close, exit
        // 128 + signal. Installed before the URL is printed, which is when callers start using it.
        let signals = await SignalCleanup.install { signal in
            Console.err("sandbox: \(TerminalSignals.name(of: signal)); stopping")
            await running.stop()
        }
        Console.out(running.baseURL)
        let served = providers.map { "\($0.id): \($0.summary)" }.joined(separator: "; ")
        let kept = store == .memory ? "" : "; state in \(store)"
        let guarded = settings.controlToken == nil ? "" : "; /sandbox/ control routes need the control token"
        Console.err("sandbox: at \(running.baseURL) — \(served); \(Self.standingFaults(faults.count))\(kept)\(guarded); Ctrl-C stops it")
        await running.wait()
        await signals.awaitExitIfSignalled()
        signals.cancel()
    }

    /// The banner's note on the faults added with --fault.
    static func standingFaults(_ count: Int) -> String {
        switch count {
        case 0: "no standing faults"
        case 1: "1 standing fault added (it stays until DELETE /sandbox/faults)"
        default: "\(count) standing faults added (they stay until DELETE /sandbox/faults)"
        }
    }
}
