import ArgumentParser
import CheckoutApp
import Foundation
import Sandbox

/// How a checkout connects (provider or sandbox), which faults to inject, how to retry;
/// shared by the screen and `checkout run`.
struct SessionFlags: ParsableArguments {
    @Option(name: .customLong("cashapp-url"), help: ArgumentHelp(
        "Cash App API host root, e.g. https://sandbox.api.cash.app (default: the embedded sandbox).", valueName: "url"))
    var cashAppURL: String?

    @Option(name: .customLong("client-id"), help: ArgumentHelp("Cash App client id (or CASHAPP_CLIENT_ID).", valueName: "id"))
    var clientID: String?

    @Option(name: .customLong("brand-id"), help: ArgumentHelp("Cash App brand id used as the scope (or CASHAPP_BRAND_ID).", valueName: "id"))
    var brandID: String?

    @Option(name: .customLong("sandbox-url"), help: ArgumentHelp(
        "Use this running `checkout sandbox` for every provider instead of an embedded one.", valueName: "url"))
    var sandboxURL: String?

    @Option(name: .customLong("fault"), help: FaultSpecOption.help)
    var faultSpecs: [String] = []

    @Option(name: .customLong("retry-base-ms"), help: ArgumentHelp(
        "Back-off base for retries of failed transport: retry n waits base × (2^n − 1).", valueName: "ms"))
    var retryBaseMilliseconds: Int = 2000

    @OptionGroup var timings: SandboxTimingFlags

    @Option(name: .customLong("afterpay-url"), help: ArgumentHelp(
        "Afterpay merchant-server host (checkout and capture), e.g. https://global-api-sandbox.afterpay.com (default: the sandbox).",
        valueName: "url"))
    var afterpayURL: String?

    @Option(name: .customLong("afterpay-signing-url"), help: ArgumentHelp(
        "Afterpay signing host (sign and validate), e.g. https://api-plus.us-sandbox.afterpay.com (default: the sandbox).",
        valueName: "url"))
    var afterpaySigningURL: String?

    @Option(name: .customLong("afterpay-merchant-id"), help: ArgumentHelp("Afterpay merchant id (or AFTERPAY_MERCHANT_ID).", valueName: "id"))
    var afterpayMerchantID: String?

    @Option(name: .customLong("afterpay-secret-key"), help: ArgumentHelp("Afterpay secret key (or AFTERPAY_SECRET_KEY).", valueName: "key"))
    var afterpaySecretKey: String?

    var options: SessionOptions {
        var options = SessionOptions(
            endpoint: CashAppEndpointOptions(baseURL: cashAppURL, clientID: clientID, brandID: brandID)
                .withEnvironment(ProcessInfo.processInfo.environment),
            sandboxURL: sandboxURL,
            faults: faultSpecs.compactMap { try? FaultRule(spec: $0) },
            retryBaseDelay: .milliseconds(retryBaseMilliseconds),
            triggerRotationSeconds: timings.triggerRotation, requestLifetimeSeconds: timings.requestLifetime)
        options.afterpay = AfterpayEndpointOptions(
            merchantURL: afterpayURL, signingURL: afterpaySigningURL, merchantID: afterpayMerchantID, secretKey: afterpaySecretKey
        ).withEnvironment(ProcessInfo.processInfo.environment)
        return options
    }

    func validate() throws {
        _ = try FaultSpecOption.rules(faultSpecs)
        guard retryBaseMilliseconds >= 0 else { throw ValidationError("--retry-base-ms must be 0 or more, got \(retryBaseMilliseconds)") }
        if let problem = options.problem { throw ValidationError(problem) }
        if !options.usesEmbeddedSandbox, timings.changed {
            throw ValidationError("--trigger-rotation and --request-lifetime set the embedded sandbox; pass them to `checkout sandbox` instead")
        }
    }
}

/// The sandbox timings users shorten to reach `refreshing` and expiry without waiting.
struct SandboxTimingFlags: ParsableArguments {
    @Option(name: .customLong("trigger-rotation"), help: ArgumentHelp(
        "Sandbox: seconds between auth-flow trigger rotations (PayKit refreshes links that expire within 10 s).", valueName: "seconds"))
    var triggerRotation: Double = 30

    @Option(name: .customLong("request-lifetime"), help: ArgumentHelp(
        "Sandbox: seconds before a pending customer request expires and is declined.", valueName: "seconds"))
    var requestLifetime: Double = 3600

    var changed: Bool { triggerRotation != 30 || requestLifetime != 3600 }

    func validate() throws {
        guard triggerRotation >= 1 else { throw ValidationError("--trigger-rotation must be at least 1 second") }
        guard requestLifetime >= 1 else { throw ValidationError("--request-lifetime must be at least 1 second") }
    }
}
