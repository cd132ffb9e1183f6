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

/// A cursor over JSON bytes that understands only what `CreateBodyFastReader` accepts.
private struct PlainJSONReader {
    /// More keys than this in one object is not the plain shape (and keeps the repeat check small).
    static let maxKeys = 32
    static let maxElements = 64

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    mutating func createBody() -> CreateCustomerRequestBody? {
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
        skipSpace()
        guard read, index == bytes.count, let idempotencyKey, let request else { return nil }
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

    // MARK: - JSON pieces

    /// `{ "name": value, … }`, each value read by `field`; false when any key repeats or `field` says no.
    private mutating func object(_ field: (String, inout PlainJSONReader) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        var names: [String] = []
        repeat {
            guard names.count < Self.maxKeys, let name = string(), !names.contains(name), take(UInt8(ascii: ":")) else { return false }
            names.append(name)
            guard field(name, &self) else { return false }
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    private mutating func array<Element>(_ element: (inout PlainJSONReader) -> Element?) -> [Element]? {
        guard take(UInt8(ascii: "[")) else { return nil }
        var elements: [Element] = []
        if take(UInt8(ascii: "]")) { return elements }
        repeat {
            guard elements.count < Self.maxElements, let next = element(&self) else { return nil }
            elements.append(next)
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "]")) ? elements : nil
    }

    /// `null` leaves `value` nil, as JSONDecoder's decodeIfPresent does; false when neither reads.
    private mutating func optional<Value>(_ value: inout Value?, _ read: (inout PlainJSONReader) -> Value?) -> Bool {
        if literal("null") {
            value = nil
            return true
        }
        value = read(&self)
        return value != nil
    }

    /// A string with no escapes and no control characters, in valid UTF-8.
    private mutating func string() -> String? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let start = index
        index = ByteScan.firstJSONEscape(in: bytes, from: start, slash: false)
        guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { return nil }
        defer { index += 1 }
        let text = UnsafeBufferPointer(rebasing: bytes[start..<index])
        // ASCII needs no validating (the standard library's validating initializer is generic, unspecialized).
        return ByteScan.isASCII(text) ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
    }

    /// A non-negative integer without fraction or exponent, of at most 18 digits (so it never overflows).
    private mutating func integer() -> Int? {
        skipSpace()
        let start = index
        var value = 0
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
            guard index - start < 18 else { return nil }
            value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        let digits = index - start
        guard digits > 0, digits == 1 || bytes[start] != UInt8(ascii: "0") else { return nil }
        if index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"): return nil
            default: break
            }
        }
        return value
    }

    private mutating func literal(_ word: StaticString) -> Bool {
        skipSpace()
        let count = word.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        index += count
        return true
    }

    /// Skips whitespace, then takes `byte` if it is next.
    private mutating func take(_ byte: UInt8) -> Bool {
        skipSpace()
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    private mutating func skipSpace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }
}
