import CheckoutModel
import Foundation
import ProviderClients
import ProviderWire

/// Cash App Pay through an Afterpay merchant account: create the checkout token (the
/// merchant's server), sign it, create the customer request from the signed payment; after
/// `approved`, validate (never skipped) and capture with the token and the grant.
/// The driver authorizes and watches states on `pay` as for plain Cash App Pay.
public actor AfterpayFlow {
    public let afterpay: AfterpayClient
    public let pay: CashAppPay
    private let report: @Sendable (CheckoutPhase) -> Void
    private var signed: SignedPayment?
    private var merchantReference: String?

    public init(afterpay: AfterpayClient, pay: CashAppPay, report: @escaping @Sendable (CheckoutPhase) -> Void) {
        self.afterpay = afterpay
        self.pay = pay
        self.report = report
    }

    /// token → signing → creates the customer request (with `metadata`, when given). A
    /// failure ends in an SDK error state.
    public func begin(_ checkout: AfterpayCheckoutRequest, metadata: [String: String]? = nil) async {
        guard let payment = await tokenAndSign(checkout) else { return }
        await pay.createCustomerRequest(params: CreateCustomerRequestParams(
            actions: Self.actions(payment), channel: .IN_APP, redirectURL: payment.redirectURL,
            referenceID: checkout.merchantReference, metadata: metadata))
    }

    /// The cart changed before authorizing: Afterpay signs amounts, so a new token and
    /// signature come first, then the customer request is updated (PATCH) to the new amount.
    public func update(_ checkout: AfterpayCheckoutRequest) async {
        guard let payment = await tokenAndSign(checkout) else { return }
        await pay.updateCustomerRequest(with: UpdateCustomerRequestParams(
            actions: Self.actions(payment), referenceID: checkout.merchantReference, metadata: nil))
    }

    private func tokenAndSign(_ checkout: AfterpayCheckoutRequest) async -> SignedPayment? {
        merchantReference = checkout.merchantReference
        report(.token)
        let token: AfterpayCheckoutResponse
        do { token = try await afterpay.createCheckout(checkout) } catch {
            await pay.failBeforeRequest(Self.state(for: error))
            return nil
        }
        report(.signing)
        do {
            let payment = try await SignedPayment(signed: try await afterpay.signPayment(token: token.token))
            signed = payment
            return payment
        } catch {
            await pay.failBeforeRequest(Self.state(for: error))
            return nil
        }
    }

    private static func actions(_ payment: SignedPayment) -> [PaymentAction] {
        [.oneTimePayment(scopeID: payment.brandID, amount: payment.amount.minorUnits, currency: payment.amount.currency.code)]
    }

    /// validating → capturing → completed, or settlementFailed with the provider's reason.
    @discardableResult
    public func settle(request: CustomerRequest, grants: [Grant]) async -> CheckoutPhase {
        let outcome = await settlement(request: request, grants: grants)
        report(outcome)
        return outcome
    }

    private func settlement(request: CustomerRequest, grants: [Grant]) async -> CheckoutPhase {
        guard let signed else { return .settlementFailed(reason: "there is no signed Afterpay payment to settle") }
        guard let grant = grants.first(where: { $0.type == .ONE_TIME }) ?? grants.first,
            let customerID = request.customerProfile?.id ?? grants.first?.customerID
        else { return .settlementFailed(reason: "the approved request has no grant or customer to validate") }
        report(.validating)
        let validation: AfterpayValidateResponse
        do {
            validation = try await afterpay.validatePayment(AfterpayValidateRequest(
                jwt: signed.jwt, externalCustomerId: customerID, externalGrantId: grant.id))
        } catch {
            return .settlementFailed(reason: "validation failed: \(error)")
        }
        guard validation.status == "SUCCESS" else {
            return .settlementFailed(reason: "validation answered \(validation.status): \(validation.message ?? "no reason given"); start a new checkout")
        }
        report(.capturing)
        let payment: AfterpayPayment
        do {
            payment = try await afterpay.capture(AfterpayCaptureRequest(token: signed.token, merchantReference: merchantReference, grantId: grant.id))
        } catch {
            return .settlementFailed(reason: "capture failed: \(error)")
        }
        guard payment.status == "APPROVED" else {
            return .settlementFailed(reason: "capture \(payment.status): payment \(payment.id) is \(payment.paymentState)")
        }
        return .completed(paymentID: payment.id, cashtag: validation.cashAppTag ?? request.customerProfile?.cashtag)
    }

    /// Afterpay's answers on the SDK's error states: 5xx degradation, 4xx integration, transport network.
    static func state(for failure: AfterpayFailure) -> CashAppPayState {
        switch failure {
        case .api(let status, let error):
            let detail = CashAppPayError(category: status >= 500 ? "API_ERROR" : "AFTERPAY_\(status)", code: error.errorCode.uppercased(), detail: error.message)
            return status >= 500 ? .apiError(detail) : .integrationError(detail)
        case .transport(let transport):
            return .networkError(.noResponse(transport.description))
        case .undecodable(let status, let detail):
            return .networkError(.invalidJSON("HTTP \(status): \(detail)"))
        }
    }
}
