import Foundation
import ProviderWire

/// Checks Customer Request API input the way the real API does, with the real error shape.
enum CustomerRequestValidation {
    static let maxReferenceIDLength = 1024
    /// "Min number of items: `1`, Max number of items: `5`" (the Customer Request API reference).
    static let maxActions = 5
    static let maxAmount = SandboxLimits.maxAmountMinorUnits
    static let maxScopeIDLength = 128
    static let maxRedirectURLLength = 2048
    /// Metadata bounds: "Max keys: `50`" is the API reference's; the key and value lengths are
    /// unconfirmed for Cash App (the usual payment-API limits).
    static let maxMetadataEntries = 50
    static let maxMetadataKeyLength = 40
    static let maxMetadataValueLength = 1024

    /// The client id from `Authorization: Client <id>`, if it is one the sandbox accepts.
    static func authenticate(_ authorization: String?) throws(CashAppRejection) -> String {
        // The scheme matched as bytes: splitting the header as a String breaks it into graphemes
        // first, which cost more than the rest of a retrieve's checks.
        let scheme = "Client ".utf8
        guard let authorization, authorization.utf8.starts(with: scheme), let clientID = String(authorization.utf8.dropFirst(scheme.count)),
            SandboxMagic.clientIDPrefixes.contains(where: { clientID.hasPrefix($0) })
        else {
            throw CashAppRejection(
                .unauthorized, "AUTHENTICATION_ERROR", "UNAUTHORIZED",
                "Send `Authorization: Client <client id>` with a sandbox client id (CAS-CI_… or CA-CI_…).")
        }
        return clientID
    }

    static func decodeCreate(_ data: Data) throws(CashAppRejection) -> CreateCustomerRequestBody {
        let body: CreateCustomerRequestBody
        if let plain = CreateBodyFastReader.read(data) { body = plain } else { body = try decode(data) }
        guard !body.idempotencyKey.isEmpty else {
            throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_EMPTY", "idempotency_key is empty.", field: "idempotency_key")
        }
        // Counted in characters only when it could be over (counting breaks it into graphemes).
        guard body.idempotencyKey.utf8.count <= 64 || body.idempotencyKey.count <= 64 else {
            throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_TOO_LONG", "idempotency_key is over 64 characters.", field: "idempotency_key")
        }
        try check(actions: body.request.actions, field: "request.actions")
        try check(redirectURL: body.request.redirectURL)
        try check(referenceID: body.request.referenceID)
        try check(metadata: body.request.metadata)
        return body
    }

