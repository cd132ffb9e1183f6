import ArgumentParser
import CheckoutApp
import CheckoutModel
import Foundation
import Sandbox

/// How a checkout connects (a shared sandbox; the providers' own options are split off the
/// command line first, see `ProviderCommandLine`), which faults to inject, how to retry;
/// shared by the screen and `checkout run`.
struct SessionFlags: ParsableArguments {
    @Option(help: ActiveProfile.option, completion: .custom { _, _, _ in ActiveProfile.namesForCompletion() })
    var profile: String?

    @Option(name: .customLong("sandbox-url"), help: ArgumentHelp(
        "Use this running `checkout sandbox` for every provider instead of an embedded one.", valueName: "url"))
    var sandboxURL: String?

    @Option(name: .customLong("sandbox-token-file"), help: ArgumentHelp(
        "Send the control token on this file's first line to the --sandbox-url sandbox (one started with --control-token-file). "
            + "Also \(SandboxControlTokenInput.environmentKey), or the profile's sandbox_control_token.",
        valueName: "path"), completion: .file())
    var sandboxTokenFile: String?

    @Option(name: .customLong("fault"), help: FaultSpecOption.help)
    var faultSpecs: [String] = []

    @Option(name: .customLong("retry-base-ms"), parsing: .unconditional, help: ArgumentHelp(
        "Back-off base for retries of failed transport: retry n waits base × (2^n − 1).", valueName: "ms"))
    var retryBaseMilliseconds: Int = SessionOptions.Defaults.retryBaseMilliseconds

    @OptionGroup var timings: SandboxTimingFlags

    @Option(name: .customLong("currency"), help: ArgumentHelp(
        "The shop's currency: USD, THB (฿, Bangkok) or IDR (Rp, Jakarta); each has its own priced catalog.", valueName: "code"))
    var currency: String = SessionOptions.Defaults.currency

    var options: SessionOptions { options(environment: ProcessInfo.processInfo.environment) }

    /// The options with `environment` as the process's (read once by a caller that needs it too).
    func options(environment: [String: String]) -> SessionOptions {
        // A profile that cannot be resolved is reported by validate(), before any use.
        let profile = (try? ActiveProfile.resolve(flag: self.profile, environment: environment)) ?? nil
        let registry = profile?.registry ?? .builtIn
        // The command line first, then the profile, then the options' environment variables.
        let given = ProviderCommandLine.values.filling(from: profile?.values ?? ProviderOptionValues())
        var options = SessionOptions(
            registry: registry,
            providerOptions: given.withEnvironment(environment, options: registry.options),
            sandboxURL: sandboxURL ?? profile?.sandboxURL,
            faults: faultSpecs.compactMap { try? FaultRule(spec: $0) },
            retryBaseDelay: .milliseconds(retryBaseMilliseconds),
            triggerRotationSeconds: timings.triggerRotation, requestLifetimeSeconds: timings.requestLifetime)
        options.currency = currency.uppercased()
        options.profileName = profile?.profile.name
        // Only a shared sandbox takes one (validate() reports a token that cannot be used).
        if options.sandboxURL != nil { options.sandboxControlToken = try? controlToken(profile: profile, environment: environment) }
        return options
    }

    /// The shared sandbox's control token: --sandbox-token-file, else the profile's
    /// sandbox_control_token, else CHECKOUT_SANDBOX_CONTROL_TOKEN (the command line over the
    /// profile over the environment, as for the providers' options); each checked.
    func controlToken(profile: ResolvedProfile?, environment: [String: String]) throws(SandboxControlTokenInput.Problem) -> String? {
        try SandboxControlTokenInput.client(file: sandboxTokenFile, profile: profile, environment: environment)
    }

    func validate() throws {
        try ActiveProfile.validate(flag: profile)
        guard Catalog.bundledCurrencies.contains(currency.uppercased()) else {
            throw ValidationError("--currency must be one of \(Catalog.bundledCurrencies.joined(separator: ", ")), not \"\(currency.prefix(20))\"")
        }
        _ = try FaultSpecOption.rules(faultSpecs)
        guard InputLimits.retryBaseMilliseconds.contains(retryBaseMilliseconds) else {
            throw ValidationError(
                "--retry-base-ms must be a number of milliseconds from \(InputLimits.describe(InputLimits.retryBaseMilliseconds) { "\($0)" }), got \(retryBaseMilliseconds)")
        }
        let environment = ProcessInfo.processInfo.environment
        let options = self.options(environment: environment)
        if let problem = options.problem { throw ValidationError(problem) }
        if sandboxTokenFile != nil, options.sandboxURL == nil {
            throw ValidationError("--sandbox-token-file is for a shared sandbox: give --sandbox-url too (the embedded sandbox needs no token)")
        }
        if options.sandboxURL != nil {
            do {
                _ = try controlToken(profile: try ActiveProfile.resolve(flag: profile, environment: environment), environment: environment)
            } catch { throw ValidationError("\(error)") }
        }
        if !options.usesEmbeddedSandbox, timings.changed {
            throw ValidationError("--trigger-rotation and --request-lifetime set the embedded sandbox; pass them to `checkout sandbox` instead")
        }
    }
}

/// The sandbox timings users shorten to reach `refreshing` and expiry without waiting.
struct SandboxTimingFlags: ParsableArguments {
    @Option(name: .customLong("trigger-rotation"), parsing: .unconditional, help: ArgumentHelp(
        "Sandbox: seconds between auth-flow trigger rotations (PayKit refreshes links that expire within 10 s).", valueName: "seconds"))
    var triggerRotation: Double = SessionOptions.Defaults.triggerRotationSeconds

    @Option(name: .customLong("request-lifetime"), parsing: .unconditional, help: ArgumentHelp(
        "Sandbox: seconds before a pending customer request expires and is declined.", valueName: "seconds"))
    var requestLifetime: Double = SessionOptions.Defaults.requestLifetimeSeconds

    var changed: Bool {
        triggerRotation != SessionOptions.Defaults.triggerRotationSeconds || requestLifetime != SessionOptions.Defaults.requestLifetimeSeconds
    }

    func validate() throws {
        for (flag, value, range) in [
            ("--trigger-rotation", triggerRotation, InputLimits.triggerRotationSeconds),
            ("--request-lifetime", requestLifetime, InputLimits.requestLifetimeSeconds),
        ] where !range.contains(value) {
            throw ValidationError("\(flag) must be a number of seconds from \(InputLimits.describe(range) { $0.plainText }), got \(value.plainText)")
        }
    }
}
