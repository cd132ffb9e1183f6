import Foundation
import PaymentFlow

/// The Mobile Payments SDK's parameters as the SDK names them: PromptParameters.mode
/// (`--prompt`), the simulated reader's changes (`--reader-steps`), the processing mode
/// (`--processing-mode`), and `delayDuration` in seconds as well as ISO 8601 (`--delay`).
extension SquareOptions {
    static let prompt = ProviderOption(
        flag: "prompt", valueName: "default|custom",
        help: "Square: the SDK's prompt mode: default (Square's reader prompt) or custom (the app draws its own merchant-drawn prompt from the reader's card input methods).")
    static let readerSteps = ProviderOption(
        flag: "reader-steps", valueName: SquareReader.Change.allCases.map(\.rawValue).joined(separator: "|") + ",…",
        help: "Square, --prompt custom: what happens to the simulated reader before a card is presented, in order (e.g. disconnect,connect,low-battery); cancel cancels the payment through its handle.")
    static let processingMode = ProviderOption(
        flag: "processing-mode", valueName: ProcessingModeWord.allCases.map(\.rawValue).joined(separator: "|"),
        help: "Square: the SDK's processing mode (default online-only); auto-detect takes it offline when Square cannot be reached (as --offline-capable), offline-only queues it here without trying Square.")

    static let sdkOptions = [prompt, readerSteps, processingMode]

    /// The SDK's processing mode names.
    enum ProcessingModeWord: String, CaseIterable {
        case onlineOnly = "online-only"
        case offlineOnly = "offline-only"
        case autoDetect = "auto-detect"

        var mode: SquarePaymentSettings.ProcessingMode {
            switch self {
            case .onlineOnly: .online
            case .offlineOnly: .offlineOnly
            case .autoDetect: .offlineCapable
            }
        }
    }

    /// Square's defaults when `delayDuration` is 0 or absent.
    static let defaultDelayText = "Square's default: 36 hours card-present (PT36H), 7 days keyed (P7D)"

    static func sdkProblem(_ values: ProviderOptionValues) -> String? {
        if let value = values[prompt.flag], SquarePaymentSettings.PromptMode(rawValue: value) == nil {
            return "--prompt must be default or custom, not \"\(value.prefix(40))\""
        }
        if let value = values[readerSteps.flag] {
            guard let changes = SquareReader.Change.list(value), !changes.isEmpty, changes.count <= 32 else {
                return "--reader-steps must be 1 to 32 of \(SquareReader.Change.allCases.map(\.rawValue).joined(separator: ", ")), separated by commas, not \"\(value.prefix(60))\""
            }
            if values[prompt.flag] != SquarePaymentSettings.PromptMode.custom.rawValue {
                return "--reader-steps needs --prompt custom: only the merchant-drawn prompt shows the reader's card input methods"
            }
        }
        if let value = values[processingMode.flag] {
            guard let word = ProcessingModeWord(rawValue: value) else {
                return "--processing-mode must be one of online-only, offline-only, auto-detect, not \"\(value.prefix(40))\""
            }
            if values[offlineCapable.flag] != nil, word != .autoDetect {
                return "--offline-capable is --processing-mode auto-detect; it does not go with --processing-mode \(value)"
            }
        }
        return nil
    }

    /// `--delay`: whole seconds as the SDK's `delayDuration` takes them (at least 60; 0 for
    /// Square's default), or an ISO 8601 duration as the API's `delay_duration` (at least PT1M).
    static func delayProblem(_ value: String) -> String? {
        if !value.isEmpty, value.allSatisfy({ $0.isASCII && $0.isNumber }) {
            guard value.count <= 9, let seconds = Int(value) else { return "--delay must be at most 999999999 seconds, not \(value.prefix(20))" }
            if seconds != 0, seconds < 60 {
                return "--delay must be at least 60 seconds (or 0 for \(defaultDelayText)), not \(seconds)"
            }
            return nil
        }
        guard let seconds = ISO8601Duration.seconds(value) else {
            return "--delay must be an ISO 8601 duration such as PT10M, PT1H30M or P1D, or whole seconds (at least 60; 0 for Square's default), not \"\(value.prefix(40))\""
        }
        if seconds < 60 { return "--delay must be at least one minute (60 or PT1M), as Square requires" }
        return nil
    }

