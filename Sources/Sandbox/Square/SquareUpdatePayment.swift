import Foundation
import Hummingbird
import ProviderWire

/// `PUT /v2/payments/{payment_id}` (UpdatePayment): changes an APPROVED payment's `amount_money`,
/// `tip_money`, `app_fee_money` or `delay_action` (the fields Square lets an update change; any
/// other field of `payment` is left as it is), last write wins unless `payment.version_token`
/// names the version the change was made against. `idempotency_key` is required: the same key and
/// body again answers the payment as it is now without changing it twice, another body is
/// IDEMPOTENCY_KEY_REUSED.
struct SquareUpdatePayment {
    let endpoint: SquareEndpoint

    func update(_ id: String, _ request: Request) async throws -> Response {
        let body = try SquareBody.parse(try await endpoint.body(request))
        let key = try body.requiredString("idempotency_key", bytes: SquareCreatePayment.idempotencyKeyBytes)
        let change = try body.object("payment") ?? SquareBody(fields: [:], path: "payment")
        let versionToken = try change.string("version_token", bytes: 1...256)
        let amount = try SquareCreatePayment.money(change, "amount_money")
        let tip = try SquareCreatePayment.money(change, "tip_money")
        let appFee = try SquareCreatePayment.money(change, "app_fee_money")
        let delayAction = try change.string("delay_action")
        if let delayAction, !["CANCEL", "COMPLETE"].contains(delayAction) {
            throw SquareRejection.invalid("INVALID_ENUM_VALUE", "delay_action must be CANCEL or COMPLETE.", field: change.name("delay_action"))
        }
        let fingerprint = body.canonical
        let now = endpoint.now
        let outcome = try await endpoint.store.change(id, now: now, limits: endpoint.limits) { record in
            switch record.updateOutcome(key: key, fingerprint: fingerprint) {
            case .replay: return .success(())
            case .keyReused:
                return .failure(SquareRejection.invalid(
                    "IDEMPOTENCY_KEY_REUSED", "The idempotency key can only be retried with the same request data.", field: "idempotency_key"))
            case .new: break
            }
            if let refusal = SquarePaymentRoutes.refusal(acting: "update", on: record) { return .failure(refusal) }
            if let versionToken, versionToken != record.payment.versionToken {
                return .failure(SquareRejection.invalid(
                    "VERSION_MISMATCH", "The payment has changed since this version_token; get it again for the current one.",
                    field: change.name("version_token")))
            }
            let currency = record.payment.totalMoney?.currency ?? ""
            for (field, money) in [("amount_money", amount), ("tip_money", tip), ("app_fee_money", appFee)] {
                if let money, money.currency != currency {
                    return .failure(SquareRejection.invalid(
                        "CURRENCY_MISMATCH", "\(field) must be in \(currency), the payment's currency.", field: change.name("\(field).currency")))
                }
            }
            let newAmount = amount?.amount ?? record.payment.amountMoney?.amount ?? 0
            let newTip = tip?.amount ?? record.payment.tipMoney?.amount ?? 0
            if Int64(newAmount) + Int64(newTip) > Int64(SandboxLimits.maxAmountMinorUnits) {
                return .failure(SquareRejection.invalid(
                    "VALUE_TOO_HIGH", "amount_money plus tip_money must be at most \(SandboxLimits.maxAmountMinorUnits) (minor units).",
                    field: change.name(amount != nil ? "amount_money.amount" : "tip_money.amount")))
            }
            record.update(amount: amount, tip: tip, appFee: appFee, delayAction: delayAction, key: key, fingerprint: fingerprint, at: now)
            return .success(())
        }
        switch outcome {
        case .success(let record): return SquareJSON.response(SquarePaymentResponse(payment: record.payment))
        case .failure(let rejection): throw rejection
        case nil: throw SquareEndpoint.notFound(payment: id)
        }
    }
}
