import CheckoutModel
import Foundation
import PaymentFlow
import ProviderClients

/// The test provider's wire calls: create a payment, read it back.
struct TestPayAdapter: PaymentProviderAdapter {
    let baseURL: String
    let http: ProviderHTTPClient

    private struct Payment: Decodable {
        let id: String
        let state: String
        let amount_cents: Int
        let currency: String
        let pay_url: String
    }

    func create(_ draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        let body = try? JSONSerialization.data(withJSONObject: ["amount_cents": order.amount.minorUnits, "currency": order.amount.currency.code])
        return try await call(ProviderRequest(
            method: "POST", url: baseURL + "/testpay/v1/payments",
            headers: [(name: "Content-Type", value: "application/json"), (name: "Idempotency-Key", value: ids.idempotencyKey)], body: body),
            amount: order.amount)
    }

    func update(_ attempt: PaymentAttempt, to draft: PaymentAttempt, order: PaymentOrder, ids: AttemptIdentifiers) async throws(ProviderFailure) -> PaymentAttempt {
        var updated = attempt
        updated.amount = order.amount
        return updated
    }

    func retrieve(_ attempt: PaymentAttempt, refreshing: Bool) async throws(ProviderFailure) -> PaymentAttempt {
        try await call(ProviderRequest(method: "GET", url: baseURL + "/testpay/v1/payments/\(attempt.id ?? "")", headers: []), amount: attempt.amount)
    }

    private func call(_ request: ProviderRequest, amount: Money?) async throws(ProviderFailure) -> PaymentAttempt {
        let response: ProviderResponse
        do throws(TransportFailure) { response = try await http.send(request, provider: "testpay") } catch { throw .transport(error) }
        guard response.isSuccess else {
            throw ProviderFailure(kind: response.status >= 500 ? .api : .integration, category: "TESTPAY", code: "HTTP_\(response.status)", httpStatus: response.status)
        }
        guard let payment = try? JSONDecoder().decode(Payment.self, from: response.body) else {
            throw .undecodable(status: response.status, detail: "not a Test Pay payment")
        }
        return PaymentAttempt(
            provider: "testpay", id: payment.id,
            status: payment.state == "approved" ? .approved : payment.state == "declined" ? .declined : .pending, amount: amount,
            authorizationURL: payment.pay_url, payer: payment.state == "approved" ? "tester@testpay" : nil,
            grants: payment.state == "approved" ? ["TPG_\(payment.id)"] : [])
    }
}
