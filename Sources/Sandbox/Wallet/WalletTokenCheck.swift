import CheckoutModel
import Foundation
import ProviderWire

/// A token request the sandbox refuses: 400 with the field at fault and, where the field takes
/// a fixed set of values, those values.
struct WalletTokenRejection: Error {
    let body: WalletErrorBody

    init(_ field: String?, _ error: String, allowed: [String]? = nil) {
        body = WalletErrorBody(error: error, field: field, allowed: allowed)
    }
}

/// Checks every field of `POST /wallet/tokens`, as PassKit would refuse a payment request it
/// cannot show: the merchant id, a network it knows, four digits, an amount in minor units, a
/// currency the shop prices in, and an optional hex transaction id.
enum WalletTokenCheck {
    static let fields = ["merchantIdentifier", "network", "last4", "amount", "currency", "transactionIdentifier", "countryCode", "merchantCapabilities"]
    static let maxMerchantIdentifierLength = 128
    static let transactionIDLength = 16...64
    static let maxDepth = 16

    /// The request, its transaction id lowercased (nil when left out: the route makes one).
    static func validate(_ data: Data) throws(WalletTokenRejection) -> WalletTokenRequest {
        guard JSONValue.depth(of: data) <= maxDepth, case .object(let body)? = try? JSONDecoder().decode(JSONValue.self, from: data) else {
            throw WalletTokenRejection(nil, "the body must be a JSON object with \(fields.joined(separator: ", "))", allowed: fields)
        }
        if let unknown = body.keys.sorted().first(where: { !fields.contains($0) }) {
            throw WalletTokenRejection(String(unknown.prefix(64)), "\(unknown.prefix(64)) is not a field of a token request", allowed: fields)
        }
        let merchant = try string(body, "merchantIdentifier")
        guard merchant.hasPrefix("merchant."), merchant.count > "merchant.".count, merchant.utf8.count <= maxMerchantIdentifierLength,
            merchant.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || ".-_".unicodeScalars.contains($0)) })
        else {
            throw WalletTokenRejection(
                "merchantIdentifier",
                "merchantIdentifier must be an Apple Pay merchant id such as \"merchant.com.example.shop\" (letters, digits, '.', '-', '_'; at most \(maxMerchantIdentifierLength) characters)")
        }
        let networks = WalletNetwork.allCases.map(\.rawValue)
        let network = try string(body, "network", allowed: networks)
        guard WalletNetwork(rawValue: network) != nil else {
            throw WalletTokenRejection(
                "network", "network \"\(network.prefix(32))\" is not one this sandbox issues tokens for; use one of \(WalletNetwork.allowedList)",
                allowed: networks)
        }
        let last4 = try string(body, "last4")
        guard isLast4(last4) else { throw WalletTokenRejection("last4", "last4 must be the card's last four digits, e.g. \"1234\" (\"\(WalletMagic.declinedLast4)\" is declined)") }
        guard case .integer(let amount)? = body["amount"], (1...Int64(SandboxLimits.maxAmountMinorUnits)).contains(amount) else {
            throw WalletTokenRejection("amount", "amount must be a whole number of minor units from 1 to \(SandboxLimits.maxAmountMinorUnits), e.g. 4505 for 45.05")
        }
        let codes = Currency.known.map(\.code)
        let currency = try string(body, "currency", allowed: codes)
        guard codes.contains(currency) else {
            throw WalletTokenRejection("currency", "currency \"\(currency.prefix(8))\" is not one the shop prices in; use one of \(codes.joined(separator: ", "))", allowed: codes)
        }
        var transactionID: String?
        if body["transactionIdentifier"] != nil, body["transactionIdentifier"] != .null {
            let given = try string(body, "transactionIdentifier")
            guard isTransactionID(given.lowercased()) else {
                throw WalletTokenRejection(
                    "transactionIdentifier",
                    "transactionIdentifier must be \(transactionIDLength.lowerBound) to \(transactionIDLength.upperBound) hex digits (dashes allowed, so a UUID will do), or left out")
            }
            transactionID = given.lowercased()
        }
        var countryCode: String?
        if body["countryCode"] != nil, body["countryCode"] != .null {
            let given = try string(body, "countryCode")
            guard given.utf8.count == 2, given.utf8.allSatisfy({ (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) }) else {
                throw WalletTokenRejection("countryCode", "countryCode must be an ISO 3166 two-letter code in capitals, e.g. \"US\", or left out")
            }
            countryCode = given
        }
        let capabilities = try merchantCapabilities(body)
        return WalletTokenRequest(
            merchantIdentifier: merchant, network: network, last4: last4, amount: Int(amount), currency: currency, transactionIdentifier: transactionID,
            countryCode: countryCode, merchantCapabilities: capabilities)
    }

    /// `merchantCapabilities`: known names, each once, with supports3DS or supportsEMV (PassKit
    /// will not present a request that supports neither); nil when left out.
    private static func merchantCapabilities(_ body: [String: JSONValue]) throws(WalletTokenRejection) -> [String]? {
        guard let value = body["merchantCapabilities"], value != .null else { return nil }
        let names = WalletMerchantCapability.allCases.map(\.rawValue)
        guard case .array(let entries) = value, (1...names.count).contains(entries.count) else {
            throw WalletTokenRejection("merchantCapabilities", "merchantCapabilities must be an array of 1 to \(names.count) of \(names.joined(separator: ", "))", allowed: names)
        }
        var capabilities: [String] = []
        for entry in entries {
            guard case .string(let name) = entry, names.contains(name) else {
                throw WalletTokenRejection("merchantCapabilities", "merchantCapabilities holds an unknown capability; use \(names.joined(separator: ", "))", allowed: names)
            }
            guard !capabilities.contains(name) else {
                throw WalletTokenRejection("merchantCapabilities", "merchantCapabilities lists \(name) twice", allowed: names)
            }
            capabilities.append(name)
        }
        guard capabilities.contains(WalletMerchantCapability.supports3DS.rawValue) || capabilities.contains(WalletMerchantCapability.supportsEMV.rawValue) else {
            throw WalletTokenRejection(
                "merchantCapabilities", "merchantCapabilities must include supports3DS (or supportsEMV): PassKit presents no request without one", allowed: names)
        }
        return capabilities
    }

    /// A string field; `allowed` goes with any complaint about a field that takes a fixed set.
    private static func string(_ body: [String: JSONValue], _ field: String, allowed: [String]? = nil) throws(WalletTokenRejection) -> String {
        let choices = allowed.map { "; use one of \($0.joined(separator: ", "))" } ?? ""
        guard let value = body[field], value != .null else { throw WalletTokenRejection(field, "\(field) is missing\(choices)", allowed: allowed) }
        guard case .string(let text) = value else { throw WalletTokenRejection(field, "\(field) must be a string\(choices)", allowed: allowed) }
        return text
    }

    static func isLast4(_ text: String) -> Bool {
        text.utf8.count == 4 && text.utf8.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// Lowercase hex as Apple's ids are (64 digits), or shorter, with dashes allowed so a UUID
    /// (an attempt's idempotency key) can name the transaction.
    static func isTransactionID(_ text: String) -> Bool {
        transactionIDLength.contains(text.utf8.count) && text.utf8.allSatisfy { Self.transactionIDBytes.contains($0) }
            && text.utf8.contains { $0 != UInt8(ascii: "-") }
    }

    private static let transactionIDBytes = Set("0123456789abcdef-".utf8)

    /// 32 random bytes in hex, as Apple's transaction ids are.
    static func randomTransactionID() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in
            let byte = UInt8.random(in: 0...255, using: &generator)
            return (byte < 16 ? "0" : "") + String(byte, radix: 16)
        }.joined()
    }
}
