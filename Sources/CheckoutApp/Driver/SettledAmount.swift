import CheckoutModel
import PaymentFlow

/// The checkout's amount as both front ends show it: the amount asked, or what the payment came
/// to once settled when that differs (a tip added after authorization): `$48.05 (asked $45.05)`.
enum SettledAmount {
    static func text(asked: Money, phase: CheckoutPhase?) -> String {
        guard case .completed(let receipt)? = phase, let total = receipt.total, total != asked else { return asked.formatted }
        return "\(total.formatted) (asked \(asked.formatted))"
    }
}