    static func decodeUpdate(_ data: Data) throws(CashAppRejection) -> UpdateCustomerRequestParams {
        let body: UpdateCustomerRequestBody = try decode(data)
        if let actions = body.request.actions { try check(actions: actions, field: "request.actions") }
        try check(referenceID: body.request.referenceID)
        try check(metadata: body.request.metadata)
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
            guard action.scopeID.count <= maxScopeIDLength else {
                throw tooLong("scope_id", maxScopeIDLength, field: "\(prefix).scope_id")
            }
            if let reference = action.accountReferenceID, reference.count > maxReferenceIDLength {
                throw tooLong("account_reference_id", maxReferenceIDLength, field: "\(prefix).account_reference_id")
            }
            guard action.type == .ONE_TIME_PAYMENT else { continue }
            // "If no amount is provided to the action, the payment charged may be any amount. If
            // `amount` is provided, `currency` must be provided too (and vice versa)."
            guard let amount = action.amount else {
                guard action.currency == nil else {
                    throw CashAppRejection(
                        .badRequest, "INVALID_REQUEST_ERROR", "VALUE_EMPTY", "A one-time payment with a currency needs an amount.", field: "\(prefix).amount")
                }
                continue
            }
            guard action.currency != nil else {
                throw CashAppRejection(
                    .badRequest, "INVALID_REQUEST_ERROR", "VALUE_EMPTY", "A one-time payment with an amount needs a currency.", field: "\(prefix).currency")
            }
            guard amount > 0 else {
                throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_TOO_LOW", "amount must be greater than 0.", field: "\(prefix).amount")
            }
            guard amount <= maxAmount else {
                throw CashAppRejection(
                    .badRequest, "INVALID_REQUEST_ERROR", "VALUE_TOO_HIGH",
                    "amount \(amount) is over the most this sandbox accepts: amounts are 1 to \(maxAmount) minor units.",
                    field: "\(prefix).amount")
            }
            guard action.currency == "USD" else {
                throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_REGEX_MISMATCH", "currency must be USD.", field: "\(prefix).currency")
            }
        }
    }

    private static func check(redirectURL: String) throws(CashAppRejection) {
        let field = "request.redirect_url"
        guard redirectURL.count <= maxRedirectURLLength else { throw tooLong("redirect_url", maxRedirectURLLength, field: field) }
        guard isPlainAbsoluteURL(redirectURL) || isAbsoluteURL(redirectURL) else {
            throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "INVALID_URL", "redirect_url must be an absolute URL.", field: field)
        }
    }

    /// A scheme of its own characters and something after it; a web URL also needs a host.
    static func isAbsoluteURL(_ text: String) -> Bool {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+.-".contains($0) }),
            !(["http", "https"].contains(scheme) && (components.host ?? "").isEmpty)
        else { return false }
        return text.count > scheme.count + 1
    }

    /// `scheme://host` with an optional plain path, all lower-case letters, digits and a few
    /// marks: absolute by any reading, so the full parse (`isAbsoluteURL`, a sixth of a
    /// create's own checks) is only for the rest.
    static func isPlainAbsoluteURL(_ text: String) -> Bool {
        var bytes = text.utf8[...]
        func isLower(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z") }
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        guard let first = bytes.first, isLower(first) else { return false }
        let scheme = bytes.prefix { isLower($0) || isDigit($0) || $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
        bytes = bytes[scheme.endIndex...]
        guard bytes.starts(with: "://".utf8) else { return false }
        bytes = bytes.dropFirst(3)
        let host = bytes.prefix { isLower($0) || isDigit($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
        guard !host.isEmpty else { return false }
        let path = bytes[host.endIndex...]
        guard let slash = path.first else { return true }
        return slash == UInt8(ascii: "/") && path.allSatisfy {
            isLower($0) || isDigit($0) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) || "/._~-".utf8.contains($0)
        }
    }

    private static func check(metadata: [String: String]?) throws(CashAppRejection) {
        guard let metadata else { return }
        guard metadata.count <= maxMetadataEntries else {
            throw CashAppRejection(
                .badRequest, "INVALID_REQUEST_ERROR", "ARRAY_LENGTH_TOO_LONG",
                "metadata has \(metadata.count) entries; at most \(maxMetadataEntries) are allowed.", field: "request.metadata")
        }
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) {
            guard !key.isEmpty else {
                throw CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_EMPTY", "A metadata key is empty.", field: "request.metadata")
            }
            guard key.count <= maxMetadataKeyLength else { throw tooLong("A metadata key", maxMetadataKeyLength, field: "request.metadata") }
            guard value.count <= maxMetadataValueLength else {
                throw tooLong("metadata value \(key)", maxMetadataValueLength, field: "request.metadata.\(key)")
            }
        }
    }

    private static func tooLong(_ what: String, _ limit: Int, field: String) -> CashAppRejection {
        CashAppRejection(.badRequest, "INVALID_REQUEST_ERROR", "VALUE_TOO_LONG", "\(what) is over \(limit) characters.", field: field)
    }

    private static func check(referenceID: String?) throws(CashAppRejection) {
        guard let referenceID, referenceID.count > maxReferenceIDLength else { return }
        throw tooLong("reference_id", maxReferenceIDLength, field: "request.reference_id")
    }
}
