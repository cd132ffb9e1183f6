import CheckoutModel
import Foundation
import PaymentFlow
import ProviderWire

/// One state transition or Afterpay phase as a transcript keeps it: the lines `checkout run`
/// printed for it, and enough of the value to show it again on the screen.
public struct RecordedEvent: Codable, Hashable, Sendable {
    /// Milliseconds since the checkout session started.
    public var atMilliseconds: Int
    /// The SDK state's name, or nil for a phase.
    public var state: String?
    public var phase: String?
    /// The line `checkout run` prints, and its `--json` line.
    public var line: String
    public var json: String
    public var request: CustomerRequest?
    public var createParams: CreateCustomerRequestParams?
    public var updateParams: UpdateCustomerRequestParams?
    public var grants: [Grant]?
    public var error: RecordedError?
    public var paymentID: String?
    public var cashtag: String?
    public var reason: String?

    public struct RecordedError: Codable, Hashable, Sendable {
        public var category: String
        public var code: String
        public var detail: String?
        public var field: String?
        /// The HTTP status of a NIL_DATA network error (a response without a body).
        public var status: Int?
    }

    enum CodingKeys: String, CodingKey {
        case atMilliseconds = "at_ms", state, phase, line, json, request
        case createParams = "create_params", updateParams = "update_params", grants, error
        case paymentID = "payment_id", cashtag, reason
    }

    init(_ event: FlowEvent, atMilliseconds: Int) {
        self.atMilliseconds = atMilliseconds
        switch event {
        case .state(let state):
            let stateLine = StateLine(state: state, atMilliseconds: atMilliseconds)
            self.state = state.name
            line = stateLine.text
            json = stateLine.json
            request = state.request
            if let error = state.error {
                self.error = RecordedError(category: error.category, code: error.code, detail: error.detail, field: error.field)
            }
            if case .networkError(.nilData(let status)) = state { self.error?.status = status }
            switch state {
            case .creatingCustomerRequest(let params): createParams = params
            case .updatingCustomerRequest(_, let params): updateParams = params
            case .approved(_, let grants): self.grants = grants
            default: break
            }
        case .phase(let phase):
            self.phase = phase.name
            line = PhaseLine.text(phase)
            json = PhaseLine.json(phase, atMilliseconds: atMilliseconds)
            switch phase {
            case .completed(let paymentID, let cashtag):
                self.paymentID = paymentID
                self.cashtag = cashtag
            case .settlementFailed(let reason): self.reason = reason
            default: break
            }
        }
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
            case "token": return .phase(.token)
            case "signing": return .phase(.signing)
            case "validating": return .phase(.validating)
            case "capturing": return .phase(.capturing)
            case "completed": return .phase(.completed(paymentID: paymentID ?? "?", cashtag: cashtag))
            case "settlementFailed": return .phase(.settlementFailed(reason: reason ?? "?"))
            default: return nil
            }
        }
        let payError = error.map { CashAppPayError(category: $0.category, code: $0.code, detail: $0.detail, field: $0.field) }
        switch state {
        case "notStarted"?: return .state(.notStarted)
        case "creatingCustomerRequest"?: return createParams.map { .state(.creatingCustomerRequest($0)) }
        case "updatingCustomerRequest"?:
            guard let request, let updateParams else { return nil }
            return .state(.updatingCustomerRequest(request: request, params: updateParams))
        case "readyToAuthorize"?: return request.map { .state(.readyToAuthorize($0)) }
        case "redirecting"?: return request.map { .state(.redirecting($0)) }
        case "polling"?: return request.map { .state(.polling($0)) }
        case "declined"?: return request.map { .state(.declined($0)) }
        case "refreshing"?: return request.map { .state(.refreshing($0)) }
        case "approved"?: return request.map { .state(.approved(request: $0, grants: grants ?? [])) }
        case "apiError"?: return payError.map { .state(.apiError($0)) }
        case "integrationError"?: return payError.map { .state(.integrationError($0)) }
        case "unexpectedError"?: return payError.map { .state(.unexpectedError($0)) }
        case "networkError"?:
            guard let error else { return nil }
            let detail = error.detail ?? ""
            switch error.code {
            case "NO_RESPONSE": return .state(.networkError(.noResponse(detail)))
            case "INVALID_JSON": return .state(.networkError(.invalidJSON(detail)))
            case "NIL_DATA": return .state(.networkError(.nilData(status: error.status ?? 0)))
            default: return .state(.networkError(.systemError(detail)))
            }
        default: return nil
        }
    }
}