    /// The `delay_duration` sent for `--delay`: seconds become ISO 8601 (`600` → `PT10M`); 0 sends
    /// none, so Square applies its default for the payment (36 h card-present, 7 days keyed).
    static func delayDuration(_ value: String?) -> String? {
        guard let value else { return nil }
        guard value.allSatisfy({ $0.isASCII && $0.isNumber }), let seconds = Int(value) else { return value }
        guard seconds > 0 else { return nil }
        let (hours, rest) = seconds.quotientAndRemainder(dividingBy: 3_600)
        let (minutes, secs) = rest.quotientAndRemainder(dividingBy: 60)
        var text = "PT"
        if hours > 0 { text += "\(hours)H" }
        if minutes > 0 { text += "\(minutes)M" }
        if secs > 0 { text += "\(secs)S" }
        return text
    }

    static func processingModeSetting(_ values: ProviderOptionValues) -> SquarePaymentSettings.ProcessingMode {
        if let mode = values[processingMode.flag].flatMap(ProcessingModeWord.init(rawValue:)) { return mode.mode }
        return values[offlineCapable.flag] != nil ? .offlineCapable : .online
    }

    /// The SDK parameters of these options applied to `settings`.
    static func applySDK(_ values: ProviderOptionValues, to settings: inout SquarePaymentSettings) {
        settings.promptMode = values[prompt.flag].flatMap(SquarePaymentSettings.PromptMode.init(rawValue:)) ?? .default
        settings.readerSteps = values[readerSteps.flag].flatMap(SquareReader.Change.list) ?? []
        settings.processingMode = processingModeSetting(values)
        settings.delayDuration = delayDuration(values[delay.flag])
    }
}

extension SquareOptions {
    /// What the SDK options do on the sandbox, for `checkout providers`.
    static let sdkMagicValues = [
        MagicValue(
            field: "--prompt custom --reader-steps (or r, b on the screen)", value: "disconnect|connect|low-battery|charged",
            effect: "the merchant-drawn prompt's card input methods: connected tap, dip, swipe; low battery tap only; disconnected none; keyed stays unless --no-keyed-entry"),
        MagicValue(
            field: "--prompt custom --reader-steps (or x on the screen)", value: "cancel",
            effect: "didCancel before the card is read: nothing created at Square → declined PAYMENT_CANCELED, exit 1"),
        MagicValue(
            field: "--prompt custom --delay … --then cancel (or x)", value: "POST /v2/payments/cancel",
            effect: "cancelled through the payment handle by idempotency key → phase completed, status CANCELED, sdk_outcome cancelled, exit 0"),
        MagicValue(field: "--delay", value: "0", effect: "no delay_duration sent: Square's default, PT36H card-present, P7D keyed"),
        MagicValue(field: "--processing-mode", value: "offline-only", effect: "queued on this machine (QUEUED_OFFLINE) without calling Square; `checkout offline --upload` sends it"),
    ]
}

extension SquareOptions {
    /// The soak takes turns with these: the merchant-drawn prompt after the reader's changes, and
    /// a delayed payment cancelled through its handle (no money may move).
    static let sdkVariants: [ProviderVariant] = [
        ProviderVariant("custom-prompt", options: [prompt.flag: "custom", readerSteps.flag: "disconnect,connect,low-battery"], benchmarked: false),
        ProviderVariant("handle-cancel", options: [prompt.flag: "custom", delay.flag: "600", then.flag: "cancel"], benchmarked: false),
    ]
}
