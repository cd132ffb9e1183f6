import CheckoutModel
import Foundation
import ProviderWire

/// Reads a create body of the plain shape clients send, without JSONDecoder: under load,
/// JSONDecoder was the largest single cost of a create (P4). Anything else (escapes, unknown
/// or repeated keys, fractions, negative numbers, a null where a value is required, trailing
/// bytes) gives nil, and JSONDecoder decides, errors and all. Tests and the CashAppWire fuzz
/// target check that whatever this reads, JSONDecoder reads the same.
enum CreateBodyFastReader {
    static func read(_ data: Data) -> CreateCustomerRequestBody? {
        data.withUnsafeBytes { raw in
            var reader = PlainJSONReader(bytes: raw.bindMemory(to: UInt8.self))
            return reader.createBody()
        }
    }
}

/// A create body's shape, read with the plain reader's pieces.
extension PlainJSONReader {
    fileprivate mutating func createBody() -> CreateCustomerRequestBody? {
        var idempotencyKey: String?
        var request: CreateCustomerRequestParams?
        let read = object { name, reader in
            switch name {
            case "idempotency_key": idempotencyKey = reader.string()
            case "request": request = reader.params()
            default: return false
            }
            return name == "request" ? request != nil : idempotencyKey != nil
        }
        guard read, atEnd, let idempotencyKey, let request else { return nil }
        return CreateCustomerRequestBody(idempotencyKey: idempotencyKey, request: request)
    }

    private mutating func params() -> CreateCustomerRequestParams? {
        var actions: [PaymentAction]?
        var channel: CustomerRequest.Channel?
        var redirectURL: String?
        var referenceID: String?
        var metadata: [String: String]?
        let read = object { name, reader in
            switch name {
            case "actions":
                actions = reader.array { $0.action() }
                return actions != nil
            case "channel":
                channel = reader.string().flatMap(CustomerRequest.Channel.init(rawValue:))
                return channel != nil
            case "redirect_url":
                redirectURL = reader.string()
                return redirectURL != nil
            case "reference_id": return reader.optional(&referenceID) { $0.string() }
            case "metadata": return reader.optional(&metadata) { $0.stringMap() }
            default: return false
            }
        }
        guard read, let actions, let channel, let redirectURL else { return nil }
        return CreateCustomerRequestParams(
            actions: actions, channel: channel, redirectURL: redirectURL, referenceID: referenceID, metadata: metadata)
    }

    private mutating func action() -> PaymentAction? {
        var type: PaymentAction.ActionType?
        var scopeID: String?
        var amount: Int?
        var currency: String?
        var accountReferenceID: String?
        let read = object { name, reader in
            switch name {
            case "type":
                type = reader.string().flatMap(PaymentAction.ActionType.init(rawValue:))
                return type != nil
            case "scope_id":
                scopeID = reader.string()
                return scopeID != nil
            case "amount": return reader.optional(&amount) { $0.integer() }
            case "currency": return reader.optional(&currency) { $0.string() }
            case "account_reference_id": return reader.optional(&accountReferenceID) { $0.string() }
            default: return false
            }
        }
        guard read, let type, let scopeID else { return nil }
        return PaymentAction(type: type, scopeID: scopeID, amount: amount, currency: currency, accountReferenceID: accountReferenceID)
    }

    private mutating func stringMap() -> [String: String]? {
        var map: [String: String] = [:]
        let read = object { name, reader in
            guard let value = reader.string() else { return false }
            map[name] = value
            return true
        }
        return read ? map : nil
    }
}
