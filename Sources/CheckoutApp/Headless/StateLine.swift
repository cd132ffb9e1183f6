import CheckoutModel
import Foundation
import PaymentFlow
import TerminalUI

/// One line of `checkout run` output for a state, in text or JSON.
struct StateLine {
    let state: CheckoutState
    let atMilliseconds: Int

    /// The amount being asked for, as the state carries it.
    private var amount: String? {
        switch state {
        case .creatingRequest(let draft), .updatingRequest(_, let draft), .readyToAuthorize(let draft):
            draft.amount?.formatted
        default:
            nil
        }
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
        if case .approved(let attempt) = state {
            object["grants"] = attempt.grants
            object.removeValue(forKey: "grant")
            // An on-file payment's grants say their types (ONE_TIME, EXTENDED), in the order of `grants`.
            object.removeValue(forKey: "grant_types")
            if let types = attempt.onFileGrantTypes { object["grant_types"] = types }
        }
        return JSONLine.encode(object)
    }

    private var fields: [(String, String)] {
        var fields: [(String, String)] = []
        if let id = state.createdAttempt?.id { fields.append(("request", id)) }
        switch state {
        case .creatingRequest, .readyToAuthorize, .updatingRequest:
            if let amount { fields.append(("amount", amount)) }
        case .redirecting(let attempt):
            if let url = attempt.authorizationURL { fields.append(("url", url)) }
        case .approved(let attempt):
            fields.append(("grant", attempt.grants.joined(separator: ",")))
            if let types = attempt.onFileGrantTypes { fields.append(("grant_types", types.joined(separator: ","))) }
            if let payer = attempt.payer { fields.append(("cashtag", payer)) }
        case .declined(let attempt):
            if let reason = attempt.declineReason { fields.append(("reason", reason)) }
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
        if let line = JSONLineWriter.encode(object) { return escapingUnsafeScalars(line) }
        return serialized(object)
    }

    /// JSONSerialization's line, for values JSONLineWriter does not write.
    static func serialized(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]),
            let line = String(data: data, encoding: .utf8)
        else { return "{}" }
        return escapingUnsafeScalars(line)
    }

    /// JSONSerialization leaves DEL, the C1 controls and the bidirectional formatting characters
    /// (a provider's text may hold them) as they are, and Console would then print them raw:
    /// `\u0085` or `\u202E` is JSON for the same text and harmless on a terminal. They can only be
    /// inside strings (JSONSerialization escaped C0 already), so this is always valid.
    static func escapingUnsafeScalars(_ line: String) -> String {
        guard line.unicodeScalars.contains(where: { $0.value >= 0x7F && DisplaySafety.isUnsafe($0) }) else { return line }
        var escaped = ""
        for scalar in line.unicodeScalars {
            if scalar.value >= 0x7F, DisplaySafety.isUnsafe(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                escaped += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
            } else {
                escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped
    }
}

/// `phase: capturing` lines (and their JSON) for providers' steps around the SDK states.
enum PhaseLine {
    static func text(_ phase: CheckoutPhase) -> String {
        switch phase {
        case .completed(let settled):
            "phase: completed payment=\(settled.paymentID)" + (settled.payer.map { " cashtag=\($0)" } ?? "") + detailsText(phase.details)
        case .settlementFailed(let failure):
            "phase: settlementFailed reason=\"\(failure.reason.replacingOccurrences(of: "\"", with: "\\\""))\"" + detailsText(phase.details)
        default:
            "phase: \(phase.name)"
        }
    }

    /// A provider's receipt facts as ` key=value` pairs, in key order.
    static func detailsText(_ details: [String: String]) -> String {
        details.sorted { $0.key < $1.key }.map { key, value in
            " \(key)=" + (value.contains(" ") ? "\"\(value.replacingOccurrences(of: "\"", with: "\\\""))\"" : value)
        }.joined()
    }

    static func json(_ phase: CheckoutPhase, atMilliseconds: Int) -> String {
        var object: [String: Any] = ["phase": phase.name, "at_ms": atMilliseconds]
        switch phase {
        case .completed(let settled):
            object["payment_id"] = settled.paymentID
            if let payer = settled.payer { object["cashtag"] = payer }
        case .settlementFailed(let failure):
            object["reason"] = failure.reason
            object["declined"] = failure.declined
        default:
            break
        }
        object.merge(phase.details) { current, _ in current }
        return JSONLine.encode(object)
    }
}

/// `event: webhook AUTHORISATION … signature ✓` lines (and their JSON) for providers' notices.
enum NoticeLine {
    static func text(_ notice: ProviderNotice) -> String {
        "event: " + TerminalText.escapingControls(notice.summary)
    }

    static func json(_ notice: ProviderNotice, atMilliseconds: Int) -> String {
        var object: [String: Any] = ["event": notice.name, "provider": notice.provider, "at_ms": atMilliseconds]
        if let parameters = notice.parameters { object["parameters"] = parameters }
        for (key, value) in notice.fields where object[key] == nil {
            switch value {
            case "true": object[key] = true
            case "false": object[key] = false
            default: object[key] = value
            }
        }
        for (key, list) in notice.lists where object[key] == nil { object[key] = list }
        return JSONLine.encode(object)
    }
}
