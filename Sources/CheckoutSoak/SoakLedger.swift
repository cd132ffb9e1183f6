import Foundation

/// The sandbox's ledger: where money moved, read from its provider-neutral `charges` section
/// (one row each time any provider moved money), plus Afterpay's `captures` for the report's
/// count of capture requests.
struct SoakLedger: Decodable {
    /// Money that moved once: by whom, for which reference, how much.
    struct Charge: Decodable {
        let provider: String
        let id: String
        let reference: String?
        let cents: Int?
        let currency: String?

        enum CodingKeys: String, CodingKey {
            case provider, id, reference, currency
            case cents = "amount"
        }
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

    /// Every time money moved, whichever provider moved it.
    let charges: [Charge]
    /// Afterpay's checkouts with capture calls (only for counting the calls).
    let captures: [Entry]

    enum CodingKeys: String, CodingKey {
        case charges, captures
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        charges = try container.decodeIfPresent([Charge].self, forKey: .charges) ?? []
        captures = try container.decodeIfPresent([Entry].self, forKey: .captures) ?? []
    }

    /// No payment charged twice; for the settling checkouts that ended 0 the money moved (in one
    /// payment, or several for a split tender) is their amount, never more than the sale, and
    /// nothing moved for one that ended declined or in an error.
    func problems(with results: [SoakResult]) -> [(SoakResult?, String)] {
        var problems: [(SoakResult?, String)] = []
        // The same provider's id charged more than once (an Afterpay token captured twice, …).
        let byPayment = Dictionary(grouping: charges) { "\($0.provider) \($0.id)" }
        for key in byPayment.keys.sorted() {
            guard let repeated = byPayment[key], repeated.count > 1, let charge = repeated.first else { continue }
            problems.append((nil, "\(charge.provider) \(charge.id) (\(charge.reference ?? "no reference")) was charged \(repeated.count) times"))
        }
        let byReference = Dictionary(grouping: charges) { $0.reference ?? "" }
        for result in results where result.checkout.provider.settles {
            let moved = byReference[result.checkout.reference] ?? []
            // Repeats of one payment are reported above; here each payment counts once.
            let payments = Dictionary(grouping: moved) { "\($0.provider) \($0.id)" }.values.compactMap(\.first)
            // A sale may be paid in several payments (a gift card's partial authorization and a card
            // for the rest): together they never move more than the sale.
            let cents = payments.reduce(0) { $0 + ($1.cents ?? 0) }
            if let amount = result.amount, cents > amount {
                problems.append((result, "the ledger moved \(cents) cents for \(result.checkout.reference) in \(payments.count) payment(s), more than the sale's \(amount)"))
                continue
            }
            if result.exitCode == 0, result.voided {
                // Authorized, then voided (cancelled as asked, through the handle, or by the delay action): nothing may have moved.
                if !payments.isEmpty { problems.append((result, "voided, yet money moved: \(payments.map(\.id).sorted())")) }
            } else if result.exitCode == 0 {
                guard !payments.isEmpty else {
                    problems.append((result, "completed, but the ledger shows no charge for \(result.checkout.reference)"))
                    continue
                }
                if cents != result.amount {
                    problems.append((result, "charged \(cents) cents in \(payments.count) payment(s) but the checkout charged \(result.amount ?? 0)"))
                }
            } else if !payments.isEmpty {
                problems.append((result, "ended with exit \(result.exitCode) (\(result.finalState ?? "?")), yet money moved: \(payments.map(\.id).sorted())"))
            }
        }
        return problems
    }

    var capturedCount: Int { charges.count }
    var captureRequestCount: Int { captures.reduce(0) { $0 + $1.captureRequests } }
    var capturedCents: Int { charges.reduce(0) { $0 + ($1.cents ?? 0) } }
}
