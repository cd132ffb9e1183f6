import CheckoutModel
import Foundation
import PaymentFlow
import ProviderWire

/// One line of `checkout run` output for a state, in text or JSON.
struct StateLine {
    let state: CashAppPayState
    let atMilliseconds: Int

    /// The amount being asked for, as the state carries it.
    private var amount: String? {
        let minorUnits: Int
        let code: String
        switch state {
        case .creatingCustomerRequest(let params):
            guard let action = params.actions.first, let amount = action.amount, let currency = action.currency else { return nil }
            (minorUnits, code) = (amount, currency)
        case .updatingCustomerRequest(_, let params):
            guard let action = params.actions?.first, let amount = action.amount, let currency = action.currency else { return nil }
            (minorUnits, code) = (amount, currency)
        case .readyToAuthorize(let request):
            guard let amount = request.oneTimeAmount else { return nil }
            (minorUnits, code) = amount
        default:
            return nil
        }
        return Money(minorUnits: minorUnits, currency: Currency.withCode(code) ?? .usd).formatted
    }

    /// `state: readyToAuthorize request=GRR_… amount=$45.05`
    var text: String {
        var parts = ["state: \(state.name)"]
        for (key, value) in fields { parts.append("\(key)=\(Self.quoteIfNeeded(value))") }
        return parts.joined(separator: " ")
    }

    /// `{"at_ms": 12, "state": "readyToAuthorize", "request_id": "GRR_…", …}`
    var json: String {
        var object: [String: Any] = ["state": state.name, "at_ms": atMilliseconds]
        for (key, value) in fields { object[key == "request" ? "request_id" : key] = value }
        if let error = state.error {
            object["error"] = ["category": error.category, "code": error.code, "detail": error.detail as Any? ?? NSNull(), "field": error.field as Any? ?? NSNull()] as [String: Any]
            for key in ["category", "code", "detail", "field"] { object.removeValue(forKey: key) }
        }
        if case .approved(_, let grants) = state { object["grants"] = grants.map(\.id); object.removeValue(forKey: "grant") }
        return JSONLine.encode(object)
    }

    private var fields: [(String, String)] {
        var fields: [(String, String)] = []
        if let request = state.request { fields.append(("request", request.id)) }
        switch state {
        case .creatingCustomerRequest, .readyToAuthorize, .updatingCustomerRequest:
            if let amount { fields.append(("amount", amount)) }
        case .redirecting(let request):
            if let url = request.authFlowTriggers?.mobileURL { fields.append(("url", url)) }
        case .approved(let request, let grants):
            fields.append(("grant", grants.map(\.id).joined(separator: ",")))
            if let cashtag = request.customerProfile?.cashtag { fields.append(("cashtag", cashtag)) }
        default:
            break
        }
        if let error = state.error {
            fields.append(("category", error.category))
            fields.append(("code", error.code))
            if let field = error.field { fields.append(("field", field)) }
            if let detail = error.detail { fields.append(("detail", detail)) }
        }
        return fields
    }

    private static func quoteIfNeeded(_ value: String) -> String {
        value.contains(where: \.isWhitespace) || value.contains("\"")
            ? "\"" + value.replacingOccurrences(of: "\"", with: "\\\"") + "\"" : value
    }
}

/// JSON objects as single sorted-key lines, so output is stable from run to run.
enum JSONLine {
    static func encode(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
            let line = String(data: data, encoding: .utf8)
        else { return "{}" }
        return line
    }
}

/// `phase: capturing` lines (and their JSON) for Afterpay's steps around the SDK states.
enum PhaseLine {
    static func text(_ phase: CheckoutPhase) -> String {
        switch phase {
        case .completed(let paymentID, let cashtag):
            "phase: completed payment=\(paymentID)" + (cashtag.map { " cashtag=\($0)" } ?? "")
        case .settlementFailed(let reason):
            "phase: settlementFailed reason=\"\(reason.replacingOccurrences(of: "\"", with: "\\\""))\""
        default:
            "phase: \(phase.name)"
        }
    }

    static func json(_ phase: CheckoutPhase, atMilliseconds: Int) -> String {
        var object: [String: Any] = ["phase": phase.name, "at_ms": atMilliseconds]
        switch phase {
        case .completed(let paymentID, let cashtag):
            object["payment_id"] = paymentID
            if let cashtag { object["cashtag"] = cashtag }
        case .settlementFailed(let reason):
            object["reason"] = reason
        default:
            break
        }
        return JSONLine.encode(object)
    }
}
