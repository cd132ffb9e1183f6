import Foundation
import ProviderClients
import ProviderWire

/// Something the bank component or Antom told the checkout: the SDK's loading events and
/// errors, its destruction, and notifications. Shown in the Events pane and as `event` lines.
public struct AntomEvent: Hashable, Sendable {
    /// `SDK_START_OF_LOADING`, `SDK_CALL_URL_ERROR`, `onDestroy`, `PAYMENT_RESULT`, …
    public var name: String
    public var summary: String
    public var fields: [String: String]
    /// False for a notification whose signature did not verify: shown, never acted on.
    public var verified: Bool

    public init(name: String, summary: String, fields: [String: String] = [:], verified: Bool = true) {
        self.name = name
        self.summary = summary
        self.fields = fields
        self.verified = verified
    }
}

public typealias AntomEventReporter = @Sendable (AntomEvent) -> Void

/// The seed SDK's error codes, each with the state it leads to (STATES.md).
public enum AntomSDKError: String, Error, Hashable, Sendable, CaseIterable {
    case internalError = "SDK_INTERNAL_ERROR"
    case parameterError = "SDK_CREATEPAYMENT_PARAMETER_ERROR"
    case callURLError = "SDK_CALL_URL_ERROR"
    case integrationError = "SDK_INTEGRATION_ERROR"

    public var kind: ProviderFailure.Kind {
        switch self {
        case .parameterError, .integrationError: .integration
        case .callURLError: .api
        case .internalError: .unexpected
        }
    }
}

/// What the loaded component shows: the banks to choose from and where the customer goes.
public struct AntomComponentView: Hashable, Sendable {
    public var banks: [AntomCashierBank]
    /// The bank's page (one bank) or the cashier page listing them, in the component's locale.
    public var link: String
}

