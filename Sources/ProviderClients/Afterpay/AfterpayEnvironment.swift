import Foundation

/// The environment an Afterpay account and a Cash App host belong to, as the Afterpay SDK pairs
/// them: `Afterpay.setConfiguration(… environment:)` picks the signing host and the Cash App Pay
/// client id (`Environment.cashAppClientId` in afterpay/sdk-ios), and PayKit must then use the
/// same environment ("Ensure same environment as Afterpay SDK config").
///
/// A host is recognised by name: Afterpay's own hosts (`*.afterpay.com`, `*.clearpay.co.uk`)
/// and Cash App's (`*.cash.app`) are sandbox when a label of the host contains `sandbox`
/// (global-api-sandbox.afterpay.com, api-plus.us-sandbox.afterpay.com, sandbox.api.cash.app)
/// and production otherwise (global-api.afterpay.com, api-plus.us.afterpay.com, api.cash.app).
/// Any other host (the embedded sandbox, a shared `checkout sandbox`, a merchant's own server in
/// front of Afterpay) says nothing about the environment.
public enum AfterpayEnvironment: String, Sendable, Hashable {
    case sandbox
    case production

    /// The Cash App Pay client id the Afterpay SDK hands PayKit for this environment.
    public var cashAppClientID: String {
        switch self {
        case .sandbox: "CAS-CI_AFTERPAY"
        case .production: "CA-CI_AFTERPAY"
        }
    }

    /// The environment of an Afterpay URL's host, or nil when the host is not Afterpay's.
    public static func ofAfterpay(_ url: String) -> AfterpayEnvironment? {
        recognise(url, domains: ["afterpay.com", "clearpay.co.uk"])
    }

    /// The environment of a Cash App URL's host, or nil when the host is not Cash App's.
    public static func ofCashApp(_ url: String) -> AfterpayEnvironment? {
        recognise(url, domains: ["cash.app"])
    }

    /// The host of a URL, lower-cased; nil when it has none.
    public static func host(_ url: String) -> String? {
        URLComponents(string: url)?.host?.lowercased()
    }

    private static func recognise(_ url: String, domains: [String]) -> AfterpayEnvironment? {
        guard let host = host(url), domains.contains(where: { host == $0 || host.hasSuffix("." + $0) }) else { return nil }
        return host.split(separator: ".").contains { $0.contains("sandbox") } ? .sandbox : .production
    }

    /// Why an Afterpay account and a Cash App host cannot be used together, or nil when they can.
    /// `afterpay` are the Afterpay URLs with their flags (nil URL: the sandbox serves Afterpay),
    /// `cashApp` the Cash App URL (nil: the sandbox serves Cash App).
    public static func mismatch(afterpay: [(flag: String, url: String?)], cashApp: (flag: String, url: String?)) -> String? {
        func described(_ url: String?, _ recognise: (String) -> AfterpayEnvironment?) -> (AfterpayEnvironment, String)? {
            guard let url else { return (.sandbox, "the checkout's sandbox") }
            return recognise(url).map { ($0, host(url) ?? url) }
        }
        let accounts = afterpay.compactMap { given in described(given.url, ofAfterpay).map { (flag: given.flag, environment: $0.0, host: $0.1) } }
        if let first = accounts.first, let other = accounts.first(where: { $0.environment != first.environment }) {
            return "the Afterpay account is split: --\(first.flag) is \(first.environment.rawValue) (\(first.host)) but --\(other.flag) is \(other.environment.rawValue) (\(other.host)); use one environment"
        }
        guard let account = accounts.first, let (environment, host) = described(cashApp.url, ofCashApp), environment != account.environment else {
            return nil
        }
        return "the Afterpay account is \(account.environment.rawValue) (\(account.host)) but --\(cashApp.flag) is \(environment.rawValue) (\(host)); "
            + "Afterpay's Cash App Pay needs both in one environment"
    }
}
