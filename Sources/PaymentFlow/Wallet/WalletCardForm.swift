import CheckoutModel
import Foundation

/// The merchant's own card form, offered when no card in the wallet is accepted: keyed entry
/// through Square, for the order as the cart prices it.
struct WalletCardForm: Sendable {
    let desk: CustomerDesk
    let services: WalletServices
    let receipts: WalletReceipts

    func run(
        reason: String, order: PaymentOrder, attempt: PaymentAttempt, ids: AttemptIdentifiers, step: @escaping StepReporter
    ) async throws(ProviderFailure) -> PaymentAttempt {
        var problem: String?
        var previous: [String: String] = [:]
        while true {
            guard let answer = await desk.ask(WalletPrompts.cardForm(reason: reason, problem: problem, previous: previous)) else { return attempt }
            previous = answer.fields
            let nonce: String
            switch WalletKeyedCard.read(answer.fields).flatMap({ $0.sandboxNonce() }) {
            case .failure(let formProblem):
                problem = formProblem.description
                continue
            case .success(let value):
                nonce = value
            }
            await step("processing")
            await desk.display(WalletPrompts.processing(.busy, title: "Processing", lines: ["Card ending \(String((answer.fields["number"] ?? "").suffix(4)))"]))
            let result: WalletChargeResult
            do throws(ProviderFailure) {
                result = try await services.keyed.charge(
                    nonce: nonce, amount: order.amount, reference: attempt.reference ?? ids.reference, idempotencyKey: ids.idempotencyKey)
            } catch {
                await desk.withdraw()
                throw error
            }
            await desk.withdraw()
            var decided = attempt
            decided.id = result.paymentID ?? attempt.id
            decided.status = result.approved ? .approved : .declined
            decided.grants = result.approved ? [result.paymentID ?? ids.reference] : []
            decided.declineReason = result.declineReason
            receipts.keep(reference: decided.reference ?? ids.reference, result.details.merging(["processor": "square", "entry": "card form"]) { given, _ in given })
            return decided
        }
    }
}
