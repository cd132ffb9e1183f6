import Foundation
import ProviderWire

/// Checks Customer Request API input the way the real API does, with the real error shape.
enum CustomerRequestValidation {
    static let maxReferenceIDLength = 1024
    static let maxActions = 10

    /// The client id from `Authorization: Client <id>`, if it is one the sandbox accepts.
    static func authenticate(_ authorization: String?) throws(CashAppRejection) -> String {
        let parts = (authorization ?? "").split(separator: " ", maxSplits: 1).map(String.init)
        guard parts.count == 2, parts[0] == "Client",
            SandboxMagic.clientIDPrefixes.contains(where: { parts[1].hasPrefix($0) })
        else {
            throw CashAppRejection(
                .unauthorized, "AUTHENTICATION_ERROR", "UNAUTHORIZED",
                "Send `Authorization: Client <client id>` with a sandbox client id (CAS-CI_… or CA-CI_…).")
        }
        return parts[1]
    }

    static func decodeCreate(_ data: Data) throws(CashAppRejection) -> CreateCustomerRequestBody {
        let body: CreateCustomerRequestBody = try decode(data)
        guard !body.idempotencyKey.isEmpty else {
            throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_EMPTY", "idempotency_key is empty.", field: "idempotency_key")
        }
        guard body.idempotencyKey.count <= 64 else {
            throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_TOO_LONG", "idempotency_key is over 64 characters.", field: "idempotency_key")
        }
        try check(actions: body.request.actions, field: "request.actions")
        try check(redirectURL: body.request.redirectURL)
        try check(referenceID: body.request.referenceID)
        return body
    }

    static func decodeUpdate(_ data: Data) throws(CashAppRejection) -> UpdateCustomerRequestParams {
        let body: UpdateCustomerRequestBody = try decode(data)
        if let actions = body.request.actions { try check(actions: actions, field: "request.actions") }
        try check(referenceID: body.request.referenceID)
        return body.request
    }

    /// Scope ids the sandbox knows: any BRAND_… (but the magic missing one) or merchant id.
    static func checkScopes(_ actions: [PaymentAction]) throws(CashAppRejection) {
        for (index, action) in actions.enumerated() {
            let field = "request.actions[\(index)].scope_id"
            if action.scopeID == SandboxMagic.missingBrandScope || !(action.scopeID.hasPrefix("BRAND_") || action.scopeID.hasPrefix("MMI_")) {
                throw CashAppRejection(.notFound, "BRAND_ERROR", "BRAND_NOT_FOUND", "No brand or merchant \(action.scopeID).", field: field)
            }
        }
    }

    static func isMagicServerError(_ actions: [PaymentAction]) -> Bool {
        actions.contains { $0.amount == SandboxMagic.internalServerErrorAmount }
    }

    private static func decode<Body: Decodable>(_ data: Data) throws(CashAppRejection) -> Body {
        do { return try CashAppJSON.decoder().decode(Body.self, from: data) } catch let error as DecodingError {
            switch error {
            case .keyNotFound(let key, let context):
                throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_EMPTY", "A required field is missing.", field: path(context.codingPath + [key]))
            case .valueNotFound(_, let context):
                throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_EMPTY", "A required field is null.", field: path(context.codingPath))
            case .typeMismatch(let type, let context):
                throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_REGEX_MISMATCH", "Expected \(type).", field: path(context.codingPath))
            case .dataCorrupted(let context) where !context.codingPath.isEmpty:
                throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_REGEX_MISMATCH", "The value is not one the API accepts.", field: path(context.codingPath))
            default:
                throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_REGEX_MISMATCH", "The body is not valid JSON.")
            }
        } catch {
            throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_REGEX_MISMATCH", "The body is not valid JSON.")
        }
    }

    private static func path(_ keys: [any CodingKey]) -> String {
        keys.reduce(into: "") { text, key in
            if let index = key.intValue { text += "[\(index)]" } else { text += text.isEmpty ? key.stringValue : ".\(key.stringValue)" }
        }
    }

    private static func check(actions: [PaymentAction], field: String) throws(CashAppRejection) {
        guard !actions.isEmpty else {
            throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "ARRAY_LENGTH_TOO_SHORT", "At least one action is required.", field: field)
        }
        guard actions.count <= maxActions else {
            throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "ARRAY_LENGTH_TOO_LONG", "At most \(maxActions) actions are allowed.", field: field)
        }
        for (index, action) in actions.enumerated() {
            let prefix = "\(field)[\(index)]"
            guard !action.scopeID.isEmpty else {
                throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_EMPTY", "scope_id is required.", field: "\(prefix).scope_id")
            }
            guard action.type == .ONE_TIME_PAYMENT else { continue }
            guard let amount = action.amount else {
                throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_EMPTY", "A one-time payment needs an amount.", field: "\(prefix).amount")
            }
            guard amount > 0 else {
                throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_TOO_LOW", "amount must be greater than 0.", field: "\(prefix).amount")
            }
            guard action.currency == "USD" else {
                throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_REGEX_MISMATCH", "currency must be USD.", field: "\(prefix).currency")
            }
        }
    }

    private static func check(redirectURL: String) throws(CashAppRejection) {
        let field = "request.redirect_url"
        guard let components = URLComponents(string: redirectURL), let scheme = components.scheme?.lowercased(),
            !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+.-".contains($0) }),
            !(["http", "https"].contains(scheme) && (components.host ?? "").isEmpty),
            redirectURL.count > scheme.count + 1
        else {
            throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "INVALID_URL", "redirect_url must be an absolute URL.", field: field)
        }
    }

    private static func check(referenceID: String?) throws(CashAppRejection) {
        guard let referenceID, referenceID.count > maxReferenceIDLength else { return }
        throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_TOO_LONG", "reference_id is over \(maxReferenceIDLength) characters.", field: "request.reference_id")
    }
}
