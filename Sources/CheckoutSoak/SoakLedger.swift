import Foundation

/// The sandbox's capture ledger: where money moved, by merchant reference.
struct SoakLedger: Decodable {
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

    /// No payment captured twice; money moved exactly for the settling checkouts that ended 0,
    /// for their amount, and never for one that ended declined or in an error.
    func problems(with results: [SoakResult]) -> [(SoakResult?, String)] {
        var problems: [(SoakResult?, String)] = captures.filter { $0.captures > 1 }.map {
            (nil, "token \($0.token) (\($0.merchantReference ?? "no reference")) was captured \($0.captures) times")
        }
        let byReference = Dictionary(grouping: captures) { $0.merchantReference ?? "" }
        for result in results where result.checkout.provider.settles {
            let moved = (byReference[result.checkout.reference] ?? []).filter { $0.captures > 0 }
            if result.exitCode == 0 {
                guard moved.count == 1, let entry = moved.first else {
                    problems.append((result, "completed, but the ledger shows \(moved.count) captures for \(result.checkout.reference)"))
                    continue
                }
                let cents = Self.cents(entry.amount.amount)
                if cents != result.amount { problems.append((result, "captured \(entry.amount.amount) but the checkout charged \(result.amount ?? 0) cents")) }
            } else if !moved.isEmpty {
                problems.append((result, "ended with exit \(result.exitCode) (\(result.finalState ?? "?")), yet money moved: \(moved.map(\.token))"))
            }
        }
        return problems
    }

    var capturedCount: Int { captures.reduce(0) { $0 + $1.captures } }
    var captureRequestCount: Int { captures.reduce(0) { $0 + $1.captureRequests } }
    var capturedCents: Int { captures.filter { $0.captures > 0 }.reduce(0) { $0 + (Self.cents($1.amount.amount) ?? 0) } }

    /// "45.05" → 4505 (the ledger keeps Afterpay's two-decimal strings).
    static func cents(_ amount: String) -> Int? {
        let parts = amount.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].count <= 15, parts[1].count == 2, let whole = Int(parts[0]), let fraction = Int(parts[1]) else { return nil }
        return whole * 100 + fraction
    }
}
