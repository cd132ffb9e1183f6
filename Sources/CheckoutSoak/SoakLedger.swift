import Foundation

/// The sandbox's ledger: where money moved, by merchant reference (Afterpay's captures and
/// Adyen's authorised payments).
struct SoakLedger: Decodable {
    /// An Adyen payment that was authorised (`adyen_payments`).
    struct AdyenPayment: Decodable {
        let pspReference: String
        let merchantReference: String
        let amount: Int

        enum CodingKeys: String, CodingKey {
            case amount
            case pspReference = "psp_reference"
            case merchantReference = "merchant_reference"
        }
    }

    /// Money that moved once: by whom, for which reference, how much.
    struct Charge {
        let id: String
        let reference: String?
        let cents: Int?
    }

    struct Entry: Decodable {
        struct Amount: Decodable { let amount: String; let currency: String }
        let token: String
        let merchantReference: String?
        let amount: Amount
        let captures: Int
        let captureRequests: Int

        enum CodingKeys: String, CodingKey {
            case token, amount, captures
            case merchantReference = "merchant_reference"
            case captureRequests = "capture_requests"
        }
    }

    let captures: [Entry]
    let adyenPayments: [AdyenPayment]

    enum CodingKeys: String, CodingKey {
        case captures
        case adyenPayments = "adyen_payments"
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        captures = try container.decodeIfPresent([Entry].self, forKey: .captures) ?? []
        adyenPayments = try container.decodeIfPresent([AdyenPayment].self, forKey: .adyenPayments) ?? []
    }

    /// Every payment that moved money: an Afterpay token captured (twice is its own problem),
    /// an Adyen payment authorised.
    var charges: [Charge] {
        captures.filter { $0.captures > 0 }.map { Charge(id: $0.token, reference: $0.merchantReference, cents: Self.cents($0.amount.amount)) }
            + adyenPayments.map { Charge(id: $0.pspReference, reference: $0.merchantReference, cents: $0.amount) }
    }

    /// No payment captured twice; money moved exactly for the settling checkouts that ended 0,
    /// for their amount, and never for one that ended declined or in an error.
    func problems(with results: [SoakResult]) -> [(SoakResult?, String)] {
        var problems: [(SoakResult?, String)] = captures.filter { $0.captures > 1 }.map {
            (nil, "token \($0.token) (\($0.merchantReference ?? "no reference")) was captured \($0.captures) times")
        }
        let byReference = Dictionary(grouping: charges) { $0.reference ?? "" }
        for result in results where result.checkout.provider.settles {
            let moved = byReference[result.checkout.reference] ?? []
            if result.exitCode == 0 {
                guard moved.count == 1, let charge = moved.first else {
                    problems.append((result, "completed, but the ledger shows \(moved.count) charges for \(result.checkout.reference)"))
                    continue
                }
                if charge.cents != result.amount { problems.append((result, "charged \(charge.cents ?? 0) cents but the checkout charged \(result.amount ?? 0)")) }
            } else if !moved.isEmpty {
                problems.append((result, "ended with exit \(result.exitCode) (\(result.finalState ?? "?")), yet money moved: \(moved.map(\.id))"))
            }
        }
        return problems
    }

    var capturedCount: Int { captures.reduce(0) { $0 + $1.captures } + adyenPayments.count }
    var captureRequestCount: Int { captures.reduce(0) { $0 + $1.captureRequests } }
    var capturedCents: Int { charges.reduce(0) { $0 + ($1.cents ?? 0) } }

    /// "45.05" → 4505 (the ledger keeps Afterpay's two-decimal strings).
    static func cents(_ amount: String) -> Int? {
        let parts = amount.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 15, parts[1].count == 2, let whole = Int(parts[0]), let fraction = Int(parts[1]) else { return nil }
        return whole * 100 + fraction
    }
}
