import ProviderClients
import ProviderWire

extension ProviderFailure {
    /// Antom's results in the 13 states: its documented `F` codes are the integration's to fix,
    /// `UNKNOWN_EXCEPTION` and `PROCESS_FAIL` are Antom's own trouble, a rate limit is the
    /// integration's (as PayKit says), an answer that does not verify is never believed.
    public init(antom failure: AntomFailure) {
        switch failure {
        case .result(let result):
            self.init(
                kind: Self.kind(ofAntomResult: result), category: "ANTOM_\(result.resultStatus)", code: result.resultCode,
                detail: result.resultMessage, httpStatus: 200)
        case .unverified(let status, let detail):
            self.init(kind: .integration, category: "ANTOM_SIGNATURE", code: "RESPONSE_NOT_VERIFIED", detail: detail, httpStatus: status)
        case .http(let status, let body):
            self.init(
                kind: status >= 500 || status == 429 ? .api : .integration, category: "ANTOM_HTTP", code: "HTTP_\(status)",
                detail: body.isEmpty ? "Antom answers every result with HTTP 200; check --antom-url" : body, httpStatus: status)
        case .transport(let transport):
            self = .transport(transport)
        case .undecodable(let status, let detail):
            self = .undecodable(status: status, detail: detail)
        }
    }

    static func kind(ofAntomResult result: AntomResult) -> Kind {
        switch result.resultCode {
        case "UNKNOWN_EXCEPTION", "PROCESS_FAIL": .api
        case "ACCESS_DENIED", "INVALID_SIGNATURE", "KEY_NOT_FOUND", "INVALID_CLIENT", "PARAM_ILLEGAL", "REPEAT_REQ_INCONSISTENT",
            "ORDER_IS_CLOSED", "CURRENCY_NOT_SUPPORT", "ORDER_NOT_EXIST", "REQUEST_TRAFFIC_EXCEED_LIMIT", "INVALID_API":
            .integration
        default: result.resultStatus == "U" ? .api : .unexpected
        }
    }

    /// The customer paid at the bank, but Antom's notification and its inquiry say different things.
    static func antomDisagreement(notified: String, inquired: String, request: String) -> ProviderFailure {
        ProviderFailure(
            kind: .unexpected, category: "ANTOM_RECONCILIATION", code: "NOTIFY_INQUIRY_MISMATCH",
            detail: "for \(request) the notification says \(notified) but inquiryPayment says \(inquired); nothing is shipped until they agree")
    }
}
