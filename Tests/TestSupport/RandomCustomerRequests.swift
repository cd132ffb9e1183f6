import Foundation
import ProviderWire

/// Customer requests (and what creates ask for) made of awkward pieces — slashes, non-ASCII text,
/// optional fields present or not — from a seed, the same ones every run: for holding the
/// hand-written JSON writers to the encoders they stand in for.
public struct RandomCustomerRequests {
    private struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return state
        }
    }

    private static let pieces = ["GRR_", "abc", "/", "é", "漢字", "🙂", "\u{7f}", " ", "https://x.test/a?b=1&c=2", "0", "BRAND_x", "$cash"]
    private var random: Seeded

    public init(seed: UInt64) { random = Seeded(state: seed) }

    public mutating func text() -> String {
        (0..<Int.random(in: 1...4, using: &random)).map { _ in Self.pieces.randomElement(using: &random)! }.joined()
    }

    public mutating func chance() -> Bool { Bool.random(using: &random) }

    private mutating func date() -> Date {
        Date(timeIntervalSince1970: Double(Int64.random(in: 0...4_102_444_800_000, using: &random)) / 1000)
    }

    private mutating func metadata(keys: Int) -> [String: String]? {
        keys == 0 && chance() ? nil : Dictionary(uniqueKeysWithValues: (0..<keys).map { ("key_\($0)_" + text(), text()) })
    }

    private mutating func action() -> PaymentAction {
        PaymentAction(
            type: [.ONE_TIME_PAYMENT, .ON_FILE_PAYMENT, .ON_FILE_PAYOUT].randomElement(using: &random)!, scopeID: text(),
            amount: chance() ? Int.random(in: -5...9_999_999, using: &random) : nil,
            currency: chance() ? "USD" : nil, accountReferenceID: chance() ? text() : nil)
    }

    private mutating func channel() -> CustomerRequest.Channel { [.IN_APP, .ONLINE, .IN_PERSON].randomElement(using: &random)! }

    public mutating func request(metadataKeys: Int) -> CustomerRequest {
        let triggers = CustomerRequest.AuthFlowTriggers(qrCodeImageURL: text(), qrCodeSVGURL: text(), mobileURL: text(), refreshesAt: date())
        let grants = (0..<Int.random(in: 0...2, using: &random)).map { _ in
            Grant(
                id: text(), customerID: text(), action: action(), status: .ACTIVE, type: .ONE_TIME, channel: .ONLINE,
                createdAt: date(), updatedAt: date(), expiresAt: chance() ? date() : nil, requestID: chance() ? text() : nil)
        }
        return CustomerRequest(
            id: text(), status: [.PENDING, .PROCESSING, .APPROVED, .DECLINED].randomElement(using: &random)!,
            actions: (0..<Int.random(in: 1...3, using: &random)).map { _ in action() },
            authFlowTriggers: chance() ? triggers : nil, redirectURL: chance() ? text() : nil,
            createdAt: date(), updatedAt: date(), expiresAt: date(),
            origin: chance() ? .init(type: "DIRECT", id: chance() ? text() : nil) : nil,
            channel: channel(), referenceID: chance() ? text() : nil,
            requesterProfile: chance() ? .init(name: text(), logoURL: chance() ? text() : nil) : nil,
            customerProfile: chance() ? .init(id: text(), cashtag: text()) : nil,
            metadata: metadata(keys: metadataKeys), grants: chance() ? grants : nil)
    }

    public mutating func params(metadataKeys: Int) -> CreateCustomerRequestParams {
        CreateCustomerRequestParams(
            actions: (0..<Int.random(in: 1...3, using: &random)).map { _ in action() }, channel: channel(), redirectURL: text(),
            referenceID: chance() ? text() : nil, metadata: metadata(keys: metadataKeys))
    }
}