/// The client-side bank component (the seed's SDK), created from `paymentSessionData` with a
/// configuration: it loads the session's banks, reporting `SDK_START_OF_LOADING` and
/// `SDK_END_OF_LOADING`, or one of the SDK's errors; `destroy()` is its `onDestroy`.
///
/// Its logger (the seed's `AMSLoggerProtocol` `logWithName:parameter:`) gets a line at each
/// point of the seed's steps: `initConfiguration` (locale and options), `createComponent`
/// (the session it was given: its id and environment, never the session data), `onEventCallback`
/// for each event code it reports (with the message of an error), and `onDestroy`.
public actor AntomComponent {
    public struct Configuration: Hashable, Sendable {
        public var locale: AntomLocale
        /// The SDK's `sandbox` option: the session data must come from the same environment.
        public var sandbox: Bool
        public var showLoading: Bool
        public var clientKind: AntomClientKind

        public init(locale: AntomLocale, sandbox: Bool, showLoading: Bool, clientKind: AntomClientKind) {
            self.locale = locale
            self.sandbox = sandbox
            self.showLoading = showLoading
            self.clientKind = clientKind
        }
    }

    public let sessionData: String
    public let configuration: Configuration
    private let mode: AntomDisplayMode
    private let http: ProviderHTTPClient
    private let report: AntomEventReporter
    /// The SDK's logger delegate.
    private let log: SDKLogger
    public private(set) var destroyed = false

    public init(
        sessionData: String, configuration: Configuration, mode: AntomDisplayMode, http: ProviderHTTPClient, report: @escaping AntomEventReporter,
        log: @escaping SDKLogger = { _ in }
    ) {
        self.sessionData = sessionData
        self.configuration = configuration
        self.mode = mode
        self.http = http
        self.report = report
        self.log = log
    }

    public func load() async throws(AntomComponentFailure) -> AntomComponentView {
        // Step 3: the configuration (locale and the options dictionary), then createComponent(paymentSessionData).
        log(SDKLogLine(name: "initConfiguration", parameters: [
            "locale": configuration.locale.rawValue, "sandbox": String(configuration.sandbox), "showLoading": String(configuration.showLoading),
        ]))
        var created = ["readable": "false"]
        if let data = AntomSessionData(encoded: sessionData) {
            created["readable"] = "true"
            created["paymentSessionId"] = data.paymentSessionId
            created["environment"] = data.environment
        }
        log(SDKLogLine(name: "createComponent", parameters: created))
        let loading = ["show_loading": String(configuration.showLoading), "locale": configuration.locale.rawValue]
        event("SDK_START_OF_LOADING", AntomEvent(name: "SDK_START_OF_LOADING", summary: "the bank component is loading", fields: loading))
        do {
            let view = try await fetch()
            event("SDK_END_OF_LOADING", AntomEvent(
                name: "SDK_END_OF_LOADING", summary: "loaded \(view.banks.count) bank\(view.banks.count == 1 ? "" : "s")",
                fields: ["banks": view.banks.map(\.bankName).joined(separator: ",")]))
            return view
        } catch {
            event("SDK_END_OF_LOADING", AntomEvent(name: "SDK_END_OF_LOADING", summary: "loading ended with an error"))
            event(error.code.rawValue, AntomEvent(name: error.code.rawValue, summary: error.detail), message: error.detail)
            throw error
        }
    }

    /// The SDK calls `onEventCallback` and logs that it did.
    private func event(_ code: String, _ event: AntomEvent, message: String? = nil) {
        var parameters = ["eventCode": code]
        if let message { parameters["message"] = message }
        log(SDKLogLine(name: "onEventCallback", parameters: parameters))
        report(event)
    }

    /// `onDestroy`: the component is gone; a second call does nothing.
    public func destroy() {
        guard !destroyed else { return }
        destroyed = true
        log(SDKLogLine(name: "onDestroy"))
        report(AntomEvent(name: "onDestroy", summary: "the previous bank component was destroyed"))
    }

    private func fetch() async throws(AntomComponentFailure) -> AntomComponentView {
        guard let data = AntomSessionData(encoded: sessionData) else {
            throw AntomComponentFailure(.parameterError, "paymentSessionData is not a session the component can read")
        }
        let sessionIsSandbox = data.environment == "sandbox"
        guard sessionIsSandbox == configuration.sandbox else {
            throw AntomComponentFailure(
                .integrationError,
                "the component is configured with sandbox: \(configuration.sandbox) but the session is from \(data.environment)")
        }
        let cashier: AntomCashier = try await http.jsonCall(
            "GET", url: data.cashierUrl, headers: [(name: "Accept", value: "application/json")], body: Optional<Never>.none,
            provider: AntomClient.provider, policy: .never, shouldRetry: { _ in false }
        ) { (response: ProviderResponse) throws(AntomComponentFailure) -> AntomCashier in
            guard response.isSuccess else { throw AntomComponentFailure(.callURLError, "the cashier answered HTTP \(response.status)") }
            do { return try JSONDecoder().decode(AntomCashier.self, from: response.body) } catch {
                throw .undecodable(status: response.status, detail: "\(error)")
            }
        }
        // The seed's rule: bank-type mode never offers mobile banking apps to web clients.
        let banks = configuration.clientKind == .web && mode == .bankType(.mobileBankingApp) ? [] : cashier.banks
        guard !banks.isEmpty else {
            throw AntomComponentFailure(.parameterError, "\(mode.spelling) offers no bank to a \(configuration.clientKind.rawValue) client")
        }
        let locale = "locale=\(configuration.locale.rawValue)"
        let page = banks.count == 1 ? banks[0].bankPageUrl : cashier.cashierPageUrl
        return AntomComponentView(banks: banks, link: page + (page.contains("?") ? "&" : "?") + locale)
    }
}

/// A component error: the SDK's code and what went wrong.
public struct AntomComponentFailure: Error, Hashable, Sendable {
    public let code: AntomSDKError
    public let detail: String

    public init(_ code: AntomSDKError, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    public var providerFailure: ProviderFailure {
        ProviderFailure(kind: code.kind, category: "ANTOM_SDK", code: code.rawValue, detail: detail)
    }
}

extension AntomComponentFailure: ProviderCallError {
    public static func transport(_ failure: TransportFailure) -> AntomComponentFailure {
        AntomComponentFailure(.callURLError, "the cashier could not be reached: \(failure)")
    }

    public static func undecodable(status: Int, detail: String) -> AntomComponentFailure {
        AntomComponentFailure(.internalError, "the cashier's answer could not be read")
    }
}
