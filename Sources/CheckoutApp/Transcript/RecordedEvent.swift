import CheckoutModel
import Foundation
import PaymentFlow

/// One state transition or phase as a transcript keeps it: the lines `checkout run` printed
/// for it, and enough of the value to show it again on the screen.
public struct RecordedEvent: Codable, Hashable, Sendable {
    /// Milliseconds since the checkout session started.
    public var atMilliseconds: Int
    /// The SDK state's name, or nil for a phase.
    public var state: String?
    public var phase: String?
    /// The line `checkout run` prints, and its `--json` line.
    public var line: String
    public var json: String
    /// The provider-neutral attempt the state carries.
    public var attempt: PaymentAttempt?
    /// While updating: what the attempt is being changed to.
    public var updatingTo: PaymentAttempt?
    public var error: ProviderFailure?
    public var paymentID: String?
    public var cashtag: String?
    public var reason: String?
    /// A settlement the provider declined (exit 1), rather than one that broke.
    public var declined: Bool?
    /// A provider's receipt facts (Adyen: psp_reference, result_code, …).
    public var details: [String: String]?
    /// A provider's notice (a webhook's event code): printed and kept, not compared or replayed.
    public var notice: String?
    /// A line a provider's SDK logged (`notice` is `sdk_log`): kept so the screen's replay shows it
    /// in the event list; never compared.
    public var sdkLog: RecordedSDKLog?

    enum CodingKeys: String, CodingKey {
        case atMilliseconds = "at_ms", state, phase, line, json, attempt, updatingTo = "updating_to", error
        case paymentID = "payment_id", cashtag, reason, declined, details, notice, sdkLog = "sdk_log"
    }

    init(_ event: FlowEvent, atMilliseconds: Int) {
        self.atMilliseconds = atMilliseconds
        switch event {
        case .state(let state):
            let stateLine = StateLine(state: state, atMilliseconds: atMilliseconds)
            self.state = state.name
            line = stateLine.text
            json = stateLine.json
            attempt = state.attempt
            error = state.error
            if case .updatingRequest(_, let draft) = state { updatingTo = draft }
        case .phase(let phase):
            self.phase = phase.name
            details = phase.details.isEmpty ? nil : phase.details
            line = PhaseLine.text(phase)
            json = PhaseLine.json(phase, atMilliseconds: atMilliseconds)
            switch phase {
            case .completed(let settled):
                paymentID = settled.paymentID
                cashtag = settled.payer
            case .settlementFailed(let failure):
                reason = failure.reason
                declined = failure.declined
            case .step:
                break
            }
        case .notice(let notice):
            self.notice = notice.name
            if notice.isSDKLog {
                sdkLog = RecordedSDKLog(provider: notice.provider, name: notice.fields["name"] ?? "", parameters: notice.parameters ?? [:])
            }
            line = NoticeLine.text(notice)
            json = NoticeLine.json(notice, atMilliseconds: atMilliseconds)
        }
    }

    /// The SDK's log line again, for the screen's replay (made safe again: the file may be anyone's).
    var sdkLogNotice: ProviderNotice? {
        guard notice == ProviderNotice.sdkLogEvent, let sdkLog else { return nil }
        return .sdkLog(provider: sdkLog.provider, SDKLogLine(name: sdkLog.name, parameters: sdkLog.parameters))
    }

    /// What `run --replay` compares: the state or phase, and an error's code.
    public var signature: String {
        if let phase { return "phase: \(phase)" }
        return "state: \(state ?? "?")" + (error.map { " \($0.code)" } ?? "")
    }

    /// The state or phase again, for replaying it on the screen; nil when the record lacks
    /// what the state needs.
    var flowEvent: FlowEvent? {
        if let phase {
            switch phase {
            case "completed": return .phase(.completed(SettlementReceipt(paymentID: paymentID ?? "?", payer: cashtag, details: details ?? [:])))
            case "settlementFailed":
                return .phase(.settlementFailed(SettlementFailure(declined: declined ?? false, reason: reason ?? "?", details: details ?? [:])))
            default: return .phase(.step(phase))
            }
        }
        switch state {
        case "notStarted"?: return .state(.notStarted)
        case "creatingCustomerRequest"?: return attempt.map { .state(.creatingRequest($0)) }
        case "updatingCustomerRequest"?:
            guard let attempt, let updatingTo else { return nil }
            return .state(.updatingRequest(attempt, to: updatingTo))
        case "readyToAuthorize"?: return attempt.map { .state(.readyToAuthorize($0)) }
        case "redirecting"?: return attempt.map { .state(.redirecting($0)) }
        case "polling"?: return attempt.map { .state(.polling($0)) }
        case "declined"?: return attempt.map { .state(.declined($0)) }
        case "refreshing"?: return attempt.map { .state(.refreshing($0)) }
        case "approved"?: return attempt.map { .state(.approved($0)) }
        case "apiError"?, "integrationError"?, "networkError"?, "unexpectedError"?:
            guard let error else { return nil }
            let failed = CheckoutState.failed(error)
            return failed.name == state ? .state(failed) : nil
        default: return nil
        }
    }
}

/// An SDK's log line as a transcript keeps it.
public struct RecordedSDKLog: Codable, Hashable, Sendable {
    public var provider: String
    public var name: String
    public var parameters: [String: String]
}
